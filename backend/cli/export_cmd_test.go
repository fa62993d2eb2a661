package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/exports"
)

// TestExportCommand releases a project through a running server and checks what lands on disk.
func TestExportCommand(t *testing.T) {
	env := map[string]string{"ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "a-long-admin-password"}
	base, _ := startServer(t, env, "--data-dir", t.TempDir())
	admin := login(t, base, "admin@example.org", "a-long-admin-password")
	var pat struct{ Token string }
	call(t, "POST", base+"/api/v1/me/tokens", admin.AccessToken, map[string]any{"name": "cli", "scopes": []string{"read", "manage"}}, 201, &pat)
	var proj struct{ ID string }
	call(t, "POST", base+"/api/v1/projects", admin.AccessToken, map[string]any{"name": "cli export", "template": "likert-rating"}, 201, &proj)
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf(`{"external_id":"e-%02d","inputs":{"prompt":"p","output":[{"id":"o1","type":"text","value":"t"}]},"meta":{"part":"%s"},"ground_truth":{"answers":{"quality":%d},"provenance":"rule"}}`,
			i, []string{"a", "b"}[i%2], 1+i%5))
	}
	req, _ := http.NewRequest("POST", base+"/api/v1/projects/"+proj.ID+"/items", strings.NewReader(strings.Join(lines, "\n")))
	req.Header.Set("Authorization", "Bearer "+pat.Token)
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("import: %v %v", err, resp)
	}
	resp.Body.Close()

	out := filepath.Join(t.TempDir(), "release")
	var stdout, stderr bytes.Buffer
	args := []string{"--server", base, "--project", proj.ID, "--token", pat.Token, "--format", "jsonl", "--format", "csv,hf",
		"--option", "split_key=part", "--option", "raw=true", "--out", out}
	if err := runExport(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("export: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "100.0%") || !strings.HasSuffix(stderr.String(), "\n") {
		t.Fatalf("no finished progress bar on stderr: %q", stderr.String())
	}
	if !strings.Contains(stdout.String(), "30 records") || strings.Contains(stdout.String(), "\r") {
		t.Fatalf("final output: %q", stdout.String())
	}
	var m struct {
		Files []struct{ Path, SHA256 string }
	}
	b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || json.Unmarshal(b, &m) != nil || len(m.Files) < 7 {
		t.Fatalf("manifest.json: %v %s", err, b)
	}
	for _, f := range m.Files {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Path)))
		sum := sha256.Sum256(data)
		if err != nil || hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("%s on disk: %v", f.Path, err)
		}
	}
	for _, p := range []string{"jsonl/a.jsonl", "jsonl/b.jsonl", "data/a-00000-of-00001.parquet", "README.md"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("missing %s", p)
		}
	}

	stderr.Reset()
	err = runExport(context.Background(), []string{"--server", base, "--project", proj.ID, "--token", pat.Token, "--format", "xlsx", "--out", out}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "422") || !strings.Contains(err.Error(), "formats[0]") {
		t.Fatalf("an unknown format: %v", err)
	}
}

// TestExportRefusesCorruptFiles: a file whose bytes do not match the manifest is an error and
// is not left in the output directory.
func TestExportRefusesCorruptFiles(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("not what the manifest says"))
	}))
	defer srv.Close()
	c := &apiClient{base: srv.URL, token: "t"}
	dir := t.TempDir()
	sum := sha256.Sum256([]byte("the real bytes"))
	_, err := c.fetch(context.Background(), "r1", manifestFile{Path: "jsonl/test.jsonl", Bytes: 14, SHA256: hex.EncodeToString(sum[:])}, filepath.Join(dir, "test.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "the manifest says") {
		t.Fatalf("corrupt download: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
	rel := &releaseBody{ID: "r1", Manifest: &manifestBody{Files: []manifestFile{{Path: "../escape", Bytes: 1}}}}
	if _, _, err := c.download(context.Background(), rel, dir, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "not a path inside") {
		t.Fatalf("a path outside the output directory: %v", err)
	}
}

// TestExportHelpListsFormats: the --format help names every format the exports package has, in
// its order.
func TestExportHelpListsFormats(t *testing.T) {
	var stderr bytes.Buffer
	if err := runExport(context.Background(), []string{"-h"}, &bytes.Buffer{}, &stderr); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	if want := "format to write: " + strings.Join(exports.FormatNames(), ", ") + " (repeat"; !strings.Contains(stderr.String(), want) {
		t.Fatalf("help does not list %q:\n%s", want, stderr.String())
	}
}

// TestExportWarnsOfExpiringLinks: a release by reference of uploaded media says, on stderr
// when it is queued and again when it is downloaded, when its links stop working; a release
// that copies its media (the default) warns of nothing.
func TestExportWarnsOfExpiringLinks(t *testing.T) {
	env := map[string]string{"ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "a-long-admin-password"}
	base, _ := startServer(t, env, "--data-dir", t.TempDir(), "--public-url", "https://arbiter.example.org")
	admin := login(t, base, "admin@example.org", "a-long-admin-password")
	var pat struct{ Token string }
	call(t, "POST", base+"/api/v1/me/tokens", admin.AccessToken, map[string]any{"name": "cli", "scopes": []string{"read", "manage"}}, 201, &pat)
	var proj struct{ ID string }
	call(t, "POST", base+"/api/v1/projects", admin.AccessToken, map[string]any{"name": "cli links", "template": "likert-rating"}, 201, &proj)
	asset := upload(t, base, pat.Token, proj.ID, []byte("\x89PNG\r\n\x1a\n0000"))
	line := `{"external_id":"l-1","inputs":{"prompt":"p","output":[{"id":"o1","type":"image","value":{"asset":"` + asset + `"}}]},"ground_truth":{"answers":{"quality":3},"provenance":"rule"}}`
	req, _ := http.NewRequest("POST", base+"/api/v1/projects/"+proj.ID+"/items", strings.NewReader(line))
	req.Header.Set("Authorization", "Bearer "+pat.Token)
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("import: %v %v", err, resp)
	}
	resp.Body.Close()

	export := func(opts ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args := append([]string{"--server", base, "--project", proj.ID, "--token", pat.Token, "--format", "jsonl", "--out", t.TempDir()}, opts...)
		if err := runExport(context.Background(), args, &stdout, &stderr); err != nil {
			t.Fatalf("export %v: %v\n%s", opts, err, stderr.String())
		}
		return stderr.String()
	}
	warning := "warning: the links to uploaded media in this release expire on " + time.Now().UTC().Add(7*24*time.Hour).Format("2006-01-02")
	if got := export("--option", "media=reference"); strings.Count(got, warning) != 2 || !strings.Contains(got, "--option media=copy") {
		t.Fatalf("a release by reference warns %d times of %q:\n%s", strings.Count(got, warning), warning, got)
	}
	if got := export(); strings.Contains(got, "warning") {
		t.Fatalf("a release that copies its media warns:\n%s", got)
	}
}
