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
	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
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
	Services
	Media    *media.Service
	Releases *releases.Service
}

// Services are the services that own the rules, one per area of the product.
type Services struct {
	Flow        *workflow.Service    // the work: claims, drafts, submits, reviews, adjudication
	Projects    *projects.Service    // projects, members, set-up, stuck work, lead views
	Calibration *calibration.Service // calibration rounds and their reports
	Imports     *imports.Service     // items and predictions coming in
	Insight     *insight.Service     // agreement, quality, balance, reports, judges
	Webhooks    *webhooks.Service    // a project's webhooks and their deliveries
}

// NewServices wires the services over one store, blob store and media service.
func NewServices(st *store.Store, blobs blob.Store, assets *media.Service) Services {
	wf := workflow.New(workflow.Deps{Store: st, Media: assets})
	wh := webhooks.New(webhooks.Deps{Store: st})
	wf.UseWebhooks(wh)
	return Services{
		Flow:        wf,
		Projects:    projects.New(st, wf, blobs),
		Calibration: calibration.New(st, wf),
		Imports:     imports.New(imports.Deps{Store: st, Workflow: wf, Blobs: blobs, Media: assets}),
		Insight:     insight.New(st, wf),
		Webhooks:    wh,
	}
}

// UseWebhooks replaces the webhook service (one configured otherwise) and sends the
// workflow's events to it.
func (s *Services) UseWebhooks(w *webhooks.Service) {
	s.Webhooks = w
	s.Flow.UseWebhooks(w)
}

// Server routes requests to handlers.
type Server struct {
	cfg         config.Config
	store       *store.Store
	blobs       blob.Store
	sessions    *auth.Sessions
	log         *slog.Logger
	ui          fs.FS
	metrics     *metrics
	flow        *workflow.Service
	projects    *projects.Service
	calibration *calibration.Service
	imports     *imports.Service
	insight     *insight.Service
	webhooks    *webhooks.Service
	media       *media.Service
	releases    *releases.Service
	engine      *gin.Engine
}

// New builds the server and its route table.
func New(d Deps) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{cfg: d.Config, store: d.Store, blobs: d.Blobs, sessions: d.Sessions, log: d.Log, ui: d.UI, metrics: newMetrics(),
		flow: d.Flow, projects: d.Projects, calibration: d.Calibration, imports: d.Imports, insight: d.Insight, webhooks: d.Webhooks,
		media: d.Media, releases: d.Releases}
	e := gin.New()
	e.ContextWithFallback = true
	// note: the client address feeds the login throttle, so X-Forwarded-For is believed only
	// from configured proxies.
	if err := e.SetTrustedProxies(splitList(d.Config.TrustedProxies)); err != nil {
		s.log.Error("ignoring invalid trusted proxies", "err", err)
		e.SetTrustedProxies(nil)
	}
	e.HandleMethodNotAllowed = true
	e.Use(s.securityHeaders(), s.requestLog, s.paceBodies, gin.CustomRecovery(func(c *gin.Context, err any) {
		s.log.Error("panic", "err", err, "request_id", c.GetString(ctxRequestID))
		s.writeError(c, fail(http.StatusInternalServerError, CodeInternal, "internal error"))
	}))
	if d.Projects != nil {
		s.metrics.reg.MustRegister(newStuckCollector(d.Projects.StuckTotals))
	}
	s.engine = e
	s.routes()
	return s
}

// Handler returns the http.Handler serving everything.
func (s *Server) Handler() http.Handler { return s.engine }

// MetricsHandler serves /metrics, for a listener of its own (--metrics-addr).
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.handler(s.cfg.MetricsToken))
	return mux
}

// Routes lists the registered routes (for tests that walk every route).
func (s *Server) Routes() gin.RoutesInfo { return s.engine.Routes() }

// routes is the route table: one line per route, the permission on the line.
func (s *Server) routes() {
	e, w := s.engine, s.wrap
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	if s.cfg.MetricsAddr == "" {
		e.GET("/metrics", gin.WrapH(s.metrics.handler(s.cfg.MetricsToken)))
	} else {
		e.GET("/metrics", w(func(*gin.Context) error {
			return fail(http.StatusNotFound, CodeNotFound, "metrics are served on their own address")
		}))
	}
	e.GET("/blobs/*key", w(s.serveBlob))
	e.GET("/template-media/*path", s.serveTemplateMedia)

	v1 := e.Group("/api/v1")
	v1.POST("/auth/login", w(s.login))
	v1.POST("/auth/refresh", s.csrf, w(s.refresh))
	v1.POST("/auth/password-reset", w(s.resetPassword))
	v1.GET("/release-archives/:rid", w(s.signedReleaseArchive)) // the signed link is the credential
	v1.GET("/release-files/:rid/*path", w(s.signedReleaseFile)) // the signed link is the credential

	// Every authenticated route is in the group of the one scope it needs; a session holds
	// every scope, a personal access token those it was given.
	a := v1.Group("", s.authenticate)
	a.GET("/me", w(s.me))
	a.POST("/auth/logout", w(s.logout))

	own := a.Group("", s.sessionOnly)
	own.PATCH("/me", w(s.updateMe))
	own.POST("/me/password", w(s.changePassword))
	own.GET("/me/tokens", w(s.listTokens))
	own.POST("/me/tokens", w(s.createToken))
	own.DELETE("/me/tokens/:tid", w(s.revokeToken))

	read := a.Group("", s.scope(auth.ScopeRead))
	read.GET("/me/invitations", w(s.myInvitations))
	read.GET("/projects", w(s.listProjects))
	read.POST("/schemas/validate", w(s.validateSetup))
	read.GET("/assets/:aid/url", w(s.assetURL))
	read.GET("/formats", w(s.listFormats))
	read.GET("/templates", w(s.listTemplates))
	read.GET("/templates/:id", w(s.getTemplate))
	read.POST("/templates/:id/validate", w(s.validateTemplateAnswers))

	annotate := a.Group("", s.scope(auth.ScopeAnnotate))
	// Deprecated: the assignment actions outside their project; they answer as the routes
	// under /projects/:pid/assignments do, and go away in the next release.
	for _, action := range assignmentActions {
		annotate.Handle(action.method, "/assignments/:aid/"+action.name, w(s.assignmentAlias))
	}

	manage := a.Group("", s.scope(auth.ScopeManage))
	manage.POST("/projects", w(s.createProject))
	manage.POST("/me/invitations/:iid/accept", w(s.acceptInvitation))
	manage.POST("/me/invitations/:iid/decline", w(s.declineInvitation))

	admin := a.Group("", s.scope(auth.ScopeAdmin), s.requireAdmin)
	admin.GET("/users", w(s.listUsers))
	admin.POST("/users", w(s.createUser))
	admin.PUT("/users/:uid/permissions", w(s.setPermissions))
	admin.POST("/users/:uid/password-reset", w(s.issuePasswordReset))
	admin.POST("/users/:uid/disable", w(s.disableUser))
	admin.POST("/users/:uid/enable", w(s.enableUser))

	// A project's routes: the scope first, then membership (404 for outsiders), then the role.
	pr := read.Group("/projects/:pid", s.project)
	pr.GET("", s.require(), w(s.getProject))
	pr.GET("/schemas", s.require(store.RoleLead), w(s.listSchemaVersions))
	pr.GET("/feasibility", s.require(store.RoleLead), w(s.feasibility))
	pr.GET("/stuck", s.require(store.RoleLead), w(s.stuckWork))
	pr.GET("/stuck/candidates", s.require(store.RoleLead), w(s.stuckCandidates))
	pr.GET("/stats", s.require(store.RoleLead, store.RoleViewer), w(s.projectStats))
	pr.GET("/quality", s.require(store.RoleLead), w(s.projectQuality))
	pr.GET("/agreement", s.require(store.RoleLead, store.RoleViewer), w(s.projectAgreement))
	pr.GET("/balance", s.require(store.RoleLead, store.RoleViewer), w(s.projectBalance))
	pr.GET("/report", s.require(store.RoleLead, store.RoleViewer), w(s.projectReport))
	pr.GET("/judges", s.require(store.RoleLead, store.RoleViewer), w(s.projectJudges))
	pr.GET("/items", s.require(store.RoleLead), w(s.listItems))
	pr.GET("/items/sample", s.require(store.RoleLead), w(s.itemSample))
	pr.GET("/items/:iid", s.require(store.RoleLead), w(s.getItem))
	pr.GET("/imports", s.require(store.RoleLead), w(s.listImports))
	pr.GET("/imports/:imid", s.require(store.RoleLead), w(s.getImport))
	pr.GET("/criteria", s.require(store.RoleLead, store.RoleReviewer), w(s.listCriteria))
	pr.GET("/criteria/report", s.require(store.RoleLead), w(s.criteriaReport))
	pr.GET("/me/progress", s.require(), w(s.myProgress))
	pr.GET("/me/rejections", s.require(), w(s.myRejections))
	pr.GET("/members", s.require(), w(s.listMembers))
	pr.GET("/invitations", s.require(store.RoleLead), w(s.listInvitations))
	pr.GET("/storage", s.require(store.RoleLead), w(s.projectStorage))
	pr.GET("/audit", s.require(store.RoleLead), w(s.listAudit))
	pr.GET("/releases", s.require(releases.Readers...), w(s.listReleases))
	pr.GET("/releases/:rid", s.require(releases.Readers...), w(s.getRelease))
	pr.GET("/releases/:rid/files/*path", s.require(releases.Readers...), w(s.releaseFile))
	pr.GET("/releases/:rid/archive", s.require(releases.Readers...), w(s.releaseArchive))
	pr.GET("/releases/:rid/links", s.require(releases.Readers...), w(s.releaseLinks))
	pr.GET("/calibration-rounds", s.require(store.RoleLead, store.RoleAnnotator), w(s.listRounds))
	pr.GET("/calibration-rounds/:rid", s.require(store.RoleLead), w(s.getRound))
	pr.GET("/calibration-rounds/:rid/report", s.require(store.RoleLead), w(s.roundReport))
	pr.GET("/calibration-rounds/:rid/mine", s.require(store.RoleAnnotator), w(s.myRoundResult))
	pr.GET("/webhooks", s.require(store.RoleLead), w(s.listWebhooks))
	pr.GET("/webhooks/:wid/deliveries", s.require(store.RoleLead), w(s.webhookDeliveries))

	pa := annotate.Group("/projects/:pid", s.project)
	pa.POST("/criteria/:cid", s.require(store.RoleLead, store.RoleReviewer), w(s.reviewCriterion))
	pa.POST("/queue/next", s.require(), w(s.queueNext))
	pa.PUT("/assignments/:aid/draft", s.require(workRoles...), w(s.saveDraft))
	pa.POST("/assignments/:aid/heartbeat", s.require(workRoles...), w(s.heartbeat))
	pa.POST("/assignments/:aid/skip", s.require(workRoles...), w(s.skip))
	pa.POST("/assignments/:aid/release", s.require(workRoles...), w(s.release))
	pa.POST("/assignments/:aid/flag", s.require(workRoles...), w(s.flagAssignment))
	pa.POST("/assignments/:aid/submit", s.require(workRoles...), w(s.submit))

	pm := manage.Group("/projects/:pid", s.project)
	pm.PATCH("", s.require(store.RoleLead), w(s.patchProject))
	pm.DELETE("", s.require(store.RoleLead), w(s.deleteProject))
	pm.POST("/archive", s.require(store.RoleLead), w(s.archiveProject))
	pm.POST("/items", s.require(store.RoleLead), w(s.importItems))
	pm.POST("/items/:iid/flag", s.require(store.RoleLead), w(s.resolveFlag))
	pm.POST("/predictions", s.require(store.RoleLead), w(s.importPredictions))
	pm.PUT("/members/:uid", s.require(store.RoleLead), w(s.setMember))
	pm.POST("/stuck/assign", s.require(store.RoleLead), w(s.assignStuck))
	pm.POST("/assets", s.require(store.RoleLead), w(s.uploadAsset))
	pm.POST("/releases", s.require(store.RoleLead), w(s.createRelease))
	pm.POST("/calibration-rounds", s.require(store.RoleLead), w(s.createRound))
	pm.POST("/calibration-rounds/:rid/close", s.require(store.RoleLead), w(s.closeRound))
	pm.POST("/calibration-rounds/:rid/notes", s.require(store.RoleLead), w(s.addRoundNote))
	pm.POST("/webhooks", s.require(store.RoleLead), w(s.createWebhook))
	pm.PATCH("/webhooks/:wid", s.require(store.RoleLead), w(s.patchWebhook))
	pm.DELETE("/webhooks/:wid", s.require(store.RoleLead), w(s.deleteWebhook))
	pm.POST("/webhooks/:wid/rotate", s.require(store.RoleLead), w(s.rotateWebhook))

	padm := a.Group("/projects/:pid", s.scope(auth.ScopeAdmin), s.project)
	padm.PUT("/storage", s.requireAdmin, w(s.setStorageQuota))

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
