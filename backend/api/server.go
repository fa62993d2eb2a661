// Package api is Arbiter's HTTP interface: the JSON API under /api/v1, signed blob URLs, health
// and metrics endpoints, and the embedded web UI. Handlers are thin: bind, authorize, call the
// store or a service, respond.
package api

import (
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// Deps are what the server needs; the caller owns their lifetimes.
type Deps struct {
	Config   config.Config
	Store    *store.Store
	Blobs    blob.Store
	Sessions *auth.Sessions
	Log      *slog.Logger
	UI       fs.FS // the built web UI; nil when the binary was built without it
	Jobs     jobs.Runner
}

// Server routes requests to handlers.
type Server struct {
	cfg      config.Config
	store    *store.Store
	blobs    blob.Store
	sessions *auth.Sessions
	log      *slog.Logger
	ui       fs.FS
	metrics  *metrics
	flow     *workflow.Service
	jobs     jobs.Runner
	engine   *gin.Engine
}

// New builds the server and its route table.
func New(d Deps) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{cfg: d.Config, store: d.Store, blobs: d.Blobs, sessions: d.Sessions, log: d.Log, ui: d.UI, metrics: newMetrics(), flow: workflow.New(d.Store), jobs: d.Jobs}
	e := gin.New()
	e.ContextWithFallback = true
	// note: the client address feeds the login throttle, so X-Forwarded-For is believed only
	// from configured proxies.
	if err := e.SetTrustedProxies(splitList(d.Config.TrustedProxies)); err != nil {
		s.log.Error("ignoring invalid trusted proxies", "err", err)
		e.SetTrustedProxies(nil)
	}
	e.HandleMethodNotAllowed = true
	e.Use(s.requestLog, gin.CustomRecovery(func(c *gin.Context, err any) {
		s.log.Error("panic", "err", err, "request_id", c.GetString(ctxRequestID))
		writeError(c, fail(http.StatusInternalServerError, CodeInternal, "internal error"))
	}))
	s.engine = e
	s.routes()
	return s
}

// Handler returns the http.Handler serving everything.
func (s *Server) Handler() http.Handler { return s.engine }

// Routes lists the registered routes (for tests that walk every route).
func (s *Server) Routes() gin.RoutesInfo { return s.engine.Routes() }

// routes is the route table: one line per route, the permission on the line.
func (s *Server) routes() {
	e := s.engine
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metrics.handler())
	e.GET("/blobs/*key", wrap(s.serveBlob))
	e.GET("/template-media/*path", s.serveTemplateMedia)

	v1 := e.Group("/api/v1")
	v1.POST("/auth/login", wrap(s.login))
	v1.POST("/auth/refresh", wrap(s.refresh))
	v1.POST("/auth/logout", wrap(s.logout))

	a := v1.Group("", s.authenticate)
	a.GET("/me", wrap(s.me))
	a.GET("/me/tokens", wrap(s.listTokens))
	a.POST("/me/tokens", wrap(s.createToken))
	a.DELETE("/me/tokens/:tid", wrap(s.revokeToken))
	a.GET("/users", requireAdmin, wrap(s.listUsers))
	a.POST("/users", requireAdmin, wrap(s.createUser))
	a.GET("/projects", wrap(s.listProjects))
	a.POST("/projects", wrap(s.createProject))
	a.GET("/assets/:aid/url", wrap(s.assetURL))
	a.PUT("/assignments/:aid/draft", wrap(s.saveDraft))
	a.POST("/assignments/:aid/heartbeat", wrap(s.heartbeat))
	a.POST("/assignments/:aid/skip", wrap(s.skip))
	a.POST("/assignments/:aid/release", wrap(s.release))
	a.POST("/assignments/:aid/flag", wrap(s.flagAssignment))
	a.POST("/assignments/:aid/submit", wrap(s.submit))
	a.GET("/templates", wrap(s.listTemplates))
	a.GET("/templates/:id", wrap(s.getTemplate))
	a.POST("/templates/:id/validate", wrap(s.validateTemplateAnswers))

	p := a.Group("/projects/:pid", s.project)
	p.GET("", require(), wrap(s.getProject))
	p.PATCH("", require(store.RoleLead), wrap(s.patchProject))
	p.GET("/stats", require(store.RoleLead, store.RoleViewer), wrap(s.projectStats))
	p.POST("/items", require(store.RoleLead), wrap(s.importNDJSON(workflow.ImportItemsKind)))
	p.GET("/items", require(store.RoleLead), wrap(s.listItems))
	p.GET("/items/:iid", require(store.RoleLead), wrap(s.getItem))
	p.POST("/items/:iid/flag", require(store.RoleLead), wrap(s.resolveFlag))
	p.POST("/predictions", require(store.RoleLead), wrap(s.importNDJSON(workflow.ImportPredictionsKind)))
	p.GET("/imports", require(store.RoleLead), wrap(s.listImports))
	p.GET("/imports/:imid", require(store.RoleLead), wrap(s.getImport))
	p.GET("/criteria", require(store.RoleLead, store.RoleReviewer), wrap(s.listCriteria))
	p.POST("/criteria/:cid", require(store.RoleLead, store.RoleReviewer), wrap(s.reviewCriterion))
	p.POST("/queue/next", require(), wrap(s.queueNext))
	p.GET("/me/progress", require(), wrap(s.myProgress))
	p.GET("/members", require(), wrap(s.listMembers))
	p.PUT("/members/:uid", require(store.RoleLead), wrap(s.setMember))
	p.POST("/assets", require(store.RoleLead), wrap(s.uploadAsset))
	p.GET("/audit", require(store.RoleLead), wrap(s.listAudit))

	e.NoRoute(s.serveUI)
	e.NoMethod(wrap(func(*gin.Context) error {
		return fail(http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed on this path")
	}))
}

// splitList splits a comma-separated list, dropping blanks; nil when empty.
func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
