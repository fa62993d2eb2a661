package api_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// The promises of authentication, accounts, tokens, browser headers and metrics, each held by
// a test named after it.

// TestMetricsCardinality: made-up methods and paths never become series of their own, and
// /metrics can require a token or move to an address of its own.
func TestMetricsCardinality(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	for i := 0; i < 100; i++ {
		method := "X" + strings.ToUpper(rand.Text()) + strings.Repeat("Q", 200)
		req, _ := http.NewRequest(method, e.srv.URL+"/api/v1/projects/"+rand.Text(), nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		fetchURL(t, e.srv.URL+"/"+rand.Text(), "")
	}
	status, body := fetchURL(t, e.srv.URL+"/metrics", "")
	if status != 200 {
		t.Fatalf("/metrics: %d", status)
	}
	series := regexp.MustCompile(`(?m)^arbiter_http_requests_total\{method="([^"]*)",route="([^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(series) == 0 || len(series) > 10 {
		t.Fatalf("%d request series after 200 made-up requests:\n%.3000s", len(series), body)
	}
	for _, s := range series {
		if !map[string]bool{"GET": true, "POST": true, "other": true}[s[1]] || (s[2] != "unmatched" && !strings.HasPrefix(s[2], "/")) {
			t.Fatalf("a series is labelled by raw input: %q", s[0])
		}
	}
	if len(body) > 64<<10 {
		t.Fatalf("/metrics grew to %d bytes", len(body))
	}

	guarded := newEnv(t, testenv.SQLite, func(o *options) { o.config = func(c *config.Config) { c.MetricsToken = "metrics-secret-123" } })
	if status, _ := fetchURL(t, guarded.srv.URL+"/metrics", ""); status != 401 {
		t.Fatalf("/metrics without its token: %d", status)
	}
	if status, _ := fetchURL(t, guarded.srv.URL+"/metrics", "wrong"); status != 401 {
		t.Fatalf("/metrics with a wrong token: %d", status)
	}
	if status, body := fetchURL(t, guarded.srv.URL+"/metrics", "metrics-secret-123"); status != 200 || !strings.Contains(body, "arbiter_http_requests_total") {
		t.Fatalf("/metrics with its token: %d", status)
	}

	apart := newEnv(t, testenv.SQLite, func(o *options) { o.config = func(c *config.Config) { c.MetricsAddr = "127.0.0.1:0" } })
	if status, _ := fetchURL(t, apart.srv.URL+"/metrics", ""); status != 404 {
		t.Fatalf("/metrics on the main listener with --metrics-addr: %d", status)
	}
	own := httptest.NewServer(apart.server.MetricsHandler())
	defer own.Close()
	if status, body := fetchURL(t, own.URL+"/metrics", ""); status != 200 || !strings.Contains(body, "arbiter_http_requests_total") {
		t.Fatalf("/metrics on its own listener: %d", status)
	}
}

// fetchURL fetches a URL, with a bearer token when given, and returns status and body.
func fetchURL(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(fmt.Errorf("read %s: %w", url, err))
	}
	return resp.StatusCode, string(b)
}

// TestDatabaseBlipKeepsSessions: while the database fails, authentication answers 503 with
// Retry-After, never 401, and consumes nothing; once it is back, the same access and refresh
// tokens work.
func TestDatabaseBlipKeepsSessions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		ana := e.newUser("ana@example.org", false)
		pat := e.newUser("pat@example.org", false)
		var tok struct{ Token string }
		pat.must("POST", "/api/v1/me/tokens", map[string]any{"name": "ci"}, 201, &tok)
		pat.token = tok.Token
		blip := func(from, to string) {
			t.Helper()
			if _, err := e.store.SQL().ExecContext(context.Background(), "ALTER TABLE "+from+" RENAME TO "+to); err != nil {
				t.Fatal(err)
			}
		}
		unavailable := func(what string, c *client, method, path string, body any) {
			t.Helper()
			status, h, b := c.doH(method, path, body)
			if status != 503 || errorCode(t, b) != "unavailable" || h.Get("Retry-After") == "" {
				t.Fatalf("%s during the blip: %d (Retry-After %q) %s", what, status, h.Get("Retry-After"), b)
			}
		}

		blip("users", "users_away")
		unavailable("an access token", ana, "GET", "/api/v1/me", nil)
		unavailable("a personal access token", pat, "GET", "/api/v1/me", nil)
		unavailable("a refresh", e.anon(), "POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": ana.refresh})
		unavailable("a login", e.anon(), "POST", "/api/v1/auth/login", map[string]string{"email": "ana@example.org", "password": "password-ana@example.org"})
		blip("users_away", "users")

		blip("personal_access_tokens", "pat_away")
		unavailable("a personal access token lookup", pat, "GET", "/api/v1/me", nil)
		blip("pat_away", "personal_access_tokens")

		ana.must("GET", "/api/v1/me", nil, 200, nil)
		pat.must("GET", "/api/v1/me", nil, 200, nil)
		ana.must("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": ana.refresh}, 200, nil)
		if st, b := ana.do("GET", "/api/v1/me", nil, "Authorization", "Bearer not-a-token"); st != 401 {
			t.Fatalf("a wrong token after the blip: %d %s", st, b)
		}
	})
}
