package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// projectView is a project as the caller sees it, with the caller's roles.
type projectView struct {
	*store.Project
	MyRoles store.RoleSet `json:"my_roles"`
}

func (s *Server) listProjects(c *gin.Context) error {
	ctx := c.Request.Context()
	u := currentUser(c)
	filter := u.ID
	if u.IsAdmin {
		filter = ""
	}
	ps, err := s.store.Projects(ctx, filter)
	if err != nil {
		return err
	}
	roles, err := s.store.MemberRoles(ctx, u.ID)
	if err != nil {
		return err
	}
	out := make([]projectView, len(ps))
	for i := range ps {
		mine := roles[ps[i].ID]
		if u.IsAdmin {
			mine = store.Roles
		}
		out[i] = projectView{&ps[i], mine}
	}
	c.JSON(http.StatusOK, out)
	return nil
}

func (s *Server) listMembers(c *gin.Context) error {
	ms, err := s.store.Members(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, ms)
	return nil
}

type setMemberRequest struct {
	Roles []store.Role `json:"roles"`
}

func (r *setMemberRequest) validate() error {
	fe := FieldErrors{}
	if r.Roles == nil {
		fe["roles"] = FieldError{"required", "roles is required (an empty list removes the member)"}
	}
	for i, role := range r.Roles {
		if !role.Valid() {
			fe["roles["+strconv.Itoa(i)+"]"] = FieldError{"unknown_role", fmt.Sprintf("%q is not one of %v", role, store.Roles)}
		}
	}
	return fe.Err()
}

// setMember gives a user roles in the project. :uid is a user id or an email address.
func (s *Server) setMember(c *gin.Context) error {
	var req setMemberRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	ctx := c.Request.Context()
	p := currentProject(c)
	target, err := s.userByRef(c, c.Param("uid"))
	if err != nil {
		return err
	}
	before, err := s.store.Member(ctx, p.ID, target.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	roles := store.RoleSet(req.Roles).Normalize()
	if err := s.store.SetMember(ctx, p.ID, target.ID, roles); err != nil {
		return err
	}
	s.audit(c, p.ID, "member.set", "user:"+target.ID, before.Roles, roles)
	c.JSON(http.StatusOK, store.MemberView{UserID: target.ID, Email: target.Email, Name: target.Name, Roles: roles})
	return nil
}

func (s *Server) userByRef(c *gin.Context, ref string) (*store.User, error) {
	var u *store.User
	var err error
	if strings.Contains(ref, "@") {
		u, err = s.store.UserByEmail(c.Request.Context(), ref)
	} else {
		u, err = s.store.User(c.Request.Context(), ref)
	}
	return u, mapNotFound(err, "user")
}

func (s *Server) listAudit(c *gin.Context) error {
	limit, err := strconv.Atoi(c.DefaultQuery("limit", "100"))
	if err != nil || limit < 1 || limit > 1000 {
		return &Error{Status: http.StatusBadRequest, Code: CodeBadRequest, Message: "limit must be 1 to 1000",
			Details: FieldErrors{"limit": {"out_of_range", "limit must be 1 to 1000"}}}
	}
	es, err := s.store.AuditEvents(c.Request.Context(), currentProject(c).ID, limit)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, gin.H{"items": es})
	return nil
}
