package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/tasks"
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
	for _, rel := range []string{"img/link.png", "img/rel.png", "../secret.png", "img/../../secret.png", dir + "/secret.png"} {
		if bad := u.Check(rel, tasks.InputImage); bad == nil || bad.Code != imports.CodeMissingMedia {
			t.Errorf("%s: %+v: a file outside the media folder was taken", rel, bad)
		}
		if id, err := u.AssetID(context.Background(), rel); err == nil || id != "" {
			t.Errorf("%s: asset %q: a file outside the media folder was taken", rel, id)
		}
	}
	if u.uploaded.Load() != 0 {
		t.Fatalf("%d uploads", u.uploaded.Load())
	}
}

// mediaSchema is a project with a photo and an optional voice recording.
var mediaSchema = map[string]any{
	"version": 1, "title": "Voices",
	"inputs": []any{
		map[string]any{"name": "prompt", "type": "text"},
		map[string]any{"name": "photo", "type": "image"},
		map[string]any{"name": "voice", "type": "audio", "optional": true},
	},
	"questions": []any{map[string]any{"key": "ok", "kind": "binary", "label": "Fine?", "required": true}},
}

// TestImportMissingMediaFile: arbiter import --media refuses, with its line number and the
// input, a line whose media path names no file of the folder (a mistyped name) or names a file
// that is not the medium of its input (an HTML page or a PNG given as audio); it exits non-zero,
// queues nothing of those lines (no item, and no file of theirs uploaded, not even the ones
// that exist) and imports the others, numbered as in the file.
func TestImportMissingMediaFile(t *testing.T) {
	env := map[string]string{"ARBITER_ADMIN_EMAIL": "admin@example.org", "ARBITER_ADMIN_PASSWORD": "a-long-admin-password"}
	base, _ := startServer(t, env, "--data-dir", t.TempDir())
	admin := login(t, base, "admin@example.org", "a-long-admin-password")
	var pat struct{ Token string }
	call(t, "POST", base+"/api/v1/me/tokens", admin.AccessToken, map[string]any{"name": "cli", "scopes": []string{"read", "manage"}}, 201, &pat)
	var proj struct{ ID string }
	call(t, "POST", base+"/api/v1/projects", admin.AccessToken, map[string]any{"name": "voices", "schema": mediaSchema}, 201, &proj)

	dir := t.TempDir()
	media := filepath.Join(dir, "media")
	os.MkdirAll(filepath.Join(media, "img"), 0o755)
	os.MkdirAll(filepath.Join(media, "voice"), 0o755)
	png := []byte("\x89PNG\r\n\x1a\nphoto-a")
	wav := []byte("RIFF\x24\x00\x00\x00WAVEfmt voice")
	os.WriteFile(filepath.Join(media, "img", "a.png"), png, 0o644)
	os.WriteFile(filepath.Join(media, "img", "b.png"), []byte("\x89PNG\r\n\x1a\nphoto-b, never uploaded"), 0o644)
	os.WriteFile(filepath.Join(media, "voice", "a.wav"), wav, 0o644)
	os.WriteFile(filepath.Join(media, "voice", "page.html"), []byte("<!DOCTYPE html><html><body>not a sound</body></html>"), 0o644)
	items := filepath.Join(dir, "items.ndjson")
	os.WriteFile(items, []byte(strings.Join([]string{
		`{"external_id":"e-1","inputs":{"prompt":"a","photo":"img/a.png","voice":"voice/a.wav"}}`,
		`{"external_id":"e-2","inputs":{"prompt":"b","photo":"img/b.png","voice":"voice/a.wva"}}`,
		``,
		`{"external_id":"e-4","inputs":{"prompt":"d","photo":"img/a.png","voice":"voice/page.html"}}`,
		`{"external_id":"e-5","inputs":{"prompt":"e","photo":"img/a.png","voice":{"url":"img/a.png"}}}`,
		`{"external_id":"e-6","inputs":{"prompt":"img/b.png","photo":{"url":"./img/a.png"}}}`,
		`{"external_id":"e-7","inputs":{"prompt":"g","photo":"https://example.org/g.png"}}`,
	}, "\n")+"\n"), 0o644)

	var stdout, stderr bytes.Buffer
	err := runImport(context.Background(), []string{"--server", base, "--project", proj.ID, "--items", items, "--media", media, "--token", pat.Token}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "3 lines were refused") {
		t.Fatalf("import: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var rep imports.ImportReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("report %s: %v", stdout.String(), err)
	}
	want := map[int]string{2: "missing_media", 4: "wrong_media", 5: "wrong_media"}
	if rep.Imported != 3 || len(rep.Errors) != len(want) {
		t.Fatalf("report: %s", stdout.String())
	}
	for _, e := range rep.Errors {
		details, _ := json.Marshal(e.Details)
		if !strings.Contains(string(details), `"inputs.voice":{"code":"`+want[e.Line]+`"`) {
			t.Errorf("line %d: %s %s, want inputs.voice %s", e.Line, e.Error, details, want[e.Line])
		}
	}
	if !strings.Contains(stdout.String(), `the media folder has no file \"voice/a.wva\"`) || !strings.Contains(stdout.String(), "not audio") {
		t.Fatalf("the reasons do not say what is wrong: %s", stdout.String())
	}
	var page struct {
		Items []struct {
			ExternalID string                     `json:"external_id"`
			Inputs     map[string]json.RawMessage `json:"inputs"`
		}
	}
	call(t, "GET", base+"/api/v1/projects/"+proj.ID+"/items", admin.AccessToken, nil, 200, &page)
	got := map[string]map[string]json.RawMessage{}
	for _, it := range page.Items {
		got[it.ExternalID] = it.Inputs
	}
	if len(got) != 3 || got["e-1"] == nil || got["e-6"] == nil || got["e-7"] == nil {
		t.Fatalf("items %v, want e-1, e-6 and e-7", slices.Collect(maps.Keys(got)))
	}
	if string(got["e-6"]["prompt"]) != `"img/b.png"` || !strings.Contains(string(got["e-6"]["photo"]), `"asset"`) ||
		string(got["e-7"]["photo"]) != `"https://example.org/g.png"` {
		t.Fatalf("a text input or a URL was taken for a file, or a path was not: %s %s", got["e-6"], got["e-7"])
	}
	var storage struct {
		UsedBytes int64 `json:"used_bytes"`
	}
	call(t, "GET", base+"/api/v1/projects/"+proj.ID+"/storage", admin.AccessToken, nil, 200, &storage)
	if storage.UsedBytes != int64(len(png)+len(wav)) {
		t.Fatalf("%d bytes stored, want img/a.png and voice/a.wav only (%d): a refused line's file was uploaded", storage.UsedBytes, len(png)+len(wav))
	}
}
