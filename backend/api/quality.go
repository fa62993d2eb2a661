package api

import (
	"net/http"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/gin-gonic/gin"
)

// projectQuality answers each annotator's quality figures and flags.
func (s *Server) projectQuality(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.insight.Quality(c.Request.Context(), fp)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

// projectAgreement answers the project's agreement figures as the background job left them.
func (s *Server) projectAgreement(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.insight.Agreement(c.Request.Context(), fp, c.Query("stage"), insight.ParseQuestionList(c.Query("questions")))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}
