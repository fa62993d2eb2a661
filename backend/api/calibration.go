package api

import (
	"net/http"

	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/gin-gonic/gin"
)

// roundList is a project's calibration rounds.
type roundList struct {
	Rounds []calibration.RoundView `json:"rounds"`
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
	var req calibration.RoundSpec
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	r, err := s.calibration.CreateRound(c.Request.Context(), fp, currentUser(c).ID, req)
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
	rs, err := s.calibration.Rounds(c.Request.Context(), fp, currentUser(c).ID, projectRoles(c))
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
	r, err := s.calibration.Round(c.Request.Context(), fp, c.Param("rid"))
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
	r, err := s.calibration.CloseRound(c.Request.Context(), fp, currentUser(c).ID, c.Param("rid"))
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
	rep, err := s.calibration.Report(c.Request.Context(), fp, c.Param("rid"))
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
	id, err := s.calibration.AddNote(c.Request.Context(), fp, currentUser(c).ID, c.Param("rid"), req.ItemID, req.Question, req.Note)
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
	m, err := s.calibration.Mine(c.Request.Context(), fp, currentUser(c).ID, c.Param("rid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, m)
	return nil
}
