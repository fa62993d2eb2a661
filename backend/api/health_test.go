package api_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

func TestHealthMetricsAndUI(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	runScenarios(t, e, []scenario{
		{name: "healthz", method: "GET", path: "/healthz", status: 200, contains: []string{`"ok"`}},
		{name: "readyz", method: "GET", path: "/readyz", status: 200, contains: []string{`"database":"ok"`, `"blobs":"ok"`}},
		{name: "ui index", method: "GET", path: "/", status: 200, contains: []string{"<title>Arbiter</title>"}},
		{name: "client-side route falls back to index", method: "GET", path: "/projects/123/annotate", status: 200, contains: []string{"<title>Arbiter</title>"}},
		{name: "built asset", method: "GET", path: "/assets/app-1234.js", status: 200, contains: []string{"console.log"}},
		{name: "missing built asset is a 404, not index", method: "GET", path: "/assets/gone-999.js", status: 404},
		{name: "unknown api path is JSON", method: "GET", path: "/api/v2/anything", status: 404, code: "not_found"},
	})
	resp, err := http.Get(e.srv.URL + "/assets/app-1234.js")
	if err != nil || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("hashed assets are not cached as immutable: %v %v", resp.Header, err)
	}
	resp.Body.Close()
	e.admin.must("GET", "/api/v1/me", nil, 200, nil)
	resp, err = http.Get(e.srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `arbiter_http_requests_total{method="GET",route="/api/v1/me",status="200"} 1`) {
		t.Fatalf("metrics lack the request counter:\n%.2000s", b)
	}
	req, _ := http.NewRequest("GET", e.srv.URL+"/healthz", nil)
	req.Header.Set("X-Request-ID", "trace-42")
	resp, _ = http.DefaultClient.Do(req)
	if resp.Header.Get("X-Request-ID") != "trace-42" {
		t.Fatalf("request id not echoed: %q", resp.Header.Get("X-Request-ID"))
	}
}

// TestReadyzHidesTheCause: the unauthenticated /readyz says a dependency is unreachable, never
// the driver's error with its host, user or path.
func TestReadyzHidesTheCause(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	dsn := e.store.URL()
	if err := e.store.Close(); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(e.srv.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), `"database":"unreachable"`) {
		t.Fatalf("readyz with the database closed: %d %s", resp.StatusCode, b)
	}
	for _, leak := range []string{"sql", "closed", dsn} {
		if strings.Contains(string(b), leak) {
			t.Errorf("readyz tells %q: %s", leak, b)
		}
	}
}
