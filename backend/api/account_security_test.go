package api_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/auth"
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
		// note: the blips rename tables behind the store's back, which no cache can notice; a
		// request served from the cache of authentication rows would not touch the database
		e.store.UseCache(0)
		ana := e.newUser("ana@example.org", false)
		pat := e.newUser("pat@example.org", false)
		var tok struct{ Token string }
		pat.must("POST", "/api/v1/me/tokens", map[string]any{"name": "ci", "scopes": []string{"read"}}, 201, &tok)
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
		if st, h, b := ana.refreshWith(ana.refresh); st != 503 || errorCode(t, b) != "unavailable" || h.Get("Retry-After") == "" || refreshCookie(h) != "" {
			t.Fatalf("a refresh during the blip: %d %v %s", st, h, b)
		}
		unavailable("a login", e.anon(), "POST", "/api/v1/auth/login", map[string]string{"email": "ana@example.org", "password": "password-ana@example.org"})
		blip("users_away", "users")

		blip("personal_access_tokens", "pat_away")
		unavailable("a personal access token lookup", pat, "GET", "/api/v1/me", nil)
		blip("pat_away", "personal_access_tokens")

		ana.must("GET", "/api/v1/me", nil, 200, nil)
		pat.must("GET", "/api/v1/me", nil, 200, nil)
		ana.renew()
		ana.must("GET", "/api/v1/me", nil, 200, nil)
		if st, b := ana.do("GET", "/api/v1/me", nil, "Authorization", "Bearer not-a-token"); st != 401 {
			t.Fatalf("a wrong token after the blip: %d %s", st, b)
		}
	})
}

// TestLockoutAsAWeapon: nobody can lock another person out. Guessing from one address slows
// that address down on that account (a delay that doubles), while the right password from an
// address without failures on the account always gets in; an address over its limit, even a
// proxy everyone shares, is refused only on the accounts it failed on and slowed to a try a
// second on the others. Every refusal is
// logged with its counts and counted in /metrics.
func TestLockoutAsAWeapon(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		var logs syncBuffer
		limits := auth.DefaultLimits
		limits.PerAddress = 10
		e := newEnv(t, open, func(o *options) {
			o.limits = limits
			o.log = slog.New(slog.NewJSONHandler(&logs, nil))
			o.config = func(c *config.Config) { c.TrustedProxies = "127.0.0.1/32" }
		})
		e.newUser("ana@example.org", false)
		login := func(email, password, addr string) (int, http.Header, []byte) {
			t.Helper()
			return e.anon().doH("POST", "/api/v1/auth/login", map[string]string{"email": email, "password": password}, "X-Forwarded-For", addr)
		}
		const attacker, admin = "203.0.113.66", "198.51.100.1"

		for i := 0; i < 5; i++ {
			if st, _, b := login("admin@example.org", fmt.Sprint("guess-", i), attacker); st != 401 {
				t.Fatalf("guess %d: %d %s", i, st, b)
			}
		}
		st, h, b := login("admin@example.org", "guess-5", attacker)
		if st != 429 || errorCode(t, b) != "rate_limited" || h.Get("Retry-After") != "1" {
			t.Fatalf("the sixth guess right away: %d Retry-After %q %s", st, h.Get("Retry-After"), b)
		}
		if st, _, b := login("admin@example.org", "password-admin@example.org", admin); st != 200 {
			t.Fatalf("the administrator from their own address was locked out by the guesser: %d %s", st, b)
		}
		time.Sleep(1100 * time.Millisecond)
		if st, _, b := login("admin@example.org", "guess-6", attacker); st != 401 {
			t.Fatalf("a guess after the delay: %d %s", st, b)
		}
		if st, h, _ := login("admin@example.org", "guess-7", attacker); st != 429 || h.Get("Retry-After") != "2" {
			t.Fatalf("the delay did not double: %d Retry-After %q", st, h.Get("Retry-After"))
		}
		for i := 0; i < 20; i++ {
			login("admin@example.org", "hammering", attacker)
		}
		if st, _, b := login("admin@example.org", "password-admin@example.org", admin); st != 200 {
			t.Fatalf("the administrator was locked out by 20 more tries: %d %s", st, b)
		}

		const sprayer = "203.0.113.77"
		for i := 0; i < 10; i++ {
			login(fmt.Sprintf("user%d@example.org", i), "Summer2024!", sprayer)
		}
		if st, _, b := login("user0@example.org", "Summer2024!", sprayer); st != 429 || errorCode(t, b) != "rate_limited" {
			t.Fatalf("an address over its limit tried an account it failed on: %d %s", st, b)
		}
		if st, h, b := login("ana@example.org", "password-ana@example.org", sprayer); st != 429 || h.Get("Retry-After") != "1" {
			t.Fatalf("an address over its limit was not slowed on an account it never failed on: %d Retry-After %q %s", st, h.Get("Retry-After"), b)
		}
		time.Sleep(1100 * time.Millisecond)
		if st, _, b := login("ana@example.org", "password-ana@example.org", sprayer); st != 200 {
			t.Fatalf("an address over its limit was refused the right password on an account it never failed on: %d %s", st, b)
		}

		_, metrics := fetchURL(t, e.srv.URL+"/metrics", "")
		for _, want := range []string{`arbiter_login_attempts_total{outcome="bad_credentials"} 16`, `arbiter_login_attempts_total{outcome="delayed"} 22`,
			`arbiter_login_attempts_total{outcome="address_limited"} 2`, `arbiter_login_attempts_total{outcome="ok"} 5`} {
			if !strings.Contains(metrics, want) {
				t.Errorf("/metrics lacks %s:\n%s", want, grepLines(metrics, "arbiter_login"))
			}
		}
		if !strings.Contains(logs.String(), `"msg":"login delayed","account":"admin@example.org","client":"203.0.113.66"`) ||
			!strings.Contains(logs.String(), `"account_failures":6`) {
			t.Errorf("the log lacks the refusals and their counts:\n%.3000s", logs.String())
		}
	})
}

// TestLockoutBehindAnUnconfiguredProxy: when every client seems to come from one proxy address,
// guessing through it still locks nobody else out.
func TestLockoutBehindAnUnconfiguredProxy(t *testing.T) {
	limits := auth.DefaultLimits
	limits.PerAddress = 10
	e := newEnv(t, testenv.SQLite, func(o *options) { o.limits = limits })
	for i := 0; i < 30; i++ {
		e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": fmt.Sprintf("victim%d@example.org", i%12), "password": "wrong-password"})
	}
	// note: the shared address is over its limit, so it gets a try a second on other accounts
	for _, who := range []string{"ana@example.org", "ben@example.org"} {
		time.Sleep(1100 * time.Millisecond)
		if c := e.newUser(who, false); c.token == "" {
			t.Fatalf("%s could not log in through the shared address", who)
		}
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// syncBuffer is a bytes.Buffer that a server's logger and a test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestAccounts: people change their password with the old one, administrators hand out
// one-time reset links and disable and re-enable accounts; new passwords follow NIST SP
// 800-63B; every change ends the sessions it must, at once, and is audited.
func TestAccounts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		t.Run("password rules", func(t *testing.T) { accountPasswordRules(t, e) })
		t.Run("change password", func(t *testing.T) { accountChangePassword(t, e) })
		t.Run("reset link", func(t *testing.T) { accountResetLink(t, e) })
		t.Run("disable and enable", func(t *testing.T) { accountDisable(t, e) })
		var n int
		e.store.SQL().QueryRowContext(context.Background(), `SELECT COUNT(DISTINCT action) FROM audit_events WHERE action IN
 ('user.password_change', 'user.password_reset_issue', 'user.password_reset', 'user.disable', 'user.enable', 'token.create')`).Scan(&n)
		if n != 6 {
			t.Fatalf("%d of 6 kinds of account change audited", n)
		}
	})
}

func accountPasswordRules(t *testing.T, e *env) {
	create := func(pw string) scenario {
		return scenario{name: pw, as: e.admin, method: "POST", path: "/api/v1/users",
			body: map[string]any{"email": "rules@example.org", "name": "Rosa Rules", "password": pw}}
	}
	var cases []scenario
	for pw, code := range map[string]string{"eleven-char": "too_short", "password1234": "too_common", "Password2024!": "too_common",
		"qwertyuiop123": "too_common", "aaaaaaaaaaaa": "too_common", "abababababab": "too_common", "abcdefghijklm": "too_common",
		"890123456789": "too_common", "rules@example.org": "too_common", "rosa rules!!": "too_common"} {
		sc := create(pw)
		sc.status, sc.code, sc.contains = 422, "validation_failed", []string{`"password":{"code":"` + code + `"`}
		cases = append(cases, sc)
	}
	ok := create("correct horse battery staple")
	ok.status = 201
	runScenarios(t, e, append(cases, ok))
}

func accountChangePassword(t *testing.T, e *env) {
	ana := e.newUser("ana@example.org", false)
	other := &client{e: e, user: ana.user} // note: the same person's second session
	other.login("password-ana@example.org")
	otherRefresh := other.refresh
	var tok struct{ Token string }
	ana.must("POST", "/api/v1/me/tokens", map[string]any{"name": "script", "scopes": []string{"read"}}, 201, &tok)
	change := func(current, next string) (int, http.Header, []byte) {
		return ana.doH("POST", "/api/v1/me/password", map[string]string{"current_password": current, "new_password": next})
	}
	if st, _, b := change("not-my-password", "a brand new passphrase"); st != 422 || !strings.Contains(string(b), `"current_password":{"code":"wrong_password"`) {
		t.Fatalf("a wrong current password: %d %s", st, b)
	}
	if st, _, b := change("password-ana@example.org", "short"); st != 422 || !strings.Contains(string(b), `"new_password":{"code":"too_short"`) {
		t.Fatalf("a short new password: %d %s", st, b)
	}
	pat := &client{e: e, token: tok.Token}
	if st, _ := pat.do("POST", "/api/v1/me/password", map[string]string{"current_password": "password-ana@example.org", "new_password": "a brand new passphrase"}); st != 403 {
		t.Fatalf("a token changed the password: %d", st)
	}
	ana.keepSession(change("password-ana@example.org", "a brand new passphrase"))
	ana.must("GET", "/api/v1/me", nil, 200, nil)
	if st, _ := other.do("GET", "/api/v1/me", nil); st != 401 {
		t.Fatalf("another session's access token outlived the password change: %d", st)
	}
	if st, _, _ := other.refreshWith(otherRefresh); st != 401 {
		t.Fatalf("another session's refresh token outlived the password change: %d", st)
	}
	pat.must("GET", "/api/v1/me", nil, 200, nil)
	if st, _ := e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "ana@example.org", "password": "password-ana@example.org"}); st != 401 {
		t.Fatalf("the old password still logs in: %d", st)
	}
	ana.login("a brand new passphrase")
}

func accountResetLink(t *testing.T, e *env) {
	ben := e.newUser("ben@example.org", false)
	path := "/api/v1/users/" + ben.user.ID + "/password-reset"
	if st, _ := ben.do("POST", path, nil); st != 403 {
		t.Fatalf("a non-administrator made a reset link: %d", st)
	}
	var first, link struct{ Token, Path string }
	e.admin.must("POST", path, nil, 201, &first)
	e.admin.must("POST", path, nil, 201, &link)
	if !strings.HasPrefix(link.Token, "arb_reset_") || link.Path != "/reset-password#token="+link.Token {
		t.Fatalf("link %+v", link)
	}
	ben.must("GET", "/api/v1/me", nil, 200, nil) // note: making a link changes nothing yet
	reset := func(token, pw string) (int, []byte) {
		return e.anon().do("POST", "/api/v1/auth/password-reset", map[string]string{"token": token, "new_password": pw})
	}
	if st, b := reset(first.Token, "a fine new passphrase"); st != 400 || errorCode(t, b) != "reset_link_invalid" {
		t.Fatalf("a replaced link: %d %s", st, b)
	}
	if st, b := reset(link.Token, "123456789012"); st != 422 {
		t.Fatalf("a weak password through the link: %d %s", st, b)
	}
	if st, b := reset(link.Token, "a fine new passphrase"); st != 204 {
		t.Fatalf("the link after a refused password: %d %s", st, b)
	}
	if st, b := reset(link.Token, "another fine passphrase"); st != 400 || errorCode(t, b) != "reset_link_invalid" {
		t.Fatalf("a used link: %d %s", st, b)
	}
	if st, _ := ben.do("GET", "/api/v1/me", nil); st != 401 {
		t.Fatalf("a session outlived the reset: %d", st)
	}
	ben.login("a fine new passphrase")
}

func accountDisable(t *testing.T, e *env) {
	cat := e.newUser("cat@example.org", false)
	var tok struct{ Token string }
	cat.must("POST", "/api/v1/me/tokens", map[string]any{"name": "script", "scopes": []string{"read"}}, 201, &tok)
	pat := &client{e: e, token: tok.Token}
	if st, b := e.admin.do("POST", "/api/v1/users/"+e.admin.user.ID+"/disable", nil); st != 409 || errorCode(t, b) != "own_account" {
		t.Fatalf("an administrator disabled themselves: %d %s", st, b)
	}
	if st, _ := cat.do("POST", "/api/v1/users/"+e.admin.user.ID+"/disable", nil); st != 403 {
		t.Fatalf("a non-administrator disabled someone: %d", st)
	}
	e.admin.must("POST", "/api/v1/users/"+cat.user.ID+"/disable", nil, 200, nil)
	for name, c := range map[string]*client{"access token": cat, "personal access token": pat} {
		if st, _ := c.do("GET", "/api/v1/me", nil); st != 401 {
			t.Fatalf("the %s of a disabled user still works: %d", name, st)
		}
	}
	if st, _, _ := cat.refreshWith(cat.refresh); st != 401 {
		t.Fatalf("a disabled user refreshed: %d", st)
	}
	if st, _ := e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "cat@example.org", "password": "password-cat@example.org"}); st != 401 {
		t.Fatalf("a disabled user logged in: %d", st)
	}
	e.admin.must("POST", "/api/v1/users/"+cat.user.ID+"/enable", nil, 200, nil)
	cat.login("password-cat@example.org")
	if st, _ := pat.do("GET", "/api/v1/me", nil); st != 401 {
		t.Fatalf("re-enabling brought a revoked token back: %d", st)
	}
}

// TestTokenScopes: a personal access token does what its scopes allow and nothing else, on a
// route of every kind; no token makes tokens; an administrator's token administers only with
// the admin scope.
func TestTokenScopes(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	pid := e.admin.createProject("scoped")
	kinds := []struct {
		scope, method, path string
		body                any
	}{
		{"read", "GET", "/api/v1/projects/" + pid + "/members", nil},
		{"annotate", "POST", "/api/v1/projects/" + pid + "/queue/next", map[string]any{"stage": "label"}},
		{"manage", "PATCH", "/api/v1/projects/" + pid, map[string]any{"description": "changed"}},
		{"admin", "GET", "/api/v1/users", nil},
	}
	token := func(owner *client, scopes ...string) *client {
		var tok struct {
			Token  string
			Scopes []string
		}
		owner.must("POST", "/api/v1/me/tokens", map[string]any{"name": strings.Join(scopes, "+"), "scopes": scopes}, 201, &tok)
		if strings.Join(tok.Scopes, " ") != strings.Join(scopes, " ") {
			t.Fatalf("asked for %v, got %v", scopes, tok.Scopes)
		}
		return &client{e: e, user: owner.user, token: tok.Token}
	}
	for _, held := range []string{"read", "annotate", "manage", "admin"} {
		pat := token(e.admin, held)
		for _, k := range kinds {
			st, b := pat.do(k.method, k.path, k.body)
			refused := st == 403 && errorCode(t, b) == "insufficient_scope"
			if refused != (held != k.scope) || st == 401 {
				t.Errorf("a %q token on the %s route %s %s: %d %s", held, k.scope, k.method, k.path, st, b)
			}
		}
		pat.must("GET", "/api/v1/me", nil, 200, nil)
		if st, b := pat.do("POST", "/api/v1/me/tokens", map[string]any{"name": "child", "scopes": []string{"read"}}); st != 403 || errorCode(t, b) != "insufficient_scope" {
			t.Errorf("a %q token made a token: %d %s", held, st, b)
		}
	}
	all := token(e.admin, "read", "annotate", "manage")
	if st, b := all.do("POST", "/api/v1/users", map[string]any{"email": "n@example.org", "name": "N", "password": "a long enough passphrase"}); st != 403 || errorCode(t, b) != "insufficient_scope" {
		t.Fatalf("an administrator's token without the admin scope created a user: %d %s", st, b)
	}
	token(e.admin, "admin").must("POST", "/api/v1/users", map[string]any{"email": "n@example.org", "name": "N", "password": "a long enough passphrase"}, 201, nil)

	ana := e.newUser("ana@example.org", false)
	if st, b := ana.do("POST", "/api/v1/me/tokens", map[string]any{"name": "x", "scopes": []string{"admin"}}); st != 422 || !strings.Contains(string(b), "forbidden_scope") {
		t.Fatalf("a non-administrator got an admin token: %d %s", st, b)
	}
	for _, bad := range []any{[]string{}, []string{"everything"}, nil} {
		if st, _ := ana.do("POST", "/api/v1/me/tokens", map[string]any{"name": "x", "scopes": bad}); st != 422 {
			t.Fatalf("scopes %v: %d", bad, st)
		}
	}
	short := token(ana, "read")
	if _, err := e.store.SQL().ExecContext(context.Background(), "UPDATE personal_access_tokens SET expires_at = $1 WHERE user_id = $2",
		time.Now().Add(-time.Minute).UTC(), ana.user.ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := short.do("GET", "/api/v1/me", nil); st != 401 {
		t.Fatalf("an expired token: %d", st)
	}
}

// TestBrowserHeaders: every answer, UI or API, success or error, carries a
// Content-Security-Policy that forbids inline script and framing, nosniff and a Referrer-Policy;
// the refresh token travels only in an HttpOnly, Secure, SameSite=Strict cookie scoped to the
// refresh path, and the refresh route refuses requests another site could forge.
func TestBrowserHeaders(t *testing.T) {
	e := newEnv(t, testenv.SQLite, func(o *options) {
		o.config = func(c *config.Config) {
			c.BlobURL = "s3://media?endpoint=minio:9000&secure=false&public_endpoint=media.example.org&public_secure=true"
		}
	})
	for _, r := range []struct{ method, path, csp string }{
		{"GET", "/", "script-src 'self';"}, {"GET", "/projects/1/annotate", "script-src 'self';"},
		{"GET", "/assets/app-1234.js", "script-src 'self';"}, {"GET", "/api/v1/me", "default-src 'none'"},
		{"GET", "/api/v1/nothing", "default-src 'none'"}, {"DELETE", "/api/v1/auth/login", "default-src 'none'"},
		{"GET", "/healthz", "default-src 'none'"}, {"POST", "/api/v1/auth/login", "default-src 'none'"},
	} {
		req, _ := http.NewRequest(r.method, e.srv.URL+r.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, r.csp) || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s %s (%d): CSP %q, nosniff %q, referrer %q, frame %q", r.method, r.path, resp.StatusCode, csp,
				h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"), h.Get("X-Frame-Options"))
		}
		if strings.HasPrefix(r.csp, "script") && !strings.Contains(csp, "img-src 'self' https://media.example.org data: blob:") {
			t.Errorf("the UI's policy does not let media come from the public blob endpoint: %q", csp)
		}
	}

	st, h, b := e.anon().doH("POST", "/api/v1/auth/login", map[string]string{"email": "admin@example.org", "password": "password-admin@example.org"})
	cookie := h.Get("Set-Cookie")
	for _, want := range []string{"arbiter_refresh=arb_rt_", "Path=/api/v1/auth/refresh", "HttpOnly", "Secure", "SameSite=Strict"} {
		if st != 200 || !strings.Contains(cookie, want) {
			t.Errorf("the refresh cookie lacks %q: %q", want, cookie)
		}
	}
	if strings.Contains(string(b), "arb_rt_") {
		t.Errorf("the refresh token is in the body: %s", b)
	}
	token := refreshCookie(h)
	for name, headers := range map[string][]string{
		"no CSRF header":     {"Cookie", "arbiter_refresh=" + token},
		"cross-site fetch":   {"Cookie", "arbiter_refresh=" + token, "X-Arbiter-CSRF", "1", "Sec-Fetch-Site", "cross-site"},
		"another origin":     {"Cookie", "arbiter_refresh=" + token, "X-Arbiter-CSRF", "1", "Origin", "https://evil.example"},
		"a same-site origin": {"Cookie", "arbiter_refresh=" + token, "X-Arbiter-CSRF", "1", "Sec-Fetch-Site", "same-site"},
	} {
		if st, b := e.anon().do("POST", "/api/v1/auth/refresh", nil, headers...); st != 403 || errorCode(t, b) != "csrf_rejected" {
			t.Errorf("%s: %d %s", name, st, b)
		}
	}
	same := []string{"Cookie", "arbiter_refresh=" + token, "X-Arbiter-CSRF", "1", "Sec-Fetch-Site", "same-origin", "Origin", e.srv.URL}
	if st, b := e.anon().do("POST", "/api/v1/auth/refresh", nil, same...); st != 200 {
		t.Errorf("a refresh from the site's own page: %d %s", st, b)
	}
}
