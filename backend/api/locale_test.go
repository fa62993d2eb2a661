package api_test

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// localeError is the details.locale of a 422 answer.
func localeError(t *testing.T, body []byte) string {
	t.Helper()
	var v struct {
		Error struct {
			Code    string                       `json:"code"`
			Details map[string]map[string]string `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("not the error shape: %s", body)
	}
	return v.Error.Details["locale"]["code"]
}

func TestUserLocale(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		admin := e.admin
		type me struct {
			ID     string `json:"id"`
			Locale string `json:"locale"`
		}

		var created me
		admin.must("POST", "/api/v1/users", map[string]any{"email": "mei@example.org", "name": "Mei", "password": "a-long-enough-password", "locale": "zh-CN"}, 201, &created)
		if created.Locale != "zh-CN" {
			t.Fatalf("created with locale %q", created.Locale)
		}
		st, body := admin.do("POST", "/api/v1/users", map[string]any{"email": "kl@example.org", "name": "K", "password": "a-long-enough-password", "locale": "klingon"})
		if st != 422 || localeError(t, body) != "invalid_locale" {
			t.Fatalf("an unknown locale at creation: %d %s", st, body)
		}

		mei := &client{e: e, user: &store.User{Email: "mei@example.org"}}
		mei.login("a-long-enough-password")
		var got me
		mei.must("GET", "/api/v1/me", nil, 200, &got)
		if got.Locale != "zh-CN" {
			t.Fatalf("GET /me locale %q", got.Locale)
		}

		ana := e.newUser("ana@example.org", false)
		ana.must("GET", "/api/v1/me", nil, 200, &got)
		if got.Locale != "" {
			t.Fatalf("a user who never chose has locale %q", got.Locale)
		}
		ana.must("PATCH", "/api/v1/me", map[string]any{"locale": "zh-CN"}, 200, &got)
		if got.Locale != "zh-CN" {
			t.Fatalf("PATCH answered locale %q", got.Locale)
		}
		ana.must("GET", "/api/v1/me", nil, 200, &got)
		if got.Locale != "zh-CN" {
			t.Fatalf("the locale did not stay: %q", got.Locale)
		}
		// a body without locale keeps it
		ana.must("PATCH", "/api/v1/me", map[string]any{}, 200, &got)
		if got.Locale != "zh-CN" {
			t.Fatalf("an empty PATCH changed the locale to %q", got.Locale)
		}
		for _, bad := range []string{"zh", "fr", "EN", "zh-cn "} {
			st, body := ana.do("PATCH", "/api/v1/me", map[string]any{"locale": bad})
			if st != 422 || localeError(t, body) != "invalid_locale" {
				t.Fatalf("locale %q: %d %s", bad, st, body)
			}
		}
		ana.must("GET", "/api/v1/me", nil, 200, &got)
		if got.Locale != "zh-CN" {
			t.Fatalf("a refused PATCH changed the locale to %q", got.Locale)
		}
		ana.must("PATCH", "/api/v1/me", map[string]any{"locale": ""}, 200, &got)
		if got.Locale != "" {
			t.Fatalf("clearing the locale left %q", got.Locale)
		}
		if st, _ := e.anon().do("PATCH", "/api/v1/me", map[string]any{"locale": "en"}); st != 401 {
			t.Fatalf("anonymous PATCH /me: %d", st)
		}
	})
}
