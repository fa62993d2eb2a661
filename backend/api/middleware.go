package api

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// Keys of values kept on the gin context.
const (
	ctxRequestID = "request_id"
	ctxUser      = "user"
	ctxPrincipal = "principal"
	ctxProject   = "project"
	ctxRoles     = "roles"
	ctxFlow      = "flow"
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
	attrs := []any{"request_id", id, "method", methodLabel(c.Request.Method), "route", route, "path", c.Request.URL.Path,
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
	token, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
	if !ok || token == "" {
		s.writeError(c, auth.ErrUnauthenticated)
		return
	}
	p, err := s.sessions.Authenticate(c.Request.Context(), token)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Set(ctxUser, p.User)
	c.Set(ctxPrincipal, p)
	c.Next()
}

// currentUser is the authenticated user of the request.
func currentUser(c *gin.Context) *store.User { return c.MustGet(ctxUser).(*store.User) }

// currentPrincipal is who the request acts for, with its scopes.
func currentPrincipal(c *gin.Context) *auth.Principal {
	return c.MustGet(ctxPrincipal).(*auth.Principal)
}

// scope lets through sessions, and personal access tokens that hold the scope.
func (s *Server) scope(sc auth.Scope) gin.HandlerFunc {
	return func(c *gin.Context) {
		if !currentPrincipal(c).Has(sc) {
			s.writeError(c, fail(http.StatusForbidden, CodeInsufficientScope, "this token lacks the %q scope", sc))
			return
		}
		c.Next()
	}
}

// sessionOnly lets through a person's session from a login, never a personal access token:
// tokens cannot make tokens or change passwords.
func (s *Server) sessionOnly(c *gin.Context) {
	if !currentPrincipal(c).Session() {
		s.writeError(c, fail(http.StatusForbidden, CodeInsufficientScope, "personal access tokens cannot manage credentials; sign in"))
		return
	}
	c.Next()
}

// requireAdmin lets only administrators through.
func (s *Server) requireAdmin(c *gin.Context) {
	if !currentUser(c).IsAdmin {
		s.writeError(c, fail(http.StatusForbidden, CodeForbidden, "administrators only"))
		return
	}
	c.Next()
}

// project loads the project named by :pid, the caller's roles in it and, when it has a
// schema, its workflow view (parsed once per schema version). The project and the membership
// come from the store's short cache, which every change to them clears on every replica. Callers who are not members
// get 404, exactly as for a project that does not exist: no existence leak.
func (s *Server) project(c *gin.Context) {
	ctx := c.Request.Context()
	u := currentUser(c)
	p, err := s.store.CachedProject(ctx, c.Param("pid"))
	if err != nil {
		s.writeError(c, store.Missing(err, "project"))
		return
	}
	var member store.RoleSet
	if !u.IsAdmin {
		m, err := s.store.CachedMember(ctx, p.ID, u.ID)
		if err != nil {
			s.writeError(c, store.Missing(err, "project"))
			return
		}
		member = m.Roles
	}
	roles := projects.RolesIn(u, member)
	c.Set(ctxProject, p)
	c.Set(ctxRoles, roles)
	if p.SchemaVersion > 0 {
		fp, err := s.flow.LoadProject(ctx, p, 0)
		if err != nil {
			s.writeError(c, err)
			return
		}
		c.Set(ctxFlow, fp)
	}
	c.Next()
}

// require lets through members holding any of the roles; no roles means any member.
func (s *Server) require(roles ...store.Role) gin.HandlerFunc {
	return func(c *gin.Context) {
		if len(roles) > 0 && !projectRoles(c).Has(roles...) {
			s.writeError(c, fail(http.StatusForbidden, CodeForbidden, "this needs one of the roles %v in the project", roles))
			return
		}
		c.Next()
	}
}

func currentProject(c *gin.Context) *store.Project { return c.MustGet(ctxProject).(*store.Project) }
func projectRoles(c *gin.Context) store.RoleSet    { return c.MustGet(ctxRoles).(store.RoleSet) }

// currentFlow is the project's workflow view; a project without a schema cannot be worked on.
func currentFlow(c *gin.Context) (*workflow.Project, error) {
	if fp, ok := c.Get(ctxFlow); ok {
		return fp.(*workflow.Project), nil
	}
	return nil, workflow.ErrNoSchema
}
