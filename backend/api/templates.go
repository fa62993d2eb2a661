package api

import (
	"errors"
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

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
		return notFound("template")
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
		return notFound("template")
	}
	var req validateAnswersRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	schema := &t.Schema
	if req.Form != "" {
		f, ok := t.Form(req.Form)
		if !ok {
			return notFound("form")
		}
		schema = &f.Schema
	}
	if err := schema.ValidateAnswers(req.Answers); err != nil {
		return validationError(err)
	}
	c.JSON(http.StatusOK, gin.H{"valid": true})
	return nil
}

// validationError turns the field errors of the tasks package into the API's 422.
func validationError(err error) error {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return err
	}
	return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation,
		Message: "some answers are invalid", Details: fe}
}

// serveTemplateMedia serves the sample media shipped with the built-in templates. They are
// public example files, so plain URLs are fine.
func (s *Server) serveTemplateMedia(c *gin.Context) {
	name := path.Clean(strings.TrimPrefix(c.Param("path"), "/"))
	c.Header("Cache-Control", "public, max-age=3600")
	c.Header("X-Content-Type-Options", "nosniff")
	if t, ok := extraTypes[path.Ext(name)]; ok {
		c.Header("Content-Type", t)
	}
	serveFile(c, tasks.SampleMediaFS(), name)
}
