package api

import (
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

type templateSummary struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Description   string `json:"description"`
	QuestionCount int    `json:"question_count"`
}

func (s *Server) listTemplates(c *gin.Context) error {
	ts := tasks.Templates()
	out := make([]templateSummary, len(ts))
	for i, t := range ts {
		out[i] = templateSummary{t.ID, t.Name, t.Description, t.QuestionCount()}
	}
	c.JSON(http.StatusOK, out)
	return nil
}

func (s *Server) getTemplate(c *gin.Context) error {
	t, ok := tasks.LookupTemplate(c.Param("id"))
	if !ok {
		return &store.NotFoundError{What: "template"}
	}
	c.JSON(http.StatusOK, t)
	return nil
}

type validateAnswersRequest struct {
	Answers tasks.Answers `json:"answers"`
	Form    string        `json:"form"`
}

// validateTemplateAnswers checks answers against a template's schema (or one of its extra
// forms): 200 {"valid": true}, or 422 with an error per question key.
func (s *Server) validateTemplateAnswers(c *gin.Context) error {
	t, ok := tasks.LookupTemplate(c.Param("id"))
	if !ok {
		return &store.NotFoundError{What: "template"}
	}
	var req validateAnswersRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	schema := &t.Schema
	if req.Form != "" {
		f, ok := t.Form(req.Form)
		if !ok {
			return &store.NotFoundError{What: "form"}
		}
		schema = &f.Schema
	}
	if err := schema.ValidateAnswers(req.Answers); err != nil {
		return err
	}
	c.JSON(http.StatusOK, validResponse{Valid: true})
	return nil
}

// validResponse says answers passed validation.
type validResponse struct {
	Valid bool `json:"valid"`
}

// serveTemplateMedia serves the sample media shipped with the built-in templates. They are
// public example files, so plain URLs are fine.
func (s *Server) serveTemplateMedia(c *gin.Context) {
	name := path.Clean(strings.TrimPrefix(c.Param("path"), "/"))
	c.Header("Cache-Control", "public, max-age=3600")
	c.Header("X-Content-Type-Options", "nosniff")
	if t, ok := media.ExtraTypes[path.Ext(name)]; ok {
		c.Header("Content-Type", t)
	}
	serveFile(c, tasks.SampleMediaFS(), name)
}
