package api

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (r loginRequest) validate() error {
	fe := tasks.FieldErrors{}
	if strings.TrimSpace(r.Email) == "" {
		fe.Add("email", "required", "email is required")
	}
	if r.Password == "" {
		fe.Add("password", "required", "password is required")
	}
	return fe.Err()
}

func (s *Server) login(c *gin.Context) error {
	var req loginRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	pair, err := s.sessions.Login(c.Request.Context(), req.Email, req.Password, c.ClientIP())
	s.observeLogin(c, req.Email, err)
	if err != nil {
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
	if err != nil {
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

func (s *Server) createToken(c *gin.Context) error {
	var req auth.NewToken
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	t, err := s.sessions.IssueAccessToken(c.Request.Context(), currentUser(c).ID, req)
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, t)
	return nil
}

func (s *Server) listTokens(c *gin.Context) error {
	ts, err := s.sessions.AccessTokens(c.Request.Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, ts)
	return nil
}

func (s *Server) revokeToken(c *gin.Context) error {
	if err := s.sessions.RevokeAccessToken(c.Request.Context(), currentUser(c).ID, c.Param("tid")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// observeLogin counts a login's outcome in the metrics and logs every refusal with the
// failures counted so far, so that guessing shows up in both.
func (s *Server) observeLogin(c *gin.Context, email string, err error) {
	var failed *auth.FailedLoginError
	var throttled *auth.ThrottledError
	outcome, level := "ok", slog.LevelInfo
	account := store.NormalizeEmail(email)
	if len(account) > 254 {
		account = account[:254] // note: the longest valid address; anything longer is not one
	}
	attrs := []any{"account", account, "client", c.ClientIP(), "request_id", c.GetString(ctxRequestID)}
	switch {
	case err == nil:
	case errors.As(err, &failed):
		outcome, level = "bad_credentials", slog.LevelWarn
		attrs = append(attrs, "account_failures", failed.AccountFailures, "address_failures", failed.AddressFailures)
	case errors.As(err, &throttled) && throttled.Scope == "address":
		outcome, level = "address_limited", slog.LevelWarn
		attrs = append(attrs, "address_failures", throttled.Failures, "retry_after_seconds", throttled.RetrySeconds())
	case errors.As(err, &throttled):
		outcome, level = "delayed", slog.LevelWarn
		attrs = append(attrs, "account_failures", throttled.Failures, "retry_after_seconds", throttled.RetrySeconds())
	case errors.Is(err, auth.ErrUnavailable):
		outcome, level = "unavailable", slog.LevelError
	default:
		return
	}
	s.metrics.logins.WithLabelValues(outcome).Inc()
	s.log.Log(c.Request.Context(), level, "login "+outcome, attrs...)
}
