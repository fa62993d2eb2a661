package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/api"
	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// jwtKey signs access tokens in tests, so tests can forge expired or wrong-algorithm tokens.
var jwtKey = []byte("test-jwt-key-0123456789abcdef0123456789")

// env is one running test server with its store.
type env struct {
	t      *testing.T
	srv    *httptest.Server
	store  *store.Store
	blobs  blob.Store
	cfg    config.Config
	admin  *client
	routes gin.RoutesInfo
	server *api.Server
}

type options struct {
	blobs     func(testing.TB) blob.Store
	maxUpload int64
	limits    auth.Limits
	jobs      bool         // run the background job queue
	log       *slog.Logger // the server's logger; discarded when nil
	config    func(*config.Config)
}

// newEnv starts a server on a fresh database of the given backend.
func newEnv(t *testing.T, open func(testing.TB) *store.Store, opts ...func(*options)) *env {
	t.Helper()
	o := options{blobs: testenv.LocalBlobs, maxUpload: 1 << 20, limits: auth.Limits{Window: time.Minute, FreeFailures: 5, BaseDelay: time.Minute, MaxDelay: time.Minute, PerAddress: 1000}}
	for _, f := range opts {
		f(&o)
	}
	st := open(t)
	cfg := config.Defaults()
	cfg.MaxUploadBytes = o.maxUpload
	cfg.WebhookAllowPrivate = true // note: receivers in tests listen on loopback
	if o.config != nil {
		o.config(&cfg)
	}
	blobs := o.blobs(t)
	sessions := auth.NewSessions(st, auth.NewIssuer(jwtKey, time.Minute), time.Hour, o.limits)
	ui := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><title>Arbiter</title>")},
		"assets/app-1234.js": {Data: []byte("console.log(1)")},
	}
	deps := serverDeps(t, cfg, st, blobs, sessions, o.jobs)
	deps.UI = ui
	if o.log != nil {
		deps.Log = o.log
	}
	s := api.New(deps)
	e := &env{t: t, srv: httptest.NewServer(s.Handler()), store: st, blobs: blobs, cfg: cfg, routes: s.Routes(), server: s}
	t.Cleanup(e.srv.Close)
	e.admin = e.newUser("admin@example.org", true)
	return e
}

// serverDeps wires the services as the serve command does; with jobs, a job queue runs.
func serverDeps(t *testing.T, cfg config.Config, st *store.Store, blobs blob.Store, sessions *auth.Sessions, jobs bool) api.Deps {
	assets := media.New(st, blobs, media.Config{MaxUploadBytes: cfg.MaxUploadBytes, SignedURLTTL: cfg.SignedURLTTL, PublicURL: cfg.PublicURL})
	svc := api.NewServices(st, blobs, assets)
	svc.UseWebhooks(webhooks.New(webhooks.Deps{Store: st, AllowPrivate: cfg.WebhookAllowPrivate, Backoff: 50 * time.Millisecond, Lookup: testLookup}))
	rel := releases.New(releases.Deps{Store: st, Blobs: blobs, Flow: svc.Flow, Insight: svc.Insight, Version: "test", PublicURL: cfg.PublicURL})
	if jobs {
		runner := startJobs(t, st, svc, rel)
		svc.Imports.UseJobs(runner)
		svc.Insight.UseJobs(runner)
		rel.UseJobs(runner)
		svc.Webhooks.UseJobs(runner)
	}
	return api.Deps{Config: cfg, Store: st, Blobs: blobs, Sessions: sessions, Log: slog.New(slog.DiscardHandler), Services: svc, Media: assets,
		Releases: rel}
}

// newUser creates a user directly in the store and logs them in.
func (e *env) newUser(email string, admin bool) *client {
	e.t.Helper()
	hash, err := auth.HashPassword("password-" + email)
	if err != nil {
		e.t.Fatal(err)
	}
	u := &store.User{Email: email, Name: strings.Split(email, "@")[0], PasswordHash: hash, IsAdmin: admin, CanCreateProjects: true}
	if err := e.store.CreateUser(context.Background(), u); err != nil {
		e.t.Fatal(err)
	}
	c := &client{e: e, user: u}
	c.login("password-" + email)
	return c
}

// login signs c in with the password, keeping the access token and the refresh cookie.
func (c *client) login(password string) {
	c.e.t.Helper()
	status, h, b := c.doH("POST", "/api/v1/auth/login", map[string]string{"email": c.user.Email, "password": password})
	c.keepSession(status, h, b)
}

// keepSession takes the access token and the refresh cookie from a 200 session answer.
func (c *client) keepSession(status int, h http.Header, body []byte) {
	c.e.t.Helper()
	var pair struct {
		AccessToken string `json:"access_token"`
	}
	if status != 200 || json.Unmarshal(body, &pair) != nil || pair.AccessToken == "" {
		c.e.t.Fatalf("no session: %d %s", status, body)
	}
	c.token, c.refresh = pair.AccessToken, refreshCookie(h)
	if c.refresh == "" {
		c.e.t.Fatalf("no refresh cookie: %v", h)
	}
}

// refreshCookie is the refresh cookie's value in a response, or "".
func refreshCookie(h http.Header) string {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == "arbiter_refresh" {
			return c.Value
		}
	}
	return ""
}

// refreshWith asks for a new session with the refresh cookie token, as the web UI does.
func (c *client) refreshWith(token string) (int, http.Header, []byte) {
	c.e.t.Helper()
	return c.doH("POST", "/api/v1/auth/refresh", nil, "Cookie", "arbiter_refresh="+token, "X-Arbiter-CSRF", "1")
}

// renew refreshes c's session and keeps the new tokens.
func (c *client) renew() {
	c.e.t.Helper()
	c.keepSession(c.refreshWith(c.refresh))
}

// client calls the API as one user.
type client struct {
	e       *env
	user    *store.User
	token   string
	refresh string
	base    string // another replica's URL; empty: the env's server
}

// on returns the same person talking to another replica.
func (c *client) on(base string) *client {
	cc := *c
	cc.base = base
	return &cc
}

// do sends a request; body is JSON-encoded unless it is a string or []byte.
func (c *client) do(method, path string, body any, headers ...string) (int, []byte) {
	c.e.t.Helper()
	status, _, out := c.doH(method, path, body, headers...)
	return status, out
}

// doH is do that also returns the response headers.
func (c *client) doH(method, path string, body any, headers ...string) (int, http.Header, []byte) {
	c.e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		r = bytes.NewReader(j)
	}
	base := c.e.srv.URL
	if c.base != "" {
		base = c.base
	}
	req, _ := http.NewRequest(method, base+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c != nil && c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.e.t.Error(err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if err := apiContract(c.e.t).check(method, path, resp.StatusCode, resp.Header.Get("Content-Type"), out); err != nil {
		c.e.t.Errorf("contract: %v", err)
	}
	return resp.StatusCode, resp.Header, out
}

// must sends a request, checks the status and decodes the body into out (when not nil).
func (c *client) must(method, path string, body any, status int, out any) {
	c.e.t.Helper()
	got, b := c.do(method, path, body)
	if got != status {
		c.e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.e.t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
		}
	}
}

// anon is a client without credentials.
func (e *env) anon() *client { return &client{e: e} }

// errorCode extracts error.code from an error body, failing if the shape is wrong.
func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var v struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Error == nil || v.Error.Code == "" || v.Error.Message == "" {
		t.Fatalf("not the error shape: %s", body)
	}
	return v.Error.Code
}

// createProject makes a project as c and returns its id.
func (c *client) createProject(name string) string {
	var p struct{ ID string }
	c.must("POST", "/api/v1/projects", map[string]string{"name": name}, 201, &p)
	return p.ID
}

// forEachBackend runs f on SQLite and PostgreSQL.
func forEachBackend(t *testing.T, f func(t *testing.T, open func(testing.TB) *store.Store)) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) { f(t, b.Open) })
	}
}
