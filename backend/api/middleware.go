package api

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Keys of values kept on the gin context.
const (
	ctxRequestID = "request_id"
	ctxUser      = "user"
	ctxProject   = "project"
	ctxRoles     = "roles"
)

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestLog gives each request an id (kept from X-Request-ID when sane), logs one line when
// it ends, and counts it in the metrics.
func (s *Server) requestLog(c *gin.Context) {
	start := time.Now()
	id := c.GetHeader("X-Request-ID")
	if !validRequestID.MatchString(id) {
		b := make([]byte, 8)
		rand.Read(b)
		id = hex.EncodeToString(b)
	}
	c.Set(ctxRequestID, id)
	c.Header("X-Request-ID", id)
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	status := c.Writer.Status()
	elapsed := time.Since(start)
	s.metrics.observe(c.Request.Method, route, status, elapsed)
	if strings.HasPrefix(route, "/healthz") || route == "/metrics" {
		return
	}
	attrs := []any{"request_id", id, "method", c.Request.Method, "route", route, "path", c.Request.URL.Path,
		"status", status, "duration_ms", float64(elapsed.Microseconds()) / 1000, "bytes", c.Writer.Size(), "client", c.ClientIP()}
	if u, ok := c.Get(ctxUser); ok {
		attrs = append(attrs, "user_id", u.(*store.User).ID)
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(c.Request.Context(), level, "request", attrs...)
}

// authenticate requires a bearer token (access JWT or personal access token).
func (s *Server) authenticate(c *gin.Context) {
	h := c.GetHeader("Authorization")
	token, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || token == "" {
		writeError(c, fail(http.StatusUnauthorized, CodeUnauthorized, "missing bearer token"))
		return
	}
	u, err := s.sessions.Authenticate(c.Request.Context(), token)
	switch err {
	case nil:
		c.Set(ctxUser, u)
		c.Next()
	case auth.ErrTokenExpired:
		writeError(c, fail(http.StatusUnauthorized, CodeTokenExpired, "access token expired; refresh it"))
	case auth.ErrTokenInvalid, auth.ErrUnauthenticated:
		writeError(c, fail(http.StatusUnauthorized, CodeUnauthorized, "invalid credentials"))
	default:
		writeError(c, err)
	}
}

// currentUser is the authenticated user of the request.
func currentUser(c *gin.Context) *store.User { return c.MustGet(ctxUser).(*store.User) }

// requireAdmin lets only administrators through.
func requireAdmin(c *gin.Context) {
	if !currentUser(c).IsAdmin {
		writeError(c, fail(http.StatusForbidden, CodeForbidden, "administrators only"))
		return
	}
	c.Next()
}

// project loads the project named by :pid and the caller's roles in it. Callers who are not
// members get 404, exactly as for a project that does not exist: no existence leak.
func (s *Server) project(c *gin.Context) {
	ctx := c.Request.Context()
	u := currentUser(c)
	p, err := s.store.Project(ctx, c.Param("pid"))
	if err != nil {
		writeError(c, mapNotFound(err, "project"))
		return
	}
	roles := store.RoleSet(store.Roles)
	if !u.IsAdmin {
		m, err := s.store.Member(ctx, p.ID, u.ID)
		if err != nil {
			writeError(c, mapNotFound(err, "project"))
			return
		}
		roles = m.Roles
	}
	c.Set(ctxProject, p)
	c.Set(ctxRoles, roles)
	c.Next()
}

// require lets through members holding any of the roles; no roles means any member.
func require(roles ...store.Role) gin.HandlerFunc {
	return func(c *gin.Context) {
		if len(roles) > 0 && !projectRoles(c).Has(roles...) {
			writeError(c, fail(http.StatusForbidden, CodeForbidden, "this needs one of the roles %v in the project", roles))
			return
		}
		c.Next()
	}
}

func currentProject(c *gin.Context) *store.Project { return c.MustGet(ctxProject).(*store.Project) }
func projectRoles(c *gin.Context) store.RoleSet    { return c.MustGet(ctxRoles).(store.RoleSet) }

// mapNotFound turns store.ErrNotFound into a 404 naming what was missing.
func mapNotFound(err error, what string) error {
	if err == store.ErrNotFound {
		return notFound(what)
	}
	return err
}

// retryAfter sets the Retry-After header in whole seconds.
func retryAfter(c *gin.Context, d time.Duration) {
	c.Header("Retry-After", strconv.Itoa(int(d.Seconds())))
}
