package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

type nextRequest struct {
	Stage    flow.Stage `json:"stage"`
	Prefetch bool       `json:"prefetch"`
}

// worker is the caller with their roles in the project, as the workflow checks them.
func worker(c *gin.Context) workflow.Worker {
	return workflow.Worker{ID: currentUser(c).ID, Roles: projectRoles(c)}
}

// queueNext claims the next piece of work: 200 with the blinded view, or 204 when none is left.
func (s *Server) queueNext(c *gin.Context) error {
	var req nextRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	claim, err := s.flow.Next(c.Request.Context(), fp, currentUser(c), projectRoles(c), req.Stage, req.Prefetch)
	if err != nil {
		return err
	}
	if claim == nil {
		c.Status(http.StatusNoContent)
		return nil
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, workflow.ClaimViewOf(claim))
	return nil
}

// assignmentAlias answers a deprecated /api/v1/assignments/:aid/... request as the route
// under the assignment's project, which checks membership and roles again.
func (s *Server) assignmentAlias(c *gin.Context) error {
	a, err := s.flow.Assignment(c.Request.Context(), c.Param("aid"), currentUser(c).ID)
	if err != nil {
		return err
	}
	action := c.Request.URL.Path[strings.LastIndex(c.Request.URL.Path, "/")+1:]
	c.Header("Deprecation", "true")
	c.Request.URL.Path = "/api/v1/projects/" + a.ProjectID + "/assignments/" + a.ID + "/" + action
	s.engine.HandleContext(c)
	c.Abort()
	return nil
}

type draftRequest struct {
	Answers tasks.Answers `json:"answers"`
	Version *int          `json:"version"`
}

// versionResponse is a draft's version after a save.
type versionResponse struct {
	Version int `json:"version"`
}

func (s *Server) saveDraft(c *gin.Context) error {
	var req draftRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	v, err := s.flow.SaveDraft(c.Request.Context(), fp, worker(c), c.Param("aid"), req.Answers, req.Version)
	if err != nil {
		return withCurrentVersion(err, v)
	}
	c.JSON(http.StatusOK, versionResponse{v})
	return nil
}

// withCurrentVersion tells a client holding a stale version which one is current.
func withCurrentVersion(err error, current int) error {
	e, ok := toError(err)
	if !ok || e.Code != "stale_version" {
		return err
	}
	return &Error{Status: e.Status, Code: e.Code, Message: e.Message, Details: map[string]int{"current_version": current}}
}

// leaseResponse says until when an assignment is held.
type leaseResponse struct {
	LeaseExpiresAt time.Time `json:"lease_expires_at"`
}

func (s *Server) heartbeat(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	until, err := s.flow.Heartbeat(c.Request.Context(), fp, worker(c), c.Param("aid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, leaseResponse{until})
	return nil
}

type skipRequest struct {
	Reason string `json:"reason"`
}

func (s *Server) skip(c *gin.Context) error {
	var req skipRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	if err := s.flow.Skip(c.Request.Context(), fp, worker(c), c.Param("aid"), strings.TrimSpace(req.Reason)); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

type flagRequest struct {
	Category flow.FlagCategory `json:"category"`
	Reason   string            `json:"reason"`
}

func (s *Server) flagAssignment(c *gin.Context) error {
	var req flagRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	if err := s.flow.Flag(c.Request.Context(), fp, worker(c), c.Param("aid"), req.Category, req.Reason); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

type submitRequest struct {
	Answers       tasks.Answers     `json:"answers"`
	Verdict       flow.Verdict      `json:"verdict"`
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
	var req submitRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	res, err := s.flow.Submit(c.Request.Context(), fp, worker(c), c.Param("aid"), workflow.Submission{
		Answers: req.Answers, Verdict: req.Verdict, Comment: req.Comment, Comments: req.Comments, Rationale: req.Rationale,
		Confidence: req.Confidence, ErrorCategory: req.ErrorCategory, TimeSpentMS: req.TimeSpentMS,
		IdempotencyKey: c.GetHeader("Idempotency-Key"),
	})
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, workflow.SubmitViewOf(res))
	return nil
}

// progressResponse is a member's standing per stage.
type progressResponse struct {
	Stages []workflow.Progress `json:"stages"`
}

// myProgress tells a member what they did today and in total per stage, and how much work is
// left for them.
func (s *Server) myProgress(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	pr, err := s.flow.MyProgress(c.Request.Context(), fp, currentUser(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, progressResponse{pr})
	return nil
}

// myRejections lists the caller's own labels a reviewer rejected, with the reasons.
func (s *Server) myRejections(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rs, err := s.flow.MyRejections(c.Request.Context(), fp, currentUser(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rejectionsResponse{rs})
	return nil
}

// rejectionsResponse lists the caller's rejected labels.
type rejectionsResponse struct {
	Items []workflow.RejectionView `json:"items"`
}

// release gives back an untouched assignment (204); one with saved answers gets 409 has_draft.
func (s *Server) release(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	if err := s.flow.Release(c.Request.Context(), fp, worker(c), c.Param("aid")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}
