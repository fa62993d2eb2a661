package api_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/arbiter-annotation/arbiter/backend/auth"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

func TestAuth(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		ana := e.newUser("ana@example.org", false)

		t.Run("scenarios", func(t *testing.T) { authScenarios(t, e, ana) })
		t.Run("refresh rotation and reuse", func(t *testing.T) { refreshRotation(t, e) })
		t.Run("logout revokes the family", func(t *testing.T) {
			c := e.newUser("leaver@example.org", false)
			status, h, _ := c.doH("POST", "/api/v1/auth/logout", nil)
			if status != 204 || !strings.Contains(h.Get("Set-Cookie"), "arbiter_refresh=;") {
				t.Fatalf("logout: %d, cookie not cleared: %q", status, h.Get("Set-Cookie"))
			}
			status, _, body := c.refreshWith(c.refresh)
			if status != 401 || errorCode(t, body) != "unauthorized" {
				t.Fatalf("refresh after logout: %d %s", status, body)
			}
		})
		t.Run("login rate limit", func(t *testing.T) { loginRateLimit(t, e) })
		t.Run("personal access tokens", func(t *testing.T) { personalTokens(t, e) })
	})
}

// scenario is one request and what its answer must and must not hold.
type scenario struct {
	name       string
	as         *client
	method     string
	path       string
	body       any
	headers    []string
	status     int
	code       string   // error code, when the answer is an error
	contains   []string // substrings the body must contain
	notContain []string // substrings the body must not contain
}

func runScenarios(t *testing.T, e *env, cases []scenario) {
	t.Helper()
	for _, sc := range cases {
		t.Run(sc.name, func(t *testing.T) {
			as := sc.as
			if as == nil {
				as = e.anon()
			}
			status, body := as.do(sc.method, sc.path, sc.body, sc.headers...)
			if status != sc.status {
				t.Fatalf("status %d, want %d: %s", status, sc.status, body)
			}
			if sc.code != "" {
				if got := errorCode(t, body); got != sc.code {
					t.Fatalf("code %q, want %q: %s", got, sc.code, body)
				}
			}
			for _, s := range sc.contains {
				if !strings.Contains(string(body), s) {
					t.Errorf("body lacks %q: %s", s, body)
				}
			}
			for _, s := range sc.notContain {
				if strings.Contains(string(body), s) {
					t.Errorf("body holds %q: %s", s, body)
				}
			}
		})
	}
}

func authScenarios(t *testing.T, e *env, ana *client) {
	expired, _ := auth.NewIssuer(jwtKey, -time.Minute).Sign(auth.Subject{UserID: ana.user.ID})
	bearer := func(tok string) []string { return []string{"Authorization", "Bearer " + tok} }
	runScenarios(t, e, []scenario{
		{name: "login ok", method: "POST", path: "/api/v1/auth/login", body: map[string]string{"email": "ANA@example.org", "password": "password-ana@example.org"},
			status: 200, contains: []string{`"access_token"`, `"expires_in":60`, `"email":"ana@example.org"`}, notContain: []string{"password_hash", "argon2", "refresh_token", "arb_rt_"}},
		{name: "login wrong password", method: "POST", path: "/api/v1/auth/login", body: map[string]string{"email": "ana@example.org", "password": "nope-nope-nope"}, status: 401, code: "unauthorized"},
		{name: "login unknown user", method: "POST", path: "/api/v1/auth/login", body: map[string]string{"email": "ghost@example.org", "password": "whatever-123"}, status: 401, code: "unauthorized"},
		{name: "login malformed json", method: "POST", path: "/api/v1/auth/login", body: `{"email": "ana@example.org",`, status: 400, code: "invalid_json"},
		{name: "login syntax error has offset", method: "POST", path: "/api/v1/auth/login", body: `{"email" "x"}`, status: 400, code: "invalid_json", contains: []string{`"offset":10`}},
		{name: "login unknown field", method: "POST", path: "/api/v1/auth/login", body: `{"email":"a@b.c","password":"x","is_admin":true}`, status: 400, code: "invalid_json", contains: []string{`"field":"is_admin"`}},
		{name: "login wrong type", method: "POST", path: "/api/v1/auth/login", body: `{"email":42,"password":"x"}`, status: 400, code: "invalid_json", contains: []string{`"field":"email"`}},
		{name: "login two values", method: "POST", path: "/api/v1/auth/login", body: `{"email":"a@b.c","password":"x"} {}`, status: 400, code: "invalid_json"},
		{name: "login empty body", method: "POST", path: "/api/v1/auth/login", body: ``, status: 400, code: "invalid_json"},
		{name: "login missing fields", method: "POST", path: "/api/v1/auth/login", body: `{}`, status: 422, code: "validation_failed", contains: []string{`"email"`, `"password"`}},
		{name: "login oversized body", method: "POST", path: "/api/v1/auth/login", body: `{"email":"` + strings.Repeat("a", 2<<20) + `"}`, status: 413, code: "payload_too_large"},
		{name: "login form encoded", method: "POST", path: "/api/v1/auth/login", body: `email=a`, headers: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 415, code: "unsupported_media_type"},
		{name: "me without token", method: "GET", path: "/api/v1/me", status: 401, code: "unauthorized"},
		{name: "me with token", as: ana, method: "GET", path: "/api/v1/me", status: 200, contains: []string{`"email":"ana@example.org"`}, notContain: []string{"password"}},
		{name: "expired token", method: "GET", path: "/api/v1/me", headers: bearer(expired), status: 401, code: "token_expired"},
		{name: "alg none token", method: "GET", path: "/api/v1/me", headers: bearer(algNone(ana.user.ID)), status: 401, code: "unauthorized"},
		{name: "HS512 token with the right key", method: "GET", path: "/api/v1/me", headers: bearer(signed(t, jwt.SigningMethodHS512, ana.user.ID)), status: 401, code: "unauthorized"},
		{name: "token signed with another key", method: "GET", path: "/api/v1/me", headers: bearer(mustSign(t, auth.NewIssuer([]byte("another-key-another-key-another-key"), time.Minute), ana.user.ID)), status: 401, code: "unauthorized"},
		{name: "refresh token used as access token", method: "GET", path: "/api/v1/me", headers: bearer(ana.refresh), status: 401, code: "unauthorized"},
		{name: "unknown api route", as: ana, method: "GET", path: "/api/v1/nothing-here", status: 404, code: "not_found"},
		{name: "wrong method", as: ana, method: "DELETE", path: "/api/v1/me", status: 405, code: "method_not_allowed"},
	})
}

func refreshRotation(t *testing.T, e *env) {
	c := e.newUser("rotor@example.org", false)
	first := c.refresh
	c.renew()
	if c.refresh == first || c.token == "" {
		t.Fatal("refresh did not rotate the token")
	}
	c.must("GET", "/api/v1/me", nil, 200, nil)

	status, h, body := c.refreshWith(first)
	if status != 401 || errorCode(t, body) != "refresh_token_reused" || !strings.Contains(h.Get("Set-Cookie"), "arbiter_refresh=;") {
		t.Fatalf("reuse of a rotated token: %d %s (cookie %q)", status, body, h.Get("Set-Cookie"))
	}
	if status, _, body = c.refreshWith(c.refresh); status != 401 {
		t.Fatalf("the family survived a reuse: %d %s", status, body)
	}
	if status, _, _ = c.refreshWith("arb_rt_made-up"); status != 401 {
		t.Fatalf("made-up refresh token: %d", status)
	}
	if status, _, _ = e.anon().doH("POST", "/api/v1/auth/refresh", nil, "X-Arbiter-CSRF", "1"); status != 401 {
		t.Fatalf("refresh without a cookie: %d", status)
	}
}

func loginRateLimit(t *testing.T, e *env) {
	e.newUser("target@example.org", false)
	for i := 0; i < 5; i++ {
		status, _ := e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "target@example.org", "password": fmt.Sprint("guess-", i)})
		if status != 401 {
			t.Fatalf("attempt %d: %d", i, status)
		}
	}
	status, body := e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "target@example.org", "password": "password-target@example.org"})
	if status != 429 || errorCode(t, body) != "rate_limited" {
		t.Fatalf("after 5 failures the right password got %d %s, want 429", status, body)
	}
	other := e.newUser("bystander@example.org", false)
	if other.token == "" {
		t.Fatal("another account was locked out by the same address")
	}
}

func personalTokens(t *testing.T, e *env) {
	c := e.newUser("scripter@example.org", false)
	var created struct {
		ID, Token, Prefix string
	}
	c.must("POST", "/api/v1/me/tokens", map[string]any{"name": "ci", "scopes": []string{"read", "manage"}, "expires_in_days": 30}, 201, &created)
	if !strings.HasPrefix(created.Token, "arb_pat_") || !strings.HasPrefix(created.Token, created.Prefix) {
		t.Fatalf("token %+v", created)
	}
	status, body := c.do("GET", "/api/v1/me/tokens", nil)
	if status != 200 || strings.Contains(string(body), created.Token) || !strings.Contains(string(body), created.ID) {
		t.Fatalf("list shows the secret or lacks the token: %s", body)
	}
	pat := &client{e: e, token: created.Token}
	pat.must("GET", "/api/v1/me", nil, 200, nil)
	if st, _ := pat.do("POST", "/api/v1/users", map[string]any{"email": "x@example.org", "name": "x", "password": "a-long-enough-password"}); st != 403 {
		t.Fatalf("a non-admin's token created a user: %d", st)
	}
	other := e.newUser("other-owner@example.org", false)
	if st, _ := other.do("DELETE", "/api/v1/me/tokens/"+created.ID, nil); st != 404 {
		t.Fatalf("someone else revoked the token: %d", st)
	}
	c.must("DELETE", "/api/v1/me/tokens/"+created.ID, nil, 204, nil)
	if st, _ := pat.do("GET", "/api/v1/me", nil); st != 401 {
		t.Fatalf("revoked token still works: %d", st)
	}
}

func algNone(sub string) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	body := enc.EncodeToString([]byte(fmt.Sprintf(`{"iss":"arbiter","sub":%q,"exp":%d}`, sub, time.Now().Add(time.Hour).Unix())))
	return head + "." + body + "."
}

func signed(t *testing.T, m jwt.SigningMethod, sub string) string {
	claims := jwt.RegisteredClaims{Issuer: "arbiter", Subject: sub, ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}
	s, err := jwt.NewWithClaims(m, claims).SignedString(jwtKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSign(t *testing.T, iss *auth.Issuer, sub string) string {
	s, err := iss.Sign(auth.Subject{UserID: sub})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestForwardedForIsNotTrustedByDefault proves a client cannot dodge the login throttle by
// inventing X-Forwarded-For headers: its failures count against its real address.
func TestForwardedForIsNotTrustedByDefault(t *testing.T) {
	e := newEnv(t, testenv.SQLite, func(o *options) {
		o.limits = auth.Limits{Window: time.Minute, FreeFailures: 3, BaseDelay: time.Minute, MaxDelay: time.Minute, PerAddress: 1000}
	})
	for i := 0; i < 3; i++ {
		e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "admin@example.org", "password": "wrong-password"},
			"X-Forwarded-For", fmt.Sprintf("10.0.0.%d", i))
	}
	status, body := e.anon().do("POST", "/api/v1/auth/login", map[string]string{"email": "admin@example.org", "password": "password-admin@example.org"},
		"X-Forwarded-For", "10.0.0.99")
	if status != 429 || errorCode(t, body) != "rate_limited" {
		t.Fatalf("a forged X-Forwarded-For made a fresh address: %d %s", status, body)
	}
}
