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
