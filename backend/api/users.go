package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
)

func (s *Server) createUser(c *gin.Context) error {
	var req auth.NewUser
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	u, err := s.sessions.CreateUser(c.Request.Context(), currentUser(c).ID, req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, u)
	return nil
}

func (s *Server) listUsers(c *gin.Context) error {
	us, err := s.sessions.Users(c.Request.Context())
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, us)
	return nil
}

type permissionsRequest struct {
	CanCreateProjects bool `json:"can_create_projects"`
}

// setPermissions grants or withdraws a user's permissions (administrators).
func (s *Server) setPermissions(c *gin.Context) error {
	var req permissionsRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	u, err := s.sessions.SetCanCreateProjects(c.Request.Context(), currentUser(c).ID, c.Param("uid"), req.CanCreateProjects)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, u)
	return nil
}

// issuePasswordReset makes a one-time password reset link for a user (administrators).
func (s *Server) issuePasswordReset(c *gin.Context) error {
	r, err := s.sessions.IssuePasswordReset(c.Request.Context(), currentUser(c).ID, c.Param("uid"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, r)
	return nil
}

// disableUser disables an account; its sessions and tokens stop at once (administrators).
func (s *Server) disableUser(c *gin.Context) error { return s.setDisabled(c, true) }

// enableUser re-enables an account (administrators).
func (s *Server) enableUser(c *gin.Context) error { return s.setDisabled(c, false) }

func (s *Server) setDisabled(c *gin.Context, disabled bool) error {
	u, err := s.sessions.SetDisabled(c.Request.Context(), currentUser(c).ID, c.Param("uid"), disabled)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, u)
	return nil
}
