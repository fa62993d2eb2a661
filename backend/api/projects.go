package api

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func (s *Server) listProjects(c *gin.Context) error {
	ps, err := s.projects.Projects(c.Request.Context(), currentUser(c), c.Query("archived") == "true")
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, ps)
	return nil
}

func (s *Server) createProject(c *gin.Context) error {
	var req projects.ProjectSpec
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	p, err := s.projects.CreateProject(c.Request.Context(), currentUser(c), req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, p)
	return nil
}

func (s *Server) getProject(c *gin.Context) error {
	p, err := s.projects.Detail(c.Request.Context(), currentProject(c), projectRoles(c))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, p)
	return nil
}

// patchProject edits a project; a changed schema becomes a new version.
func (s *Server) patchProject(c *gin.Context) error {
	var req projects.ProjectPatch
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	p, err := s.projects.PatchProject(c.Request.Context(), currentUser(c).ID, currentProject(c), projectRoles(c), req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, p)
	return nil
}

// validateSetup checks a template or schema and a policy as project creation would, writing
// nothing; a setup that breaks a rule is answered 200 with its problems.
func (s *Server) validateSetup(c *gin.Context) error {
	var req projects.SetupDraft
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	res, err := s.projects.CheckSetup(req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, res)
	return nil
}

type archiveRequest struct {
	Archived bool `json:"archived"`
}

func (s *Server) archiveProject(c *gin.Context) error {
	var req archiveRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	p, err := s.projects.Archive(c.Request.Context(), currentUser(c).ID, currentProject(c), req.Archived)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, p)
	return nil
}

type deleteRequest struct {
	Confirm string `json:"confirm"`
}

// deleteProject deletes the project once the lead typed its name.
func (s *Server) deleteProject(c *gin.Context) error {
	var req deleteRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := s.projects.DeleteProject(c.Request.Context(), currentUser(c).ID, currentProject(c), req.Confirm); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

func (s *Server) listSchemaVersions(c *gin.Context) error {
	vs, err := s.projects.SchemaVersions(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, vs)
	return nil
}

// feasibility says whether the members can do what the policy asks.
func (s *Server) feasibility(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	f, err := s.projects.Feasibility(c.Request.Context(), fp)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, f)
	return nil
}

// stuckWork lists the waiting work no current member can be given, per stage.
func (s *Server) stuckWork(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	st, err := s.projects.Stuck(c.Request.Context(), fp)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, stuckResponse{st})
	return nil
}

// assignStuck gives one piece of stuck work to a named person, adding the stage's role when asked.
func (s *Server) assignStuck(c *gin.Context) error {
	var req projects.StuckAssign
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	res, err := s.projects.AssignStuck(c.Request.Context(), fp, currentUser(c), req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, res)
	return nil
}

// stuckCandidates lists the members to whom one piece of stuck work may be given.
func (s *Server) stuckCandidates(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	cs, err := s.projects.StuckCandidates(c.Request.Context(), fp, flow.Stage(c.Query("stage")), c.Query("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, stuckCandidatesResponse{cs})
	return nil
}

// stuckCandidatesResponse lists who may be given one piece of stuck work.
type stuckCandidatesResponse struct {
	Candidates []projects.StuckCandidate `json:"candidates"`
}

// stuckResponse lists stuck work per stage.
type stuckResponse struct {
	Stages []projects.StuckStage `json:"stages"`
}

func (s *Server) listMembers(c *gin.Context) error {
	ms, err := s.projects.MembersAs(c.Request.Context(), currentProject(c).ID, currentUser(c).ID, projectRoles(c))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, ms)
	return nil
}

type setMemberRequest struct {
	Roles     *[]store.Role `json:"roles"`
	Paused    *bool         `json:"paused"`
	Qualified *bool         `json:"qualified"`
	Languages *[]string     `json:"languages"`
}

// setMember gives a user roles in the project. :uid is a user id or an email address.
func (s *Server) setMember(c *gin.Context) error {
	var req setMemberRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	m, err := s.projects.ChangeMember(c.Request.Context(), currentUser(c), currentProject(c).ID, c.Param("uid"),
		projects.MemberChange{Roles: req.Roles, Paused: req.Paused, Qualified: req.Qualified, Languages: req.Languages})
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, m)
	return nil
}

func (s *Server) listInvitations(c *gin.Context) error {
	is, err := s.projects.Invitations(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, is)
	return nil
}

func (s *Server) myInvitations(c *gin.Context) error {
	is, err := s.projects.MyInvitations(c.Request.Context(), currentUser(c))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, is)
	return nil
}

func (s *Server) acceptInvitation(c *gin.Context) error  { return s.answerInvitation(c, true) }
func (s *Server) declineInvitation(c *gin.Context) error { return s.answerInvitation(c, false) }

func (s *Server) answerInvitation(c *gin.Context, accept bool) error {
	if err := s.projects.AnswerInvitation(c.Request.Context(), currentUser(c), c.Param("iid"), accept); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// auditPage is one page of a project's audit trail.
type auditPage struct {
	Items []projects.AuditEventView `json:"items"`
}

func (s *Server) listAudit(c *gin.Context) error {
	limit, err := intQuery(c, "limit", 100)
	if err != nil {
		return err
	}
	es, err := s.projects.Audit(c.Request.Context(), currentProject(c).ID, limit)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, auditPage{es})
	return nil
}

// intQuery reads an integer query parameter, def when absent.
func intQuery(c *gin.Context, name string, def int) (int, error) {
	v, ok := c.GetQuery(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, tasks.Field(name, "invalid_value", "%s must be a whole number", name)
	}
	return n, nil
}
