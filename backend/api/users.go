package api

import (
	"errors"
	"net/http"
	"net/mail"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

type createUserRequest struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	Password string `json:"password"`
	IsAdmin  bool   `json:"is_admin"`
}

func (r *createUserRequest) validate() error {
	fe := FieldErrors{}
	if a, err := mail.ParseAddress(r.Email); err != nil || a.Address != strings.TrimSpace(r.Email) {
		fe["email"] = FieldError{"invalid_email", "email must be a plain address like ana@example.org"}
	}
	if n := len(strings.TrimSpace(r.Name)); n == 0 || n > 200 {
		fe["name"] = FieldError{"invalid_length", "name must be 1 to 200 characters"}
	}
	if len(r.Password) < auth.MinPasswordLength || len(r.Password) > 1024 {
		fe["password"] = FieldError{"too_short", "password must be at least 10 characters"}
	}
	return fe.Err()
}

func (s *Server) createUser(c *gin.Context) error {
	var req createUserRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return err
	}
	u := &store.User{Email: req.Email, Name: strings.TrimSpace(req.Name), PasswordHash: hash, IsAdmin: req.IsAdmin}
	err = s.store.CreateUser(c.Request.Context(), u)
	if errors.Is(err, store.ErrConflict) {
		return &Error{Status: http.StatusConflict, Code: CodeConflict, Message: "a user with this email exists",
			Details: FieldErrors{"email": {"taken", "email is already registered"}}}
	}
	if err != nil {
		return err
	}
	s.audit(c, "", "user.create", "user:"+u.ID, nil, u)
	c.JSON(http.StatusCreated, u)
	return nil
}

func (s *Server) listUsers(c *gin.Context) error {
	us, err := s.store.Users(c.Request.Context())
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, us)
	return nil
}

// audit records a state change; a failure to record is logged, and never hides the change.
func (s *Server) audit(c *gin.Context, projectID, action, target string, before, after any) {
	actor := ""
	if u, ok := c.Get(ctxUser); ok {
		actor = u.(*store.User).ID
	}
	if err := s.store.Audit(c.Request.Context(), projectID, actor, action, target, before, after); err != nil {
		s.log.Error("audit event not recorded", "err", err, "action", action, "target", target)
	}
}
