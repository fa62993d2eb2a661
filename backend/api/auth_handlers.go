package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
)

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (s *Server) login(c *gin.Context) error {
	var req loginRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fe := FieldErrors{}
	if strings.TrimSpace(req.Email) == "" {
		fe["email"] = FieldError{"required", "email is required"}
	}
	if req.Password == "" {
		fe["password"] = FieldError{"required", "password is required"}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	pair, err := s.sessions.Login(c.Request.Context(), req.Email, req.Password, c.ClientIP())
	var te *auth.ThrottledError
	switch {
	case errors.As(err, &te):
		retryAfter(c, te.RetryAfter)
		return fail(http.StatusTooManyRequests, CodeRateLimited, "%s", te.Error())
	case errors.Is(err, auth.ErrBadCredentials):
		return fail(http.StatusUnauthorized, CodeUnauthorized, "email or password is wrong")
	case err != nil:
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, pair)
	return nil
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

func (s *Server) refresh(c *gin.Context) error {
	var req refreshRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	pair, err := s.sessions.Refresh(c.Request.Context(), req.RefreshToken)
	switch {
	case errors.Is(err, auth.ErrRefreshReused):
		return fail(http.StatusUnauthorized, CodeRefreshReused, "%s", err.Error())
	case errors.Is(err, auth.ErrRefreshInvalid):
		return fail(http.StatusUnauthorized, CodeUnauthorized, "%s", err.Error())
	case err != nil:
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, pair)
	return nil
}

func (s *Server) logout(c *gin.Context) error {
	var req refreshRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := s.sessions.Logout(c.Request.Context(), req.RefreshToken); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

func (s *Server) me(c *gin.Context) error {
	c.JSON(http.StatusOK, currentUser(c))
	return nil
}

type createTokenRequest struct {
	Name          string `json:"name"`
	ExpiresInDays int    `json:"expires_in_days"`
}

func (s *Server) createToken(c *gin.Context) error {
	var req createTokenRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fe := FieldErrors{}
	if n := len(strings.TrimSpace(req.Name)); n == 0 || n > 100 {
		fe["name"] = FieldError{"invalid_length", "name must be 1 to 100 characters"}
	}
	if req.ExpiresInDays < 0 || req.ExpiresInDays > 3650 {
		fe["expires_in_days"] = FieldError{"out_of_range", "expires_in_days must be 0 (never) to 3650"}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ttl := time.Duration(req.ExpiresInDays) * 24 * time.Hour
	token, pat, err := s.sessions.CreateAccessToken(c.Request.Context(), currentUser(c).ID, strings.TrimSpace(req.Name), ttl)
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, gin.H{"id": pat.ID, "name": pat.Name, "prefix": pat.Prefix, "token": token,
		"created_at": pat.CreatedAt, "expires_at": pat.ExpiresAt, "last_used_at": nil})
	return nil
}

func (s *Server) listTokens(c *gin.Context) error {
	ts, err := s.store.AccessTokens(c.Request.Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, ts)
	return nil
}

func (s *Server) revokeToken(c *gin.Context) error {
	if err := s.store.RevokeAccessToken(c.Request.Context(), currentUser(c).ID, c.Param("tid")); err != nil {
		return mapNotFound(err, "token")
	}
	c.Status(http.StatusNoContent)
	return nil
}
