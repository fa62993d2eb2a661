package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// workflowError maps the workflow's errors to responses.
func workflowError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, workflow.ErrStaleVersion), errors.Is(err, workflow.ErrLeaseLost), errors.Is(err, workflow.ErrHasDraft),
		errors.Is(err, workflow.ErrAlreadyDone), errors.Is(err, workflow.ErrNotActive), errors.Is(err, workflow.ErrItemNotInFlow):
		return fail(http.StatusConflict, conflictCode(err), "%s", err.Error())
	case errors.Is(err, workflow.ErrWrongStage):
		return FieldErrors{"stage": {"invalid_value", err.Error()}}.Err()
	case errors.Is(err, workflow.ErrRoleRequired):
		return fail(http.StatusForbidden, CodeForbidden, "%s", err.Error())
	case errors.Is(err, workflow.ErrNotYours):
		return notFound("assignment")
	}
	return validationError(err)
}

func conflictCode(err error) string {
	switch {
	case errors.Is(err, workflow.ErrStaleVersion):
		return "stale_version"
	case errors.Is(err, workflow.ErrLeaseLost):
		return "lease_lost"
	case errors.Is(err, workflow.ErrAlreadyDone):
		return "already_submitted"
	case errors.Is(err, workflow.ErrHasDraft):
		return "has_draft"
	}
	return CodeConflict
}

// loadFlow returns the project's workflow view; projects without a schema cannot be worked on.
func (s *Server) loadFlow(c *gin.Context, p *store.Project) (*workflow.Project, error) {
	if p.SchemaVersion == 0 {
		return nil, fail(http.StatusConflict, "no_schema", "this project has no task schema yet; set one with PATCH")
	}
	return s.flow.LoadProject(c.Request.Context(), p, 0)
}

type nextRequest struct {
	Stage    string `json:"stage"`
	Prefetch bool   `json:"prefetch"`
}

// queueNext claims the next piece of work: 200 with the blinded view, or 204 when none is left.
func (s *Server) queueNext(c *gin.Context) error {
	var req nextRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := s.loadFlow(c, currentProject(c))
	if err != nil {
		return err
	}
	claim, err := s.flow.Next(c.Request.Context(), fp, currentUser(c), projectRoles(c), req.Stage, req.Prefetch)
	if err != nil {
		return workflowError(err)
	}
	if claim == nil {
		c.Status(http.StatusNoContent)
		return nil
	}
	a := claim.Assignment
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{
		"assignment": gin.H{"id": a.ID, "stage": a.Stage, "lease_expires_at": a.LeaseExpiresAt, "version": a.Version,
			"schema_version": a.SchemaVersion, "draft_source": a.DraftSource},
		"item": claim.View, "draft": claim.Draft, "context": claim.Context,
	})
	return nil
}

// assignmentFlow loads the caller's assignment and its project, checking the caller still
// belongs to the project. Other people's assignments do not exist for the caller.
func (s *Server) assignmentFlow(c *gin.Context) (*workflow.Project, *store.Assignment, error) {
	ctx := c.Request.Context()
	u := currentUser(c)
	a, err := s.flow.Assignment(ctx, c.Param("aid"), u.ID)
	if err != nil {
		return nil, nil, mapNotFound(err, "assignment")
	}
	p, err := s.store.Project(ctx, a.ProjectID)
	if err != nil {
		return nil, nil, err
	}
	if !u.IsAdmin {
		if _, err := s.store.Member(ctx, p.ID, u.ID); err != nil {
			return nil, nil, mapNotFound(err, "assignment")
		}
	}
	fp, err := s.loadFlow(c, p)
	return fp, a, err
}

type draftRequest struct {
	Answers tasks.Answers `json:"answers"`
	Version *int          `json:"version"`
}

func (s *Server) saveDraft(c *gin.Context) error {
	fp, a, err := s.assignmentFlow(c)
	if err != nil {
		return err
	}
	var req draftRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Version == nil {
		return FieldErrors{"version": {"required", "send the version you loaded; a stale one gets 409"}}.Err()
	}
	v, err := s.flow.SaveDraft(c.Request.Context(), fp, currentUser(c).ID, a.ID, req.Answers, *req.Version)
	if errors.Is(err, workflow.ErrStaleVersion) {
		return &Error{Status: http.StatusConflict, Code: "stale_version", Message: err.Error(), Details: gin.H{"current_version": v}}
	}
	if err != nil {
		return workflowError(err)
	}
	c.JSON(http.StatusOK, gin.H{"version": v})
	return nil
}

func (s *Server) heartbeat(c *gin.Context) error {
	fp, a, err := s.assignmentFlow(c)
	if err != nil {
		return err
	}
	until, err := s.flow.Heartbeat(c.Request.Context(), fp, currentUser(c).ID, a.ID)
	if err != nil {
		return workflowError(err)
	}
	c.JSON(http.StatusOK, gin.H{"lease_expires_at": until})
	return nil
}

type skipRequest struct {
	Reason string `json:"reason"`
}

func (s *Server) skip(c *gin.Context) error {
	fp, a, err := s.assignmentFlow(c)
	if err != nil {
		return err
	}
	var req skipRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := s.flow.Skip(c.Request.Context(), fp, currentUser(c).ID, a.ID, strings.TrimSpace(req.Reason)); err != nil {
		return workflowError(err)
	}
	c.Status(http.StatusNoContent)
	return nil
}

type flagRequest struct {
	Category string `json:"category"`
	Reason   string `json:"reason"`
}

func (s *Server) flagAssignment(c *gin.Context) error {
	fp, a, err := s.assignmentFlow(c)
	if err != nil {
		return err
	}
	var req flagRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if !contains(workflow.FlagCategories, req.Category) {
		return FieldErrors{"category": {"invalid_value", "category must be one of " + strings.Join(workflow.FlagCategories, ", ")}}.Err()
	}
	if req.Category == "other" && strings.TrimSpace(req.Reason) == "" {
		return FieldErrors{"reason": {"required", "say what is wrong with the item"}}.Err()
	}
	if err := s.flow.Flag(c.Request.Context(), fp, currentUser(c).ID, a.ID, req.Category, req.Reason); err != nil {
		return workflowError(err)
	}
	c.Status(http.StatusNoContent)
	return nil
}

type submitRequest struct {
	Answers       tasks.Answers     `json:"answers"`
	Verdict       string            `json:"verdict"`
	Comment       string            `json:"comment"`
	Comments      map[string]string `json:"comments"`
	Rationale     string            `json:"rationale"`
	Confidence    *int              `json:"confidence"`
	ErrorCategory string            `json:"error_category"`
	TimeSpentMS   int64             `json:"time_spent_ms"`
}

// submit finishes an assignment. A retry with the same Idempotency-Key is applied once and
// answered with the first result.
func (s *Server) submit(c *gin.Context) error {
	fp, a, err := s.assignmentFlow(c)
	if err != nil {
		return err
	}
	var req submitRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	key := c.GetHeader("Idempotency-Key")
	if len(key) > 200 {
		return FieldErrors{"Idempotency-Key": {"too_long", "at most 200 characters"}}.Err()
	}
	res, err := s.flow.Submit(c.Request.Context(), fp, currentUser(c).ID, a.ID, workflow.Submission{
		Answers: req.Answers, Verdict: req.Verdict, Comment: req.Comment, Comments: req.Comments, Rationale: req.Rationale,
		Confidence: req.Confidence, ErrorCategory: req.ErrorCategory, TimeSpentMS: req.TimeSpentMS, IdempotencyKey: key,
	})
	if err != nil {
		return workflowError(err)
	}
	c.JSON(http.StatusOK, gin.H{"assignment": gin.H{"id": res.Assignment.ID, "stage": res.Assignment.Stage, "status": res.Assignment.Status,
		"submitted_at": res.Assignment.SubmittedAt}, "item_stage": res.ItemStage, "replayed": res.Replayed})
	return nil
}

func contains(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// myProgress tells a member what they did today and in total per stage, and how much work is
// left for them.
func (s *Server) myProgress(c *gin.Context) error {
	fp, err := s.loadFlow(c, currentProject(c))
	if err != nil {
		return err
	}
	pr, err := s.flow.MyProgress(c.Request.Context(), fp, currentUser(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, gin.H{"stages": pr})
	return nil
}

// release gives back an untouched assignment (204); one with saved answers gets 409 has_draft.
func (s *Server) release(c *gin.Context) error {
	fp, a, err := s.assignmentFlow(c)
	if err != nil {
		return err
	}
	if err := s.flow.Release(c.Request.Context(), fp, currentUser(c).ID, a.ID); err != nil {
		return workflowError(err)
	}
	c.Status(http.StatusNoContent)
	return nil
}
