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
	s.startSession(c, pair)
	return nil
}

// refresh exchanges the refresh cookie for a new access token and a new cookie.
func (s *Server) refresh(c *gin.Context) error {
	token, err := c.Cookie(refreshCookie)
	if err != nil || token == "" {
		return auth.ErrRefreshInvalid
	}
	pair, err := s.sessions.Refresh(c.Request.Context(), token)
	if errors.Is(err, auth.ErrRefreshInvalid) || errors.Is(err, auth.ErrRefreshReused) {
		s.clearRefreshCookie(c)
	}
	if err != nil {
		return err
	}
	s.startSession(c, pair)
	return nil
}

// logout ends the caller's session: its refresh-token family is revoked and the cookie
// cleared. A personal access token has no session; revoke it at /me/tokens instead.
func (s *Server) logout(c *gin.Context) error {
	if err := s.sessions.Logout(c.Request.Context(), currentPrincipal(c)); err != nil {
		return err
	}
	s.clearRefreshCookie(c)
	c.Status(http.StatusNoContent)
	return nil
}

// changePassword sets the caller's password; every other session ends and this one goes on
// with a new pair.
func (s *Server) changePassword(c *gin.Context) error {
	var req auth.PasswordChange
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	pair, err := s.sessions.ChangePassword(c.Request.Context(), currentUser(c), c.ClientIP(), req)
	if err != nil {
		return err
	}
	s.startSession(c, pair)
	return nil
}

// resetPassword sets a new password with a one-time link from an administrator.
func (s *Server) resetPassword(c *gin.Context) error {
	var req auth.PasswordReset
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := s.sessions.ResetPassword(c.Request.Context(), req); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

func (s *Server) me(c *gin.Context) error {
	c.JSON(http.StatusOK, auth.UserViewOf(currentUser(c)))
	return nil
}

// updateMe changes the signed-in user's own settings (their interface language).
func (s *Server) updateMe(c *gin.Context) error {
	var req auth.OwnSettings
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	u, err := s.sessions.UpdateOwnSettings(c.Request.Context(), currentUser(c).ID, req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, u)
	return nil
}

func (s *Server) createToken(c *gin.Context) error {
	var req auth.NewToken
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	t, err := s.sessions.IssueAccessToken(c.Request.Context(), currentUser(c), req)
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
