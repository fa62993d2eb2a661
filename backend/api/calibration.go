package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// roundList is a project's calibration rounds.
type roundList struct {
	Rounds []workflow.RoundView `json:"rounds"`
}

// noteRequest attaches feedback to an (item, question) of a closed round.
type noteRequest struct {
	ItemID   string `json:"item_id"`
	Question string `json:"question"`
	Note     string `json:"note"`
}

// noteCreated names a stored note.
type noteCreated struct {
	ID string `json:"id"`
}

func (s *Server) createRound(c *gin.Context) error {
	var req workflow.RoundSpec
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	r, err := s.flow.CreateRound(c.Request.Context(), fp, currentUser(c).ID, req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, r)
	return nil
}

func (s *Server) listRounds(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rs, err := s.flow.Rounds(c.Request.Context(), fp, currentUser(c).ID, projectRoles(c))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, roundList{rs})
	return nil
}

func (s *Server) getRound(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	r, err := s.flow.Round(c.Request.Context(), fp, c.Param("rid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, r)
	return nil
}

func (s *Server) closeRound(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	r, err := s.flow.CloseRound(c.Request.Context(), fp, currentUser(c).ID, c.Param("rid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, r)
	return nil
}

func (s *Server) roundReport(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.flow.Report(c.Request.Context(), fp, c.Param("rid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

func (s *Server) addRoundNote(c *gin.Context) error {
	var req noteRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	id, err := s.flow.AddNote(c.Request.Context(), fp, currentUser(c).ID, c.Param("rid"), req.ItemID, req.Question, req.Note)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, noteCreated{id})
	return nil
}

func (s *Server) myRoundResult(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	m, err := s.flow.Mine(c.Request.Context(), fp, currentUser(c).ID, c.Param("rid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, m)
	return nil
}
