package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reading test.
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

var listeningRE = regexp.MustCompile(`listening on (http://\S+)`)

// startServer runs `arbiter serve` in-process and returns its base URL and stdout.
func startServer(t *testing.T, env map[string]string, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	go func() { done <- serve(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), lookup, stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve returned %v", err)
		}
		if !strings.Contains(stderr.String(), `"msg":"stopped"`) {
			t.Errorf("no graceful stop in the log:\n%s", stderr.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m := listeningRE.FindStringSubmatch(stdout.String()); m != nil {
			return m[1], stdout
		}
		select {
		case err := <-done:
			t.Fatalf("serve exited: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("server did not start:\n%s", stderr.String())
	return "", nil
}

func call(t *testing.T, method, url, token string, body any, want int, out any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		r = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, url, r)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, resp.StatusCode, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
	}
}

// tokenPair is an access token and the refresh cookie's value.
type tokenPair struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"-"`
}

func login(t *testing.T, base, email, password string) tokenPair {
	t.Helper()
	return session(t, "POST", base+"/api/v1/auth/login", "", map[string]string{"email": email, "password": password}, 200)
}

// refresh exchanges a refresh token, sent as the browser sends its cookie.
func refresh(t *testing.T, base, token string, want int) tokenPair {
	t.Helper()
	return session(t, "POST", base+"/api/v1/auth/refresh", token, nil, want)
}

// session sends a login or a refresh and returns the access token and the refresh cookie.
func session(t *testing.T, method, url, refreshToken string, body any, want int) tokenPair {
	t.Helper()
	var r io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		r = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, url, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Arbiter-CSRF", "1")
	if refreshToken != "" {
		req.AddCookie(&http.Cookie{Name: "arbiter_refresh", Value: refreshToken})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, resp.StatusCode, want, b)
	}
	var p tokenPair
	if want == 200 {
		json.Unmarshal(b, &p)
		for _, c := range resp.Cookies() {
			if c.Name == "arbiter_refresh" {
				p.RefreshToken = c.Value
			}
		}
		if p.AccessToken == "" || p.RefreshToken == "" {
			t.Fatalf("%s %s: no access token or refresh cookie: %s %v", method, url, b, resp.Header)
		}
	}
	return p
}

func TestServeEmbeddedDefaults(t *testing.T) {
	dir := t.TempDir()
	base, stdout := startServer(t, map[string]string{}, "--data-dir", dir)
	banner := regexp.MustCompile(`administrator (\S+) with password\s+(\S+)\s+It is shown`)
	m := banner.FindStringSubmatch(stdout.String())
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); m = banner.FindStringSubmatch(stdout.String()) {
		time.Sleep(20 * time.Millisecond)
	}
	if m == nil {
		t.Fatalf("no generated admin password printed:\n%s", stdout.String())
	}
	if len(m[2]) < 20 {
		t.Fatalf("generated password too weak: %q", m[2])
	}
	call(t, "GET", base+"/healthz", "", nil, 200, nil)
	call(t, "GET", base+"/readyz", "", nil, 200, nil)
	p := login(t, base, m[1], m[2])
	walkFoundation(t, base, p)
}

func TestServeRefusesWeakAdminPassword(t *testing.T) {
	lookup := func(k string) (string, bool) {
		v, ok := map[string]string{"ARBITER_ADMIN_EMAIL": "a@example.org", "ARBITER_ADMIN_PASSWORD": "short"}[k]
		return v, ok
	}
	err := serve(context.Background(), []string{"--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, lookup, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "ARBITER_ADMIN_PASSWORD") {
		t.Fatalf("weak admin password accepted: %v", err)
	}
}

// TestServePostgresMinIOReplicas runs two replicas on one PostgreSQL database and one MinIO
// bucket, chosen by configuration alone, and uses them interchangeably.
func TestServePostgresMinIOReplicas(t *testing.T) {
	pg := testenv.Service(t, testenv.EnvPostgres, "PostgreSQL")
	s3 := testenv.S3BlobURL(t)
	schema := testenv.RandomName("t_serve_")
	testenv.CreateSchema(t, pg, schema)
	env := map[string]string{
		"ARBITER_DATABASE_URL":   testenv.WithSearchPath(t, pg, schema),
		"ARBITER_BLOB_URL":       s3,
		"ARBITER_S3_ACCESS_KEY":  testenv.Getenv(testenv.EnvS3AccessKey),
		"ARBITER_S3_SECRET_KEY":  testenv.Getenv(testenv.EnvS3SecretKey),
		"ARBITER_ADMIN_EMAIL":    "admin@example.org",
		"ARBITER_ADMIN_PASSWORD": "a-long-admin-password",
	}
	one, _ := startServer(t, env, "--data-dir", t.TempDir())
	two, _ := startServer(t, env, "--data-dir", t.TempDir())
	p := login(t, one, "admin@example.org", "a-long-admin-password")
	call(t, "GET", two+"/api/v1/me", p.AccessToken, nil, 200, nil) // note: the signing key is shared through the database
	next := refresh(t, two, p.RefreshToken, 200)
	refresh(t, one, p.RefreshToken, 401)
	var proj struct{ ID string }
	call(t, "POST", one+"/api/v1/projects", next.AccessToken, map[string]string{"name": "shared"}, 201, &proj)
	id := upload(t, two, next.AccessToken, proj.ID, []byte("GIF89a tiny"))
	var u struct{ URL string }
	call(t, "GET", one+"/api/v1/assets/"+id+"/url", next.AccessToken, nil, 200, &u)
	if !strings.Contains(u.URL, "X-Amz-Signature") {
		t.Fatalf("not a presigned S3 url: %s", u.URL)
	}
	resp, err := http.Get(u.URL)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/gif" {
		t.Fatalf("presigned GET: %v %v", resp, err)
	}
	resp.Body.Close()
}

// walkFoundation exercises the foundation's endpoints in the order a new team would.
func walkFoundation(t *testing.T, base string, admin tokenPair) {
	t.Helper()
	call(t, "GET", base+"/api/v1/me", admin.AccessToken, nil, 200, nil)
	rotated := refresh(t, base, admin.RefreshToken, 200)
	refresh(t, base, admin.RefreshToken, 401)
	call(t, "POST", base+"/api/v1/users", rotated.AccessToken, map[string]any{"email": "ann@example.org", "name": "Ann", "password": "ann-password-1", "can_create_projects": true}, 201, nil)
	ann := login(t, base, "ann@example.org", "ann-password-1")
	var proj struct{ ID string }
	call(t, "POST", base+"/api/v1/projects", ann.AccessToken, map[string]string{"name": "D3-Omni T2I"}, 201, &proj)
	call(t, "PUT", base+"/api/v1/projects/"+proj.ID+"/members/admin@arbiter.local", ann.AccessToken, map[string]any{"roles": []string{"viewer"}}, 200, nil)
	var invs []struct {
		ID string `json:"id"`
	}
	call(t, "GET", base+"/api/v1/me/invitations", rotated.AccessToken, nil, 200, &invs)
	if len(invs) != 1 {
		t.Fatalf("invitations: %+v", invs)
	}
	call(t, "POST", base+"/api/v1/me/invitations/"+invs[0].ID+"/accept", rotated.AccessToken, nil, 204, nil)
	var members []struct{ Email string }
	call(t, "GET", base+"/api/v1/projects/"+proj.ID+"/members", ann.AccessToken, nil, 200, &members)
	if len(members) != 2 {
		t.Fatalf("members: %+v", members)
	}
	id := upload(t, base, ann.AccessToken, proj.ID, []byte("\x89PNG\r\n\x1a\n0000"))
	var u struct{ URL string }
	call(t, "GET", base+"/api/v1/assets/"+id+"/url", ann.AccessToken, nil, 200, &u)
	resp, err := http.Get(base + u.URL)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("signed local url: %v %v", resp, err)
	}
	resp.Body.Close()
}

func upload(t *testing.T, base, token, pid string, data []byte) string {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "f.bin")
	fw.Write(data)
	w.Close()
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/projects/%s/assets", base, pid), &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct{ ID string }
	if resp.StatusCode != 201 || json.NewDecoder(resp.Body).Decode(&a) != nil {
		t.Fatalf("upload: %d", resp.StatusCode)
	}
	return a.ID
}

// TestServeMetricsAddr: with --metrics-addr, /metrics answers on its own listener only, and
// with ARBITER_METRICS_TOKEN only to the token's bearer.
func TestServeMetricsAddr(t *testing.T) {
	base, stdout := startServer(t, map[string]string{"ARBITER_METRICS_TOKEN": "scrape-secret-1"},
		"--data-dir", t.TempDir(), "--metrics-addr", "127.0.0.1:0")
	m := regexp.MustCompile(`Metrics are served on (http://\S+)`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no metrics address printed:\n%s", stdout.String())
	}
	call(t, "GET", base+"/metrics", "scrape-secret-1", nil, 404, nil)
	call(t, "GET", m[1], "", nil, 401, nil)
	call(t, "GET", m[1], "scrape-secret-1", nil, 200, nil)
}

// TestServePprofAddr: profiles are off by default; with --pprof-addr they answer on their own
// listener only, never on the main address.
func TestServePprofAddr(t *testing.T) {
	base, stdout := startServer(t, nil, "--data-dir", t.TempDir(), "--pprof-addr", "127.0.0.1:0")
	m := regexp.MustCompile(`Profiles are served on (http://\S+)`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no pprof address printed:\n%s", stdout.String())
	}
	call(t, "GET", m[1]+"goroutine?debug=1", "", nil, 200, nil)
	// note: with the UI embedded, unknown paths answer the app's page, so the test looks for
	// a profile in the body rather than at the status
	if servesProfile(t, base+"/debug/pprof/goroutine?debug=1") {
		t.Fatal("profiles are served on the main address")
	}
	plain, out := startServer(t, nil, "--data-dir", t.TempDir())
	if strings.Contains(out.String(), "Profiles are served") || servesProfile(t, plain+"/debug/pprof/goroutine?debug=1") {
		t.Fatal("profiles are served without --pprof-addr")
	}
}

// servesProfile reports whether url answers with a goroutine profile.
func servesProfile(t *testing.T, url string) bool {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode == 200 && strings.Contains(string(body), "goroutine profile:")
}

// TestServeFirstStartBannerComesLast: on a terminal, where the log and stdout are one stream,
// the generated administrator password comes after the startup log (the migrations, the job
// queue, the listeners), not scrolled away above it.
func TestServeFirstStartBannerComesLast(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	term := &syncBuffer{}
	done := make(chan error, 1)
	none := func(string) (string, bool) { return "", false }
	go func() {
		done <- serve(ctx, []string{"--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--log-format", "json"}, none, term, term)
	}()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(term.String(), "It is shown only this once.") {
		if time.Now().After(deadline) {
			t.Fatalf("no first-start banner:\n%s", term.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // note: room for any startup log written after it
	out := term.String()
	before, after, _ := strings.Cut(out, "First start: created administrator")
	if strings.Count(before, `"msg":`) < 5 || !strings.Contains(before, "Arbiter is listening on") {
		t.Fatalf("the banner is not after the startup log:\n%s", out)
	}
	if strings.Contains(after, `"msg":`) {
		t.Fatalf("log lines follow the banner:\n%s", after)
	}
}
