// Package api is Arbiter's HTTP interface: the JSON API under /api/v1, signed blob URLs, health
// and metrics endpoints, and the embedded web UI. Handlers are thin: bind, authorize (on the
// route line), call one service method, respond. The rules live in the services: workflow,
// media, releases and auth.
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
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/releases"
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
	Flow     *workflow.Service
	Media    *media.Service
	Releases *releases.Service
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
	media    *media.Service
	releases *releases.Service
	engine   *gin.Engine
}

// New builds the server and its route table.
func New(d Deps) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{cfg: d.Config, store: d.Store, blobs: d.Blobs, sessions: d.Sessions, log: d.Log, ui: d.UI, metrics: newMetrics(),
		flow: d.Flow, media: d.Media, releases: d.Releases}
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
		s.writeError(c, fail(http.StatusInternalServerError, CodeInternal, "internal error"))
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
	e, w := s.engine, s.wrap
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metrics.handler())
	e.GET("/blobs/*key", w(s.serveBlob))
	e.GET("/template-media/*path", s.serveTemplateMedia)

	v1 := e.Group("/api/v1")
	v1.POST("/auth/login", w(s.login))
	v1.POST("/auth/refresh", w(s.refresh))
	v1.POST("/auth/logout", w(s.logout))
	v1.GET("/release-archives/:rid", w(s.signedReleaseArchive)) // the signed link is the credential

	a := v1.Group("", s.authenticate)
	a.GET("/me", w(s.me))
	a.GET("/me/tokens", w(s.listTokens))
	a.POST("/me/tokens", w(s.createToken))
	a.DELETE("/me/tokens/:tid", w(s.revokeToken))
	a.GET("/me/invitations", w(s.myInvitations))
	a.POST("/me/invitations/:iid/accept", w(s.acceptInvitation))
	a.POST("/me/invitations/:iid/decline", w(s.declineInvitation))
	a.GET("/users", s.requireAdmin, w(s.listUsers))
	a.POST("/users", s.requireAdmin, w(s.createUser))
	a.PUT("/users/:uid/permissions", s.requireAdmin, w(s.setPermissions))
	a.GET("/projects", w(s.listProjects))
	a.POST("/projects", w(s.createProject))
	a.POST("/schemas/validate", w(s.validateSetup))
	a.GET("/assets/:aid/url", w(s.assetURL))
	a.GET("/templates", w(s.listTemplates))
	a.GET("/templates/:id", w(s.getTemplate))
	a.POST("/templates/:id/validate", w(s.validateTemplateAnswers))
	// Deprecated: the assignment actions outside their project; they answer as the routes
	// under /projects/:pid/assignments do, and go away in the next release.
	for _, action := range assignmentActions {
		a.Handle(action.method, "/assignments/:aid/"+action.name, w(s.assignmentAlias))
	}

	p := a.Group("/projects/:pid", s.project)
	p.GET("", s.require(), w(s.getProject))
	p.PATCH("", s.require(store.RoleLead), w(s.patchProject))
	p.DELETE("", s.require(store.RoleLead), w(s.deleteProject))
	p.POST("/archive", s.require(store.RoleLead), w(s.archiveProject))
	p.GET("/schemas", s.require(store.RoleLead), w(s.listSchemaVersions))
	p.GET("/feasibility", s.require(store.RoleLead), w(s.feasibility))
	p.GET("/stuck", s.require(store.RoleLead), w(s.stuckWork))
	p.GET("/stats", s.require(store.RoleLead, store.RoleViewer), w(s.projectStats))
	p.POST("/items", s.require(store.RoleLead), w(s.importItems))
	p.GET("/items", s.require(store.RoleLead), w(s.listItems))
	p.GET("/items/:iid", s.require(store.RoleLead), w(s.getItem))
	p.POST("/items/:iid/flag", s.require(store.RoleLead), w(s.resolveFlag))
	p.POST("/predictions", s.require(store.RoleLead), w(s.importPredictions))
	p.GET("/imports", s.require(store.RoleLead), w(s.listImports))
	p.GET("/imports/:imid", s.require(store.RoleLead), w(s.getImport))
	p.GET("/criteria", s.require(store.RoleLead, store.RoleReviewer), w(s.listCriteria))
	p.POST("/criteria/:cid", s.require(store.RoleLead, store.RoleReviewer), w(s.reviewCriterion))
	p.POST("/queue/next", s.require(), w(s.queueNext))
	p.GET("/me/progress", s.require(), w(s.myProgress))
	p.PUT("/assignments/:aid/draft", s.require(workRoles...), w(s.saveDraft))
	p.POST("/assignments/:aid/heartbeat", s.require(workRoles...), w(s.heartbeat))
	p.POST("/assignments/:aid/skip", s.require(workRoles...), w(s.skip))
	p.POST("/assignments/:aid/release", s.require(workRoles...), w(s.release))
	p.POST("/assignments/:aid/flag", s.require(workRoles...), w(s.flagAssignment))
	p.POST("/assignments/:aid/submit", s.require(workRoles...), w(s.submit))
	p.GET("/members", s.require(), w(s.listMembers))
	p.PUT("/members/:uid", s.require(store.RoleLead), w(s.setMember))
	p.GET("/invitations", s.require(store.RoleLead), w(s.listInvitations))
	p.POST("/assets", s.require(store.RoleLead), w(s.uploadAsset))
	p.GET("/storage", s.require(store.RoleLead), w(s.projectStorage))
	p.PUT("/storage", s.requireAdmin, w(s.setStorageQuota))
	p.GET("/audit", s.require(store.RoleLead), w(s.listAudit))
	p.POST("/releases", s.require(store.RoleLead), w(s.createRelease))
	p.GET("/releases", s.require(store.RoleLead, store.RoleViewer), w(s.listReleases))
	p.GET("/releases/:rid", s.require(store.RoleLead, store.RoleViewer), w(s.getRelease))
	p.GET("/releases/:rid/files/*path", s.require(store.RoleLead, store.RoleViewer), w(s.releaseFile))
	p.GET("/releases/:rid/archive", s.require(store.RoleLead, store.RoleViewer), w(s.releaseArchive))
	p.GET("/releases/:rid/links", s.require(store.RoleLead, store.RoleViewer), w(s.releaseLinks))

	e.NoRoute(s.serveUI)
	e.NoMethod(w(func(*gin.Context) error {
		return fail(http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed on this path")
	}))
}

// workRoles are the roles that hold assignments; the workflow checks the stage's own role.
var workRoles = []store.Role{store.RoleAnnotator, store.RoleReviewer, store.RoleAdjudicator}

// assignmentActions are the actions on an assignment, for the deprecated aliases.
var assignmentActions = []struct{ method, name string }{
	{http.MethodPut, "draft"}, {http.MethodPost, "heartbeat"}, {http.MethodPost, "skip"},
	{http.MethodPost, "release"}, {http.MethodPost, "flag"}, {http.MethodPost, "submit"},
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
