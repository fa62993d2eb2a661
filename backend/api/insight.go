package api

import (
	"net/http"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/gin-gonic/gin"
)

// projectBalance answers the project's balance and readiness against its targets.
func (s *Server) projectBalance(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.insight.Balance(c.Request.Context(), fp)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

// projectReport answers the project's dataset report with its loss accounting.
func (s *Server) projectReport(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.insight.DatasetReport(c.Request.Context(), fp)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

// projectJudges answers the judge leaderboard against the newest ground truth.
func (s *Server) projectJudges(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.insight.Judges(c.Request.Context(), fp, insight.JudgeOptions{
		ClusterKey: c.Query("cluster_key"), StrataKey: c.Query("strata_key"), SystemKey: c.Query("system_key")})
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}
