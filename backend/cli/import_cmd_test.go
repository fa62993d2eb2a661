package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportCommand(t *testing.T) {
	env := map[string]string{"ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "a-long-admin-password"}
	base, _ := startServer(t, env, "--data-dir", t.TempDir())
	admin := login(t, base, "admin@example.org", "a-long-admin-password")
	var pat struct{ Token string }
	call(t, "POST", base+"/api/v1/me/tokens", admin.AccessToken, map[string]any{"name": "cli", "scopes": []string{"read", "manage"}}, 201, &pat)
	var proj struct{ ID string }
	call(t, "POST", base+"/api/v1/projects", admin.AccessToken, map[string]any{"name": "cli import", "template": "d3omni-t2i"}, 201, &proj)

	dir := t.TempDir()
	media := filepath.Join(dir, "media")
	os.MkdirAll(filepath.Join(media, "img"), 0o755)
	os.WriteFile(filepath.Join(media, "img", "a.png"), []byte("\x89PNG\r\n\x1a\nfake"), 0o644)
	items := filepath.Join(dir, "items.ndjson")
	os.WriteFile(items, []byte(strings.Join([]string{
		`{"external_id":"one","inputs":{"prompt":"a","image":"img/a.png","generator":"g"}}`,
		`{"external_id":"two","inputs":{"prompt":"b","image":{"url":"img/a.png"},"generator":"g"}}`,
		`{"external_id":"three","inputs":{"prompt":"c"}}`,
		`not json`,
	}, "\n")+"\n"), 0o644)

	var stdout, stderr bytes.Buffer
	err := runImport(context.Background(), []string{"--server", base, "--project", proj.ID, "--items", items, "--media", media, "--token", pat.Token}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "2 lines were refused") {
		t.Fatalf("import: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, `"imported":2`) || !strings.Contains(out, `"line":3`) || !strings.Contains(out, `"line":4`) {
		t.Fatalf("report: %s", out)
	}
	if !strings.Contains(stderr.String(), "100.0%") {
		t.Fatalf("no progress bar: %q", stderr.String())
	}
	var page struct {
		Items []struct {
			ExternalID string         `json:"external_id"`
			Inputs     map[string]any `json:"inputs"`
		}
	}
	call(t, "GET", base+"/api/v1/projects/"+proj.ID+"/items", admin.AccessToken, nil, 200, &page)
	ids := map[string]bool{}
	for _, it := range page.Items {
		img, _ := it.Inputs["image"].(map[string]any)
		if img["asset"] == nil {
			t.Fatalf("%s: media path not replaced by an asset: %v", it.ExternalID, it.Inputs)
		}
		ids[img["asset"].(string)] = true
	}
	if len(page.Items) != 2 || len(ids) != 1 {
		t.Fatalf("items %d, distinct assets %d (one file must be uploaded once)", len(page.Items), len(ids))
	}
}

// TestImportMediaStaysInItsFolder: a media path, or a symbolic link in the media folder, that
// leads out of it names no file: nothing outside the folder is uploaded.
func TestImportMediaStaysInItsFolder(t *testing.T) {
	dir := t.TempDir()
	media := filepath.Join(dir, "media")
	os.MkdirAll(filepath.Join(media, "img"), 0o755)
	secret := filepath.Join(dir, "secret.png")
	os.WriteFile(secret, []byte("\x89PNG\r\n\x1a\nsecret"), 0o644)
	if err := os.Symlink(secret, filepath.Join(media, "img", "link.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../secret.png", filepath.Join(media, "img", "rel.png")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(media)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// note: the server is unreachable, so any upload attempt would fail the call
	u := &uploader{base: "http://127.0.0.1:1", project: "p", token: "t", media: root, assets: map[string]string{}}
	for _, rel := range []string{"img/link.png", "img/rel.png", "../secret.png", "img/../../secret.png"} {
		id, err := u.assetFor(context.Background(), rel)
		if err != nil || id != "" {
			t.Errorf("%s: asset %q, %v: a file outside the media folder was taken", rel, id, err)
		}
	}
	if u.uploaded.Load() != 0 {
		t.Fatalf("%d uploads", u.uploaded.Load())
	}
}
