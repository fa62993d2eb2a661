package imports_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestReplaceMediaPaths: strings and {"url": s} objects naming media files become asset
// references anywhere in a value; everything else is left as it is.
func TestReplaceMediaPaths(t *testing.T) {
	files := map[string]string{"img/a.png": "A", "b.wav": "B"}
	resolve := func(_ context.Context, p string) (string, bool, error) {
		if p == "boom.png" {
			return "", false, errors.New("disk full")
		}
		id, ok := files[p]
		return id, ok, nil
	}
	tests := []struct {
		name, in, want string
		changed        bool
		err            string
	}{
		{"a path", `"img/a.png"`, `{"asset":"A"}`, true, ""},
		{"a url object", `{"url":"b.wav"}`, `{"asset":"B"}`, true, ""},
		{"an object with more than a url", `{"url":"b.wav","alt":"x"}`, `{"alt":"x","url":{"asset":"B"}}`, true, ""},
		{"a list", `["img/a.png","elsewhere.png",3]`, `[{"asset":"A"},"elsewhere.png",3]`, true, ""},
		{"nested", `[{"type":"image","value":"img/a.png"}]`, `[{"type":"image","value":{"asset":"A"}}]`, true, ""},
		{"no media", `{"text":"hello","n":1,"ok":true,"none":null}`, `{"n":1,"none":null,"ok":true,"text":"hello"}`, false, ""},
		{"a url elsewhere", `"https://example.org/a.png"`, `"https://example.org/a.png"`, false, ""},
		{"a failing file in a list", `["img/a.png","boom.png"]`, ``, false, "disk full"},
		{"a failing file in an object", `{"k":"boom.png"}`, ``, false, "disk full"},
	}
	for _, tc := range tests {
		var v any
		if err := json.Unmarshal([]byte(tc.in), &v); err != nil {
			t.Fatal(err)
		}
		out, changed, err := imports.ReplaceMediaPaths(context.Background(), v, resolve)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		got, _ := json.Marshal(out)
		if err != nil || string(got) != tc.want || changed != tc.changed {
			t.Errorf("%s: %s changed=%v err=%v, want %s changed=%v", tc.name, got, changed, err, tc.want, tc.changed)
		}
	}
}

// TestImportItemsWithMedia: media paths of an item's inputs are resolved before it is checked;
// a line whose media cannot be stored is refused with the input named, the others kept.
func TestImportItemsWithMedia(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.photos(workflow.Policy{})
	a := f.upload(p.ID, "a.png", pngBytes)
	resolve := func(_ context.Context, path string) (string, bool, error) {
		switch path {
		case "a.png":
			return a.ID, true, nil
		case "lost.png":
			return "", false, errors.New("the archive entry is corrupt")
		}
		return "", false, nil
	}
	rep, err := f.im.ImportItemsWithMedia(f.ctx, p, f.lead.ID, ndjson(
		`{"external_id":"m-1","inputs":{"prompt":"p","photo":"a.png"}}`,
		`{"external_id":"m-2","inputs":{"prompt":"p","photo":"lost.png"}}`,
		`{"external_id":"m-3","inputs":{"prompt":"p","photo":"https://example.org/x.png"}}`,
		`{"external_id":"m-4", broken`), nil, resolve)
	if err != nil {
		t.Fatal(err)
	}
	got := lineErrors(rep)
	if rep.Imported != 2 || !strings.Contains(got[2], "inputs.photo: the archive entry is corrupt") || !strings.Contains(got[4], "malformed JSON") {
		t.Fatalf("report %+v %v", rep, got)
	}
	if ref := photoRef(t, f.item(p, "m-1")); ref.Asset != a.ID {
		t.Fatalf("resolved photo %+v", ref)
	}
	if ref := photoRef(t, f.item(p, "m-3")); ref.Asset != "" || ref.URL != "https://example.org/x.png" {
		t.Fatalf("a url became %+v", ref)
	}
}

// TestImportArchive: an upload of a zip of media then items stores each referenced file of the
// archive once, as an asset of the project, and a second upload of the same files reuses them.
func TestImportArchive(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			archive := zipOf(t, map[string][]byte{"img/a.png": pngBytes, "img/unused.png": []byte("never referenced")})
			items := ndjson(
				`{"external_id":"z-1","inputs":{"prompt":"p","photo":"img/a.png"}}`,
				`{"external_id":"z-2","inputs":{"prompt":"p","photo":{"url":"./img/a.png"}}}`,
				`{"external_id":"z-3","inputs":{"prompt":"p","photo":"img/elsewhere.png"}}`)
			rep, err := f.im.ImportArchive(f.ctx, p, f.lead.ID, parts("notes", strings.NewReader("ignored"), "media", archive, "items", items))
			if err != nil || rep.Imported != 3 {
				t.Fatalf("archive import: %v %+v", err, rep)
			}
			one, two := photoRef(t, f.item(p, "z-1")), photoRef(t, f.item(p, "z-2"))
			if one.Asset == "" || one != two || photoRef(t, f.item(p, "z-3")).URL != "img/elsewhere.png" {
				t.Fatalf("photos %+v %+v", one, two)
			}
			asset, err := f.st.Asset(f.ctx, one.Asset)
			if err != nil || asset.ProjectID != p.ID || asset.Bytes != int64(len(pngBytes)) || f.assets(p.ID) != 1 {
				t.Fatalf("asset %+v %v (%d assets)", asset, err, f.assets(p.ID))
			}
			again := zipOf(t, map[string][]byte{"other/name.png": pngBytes})
			rep, err = f.im.ImportArchive(f.ctx, p, f.lead.ID, parts("media", again, "items",
				ndjson(`{"external_id":"z-4","inputs":{"prompt":"p","photo":"other/name.png"}}`)))
			if err != nil || rep.Imported != 1 || photoRef(t, f.item(p, "z-4")) != one || f.assets(p.ID) != 1 {
				t.Fatalf("same bytes under another name: %v %+v, %d assets", err, rep, f.assets(p.ID))
			}
		})
	}
}

// TestImportArchiveRefusals: the items part is required, the media part must be a zip, a
// form that fails to read fails the import, and items without media import as they are.
func TestImportArchiveRefusals(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.photos(workflow.Policy{})
	_, err := f.im.ImportArchive(f.ctx, p, f.lead.ID, parts("media", zipOf(t, nil)))
	if fieldCode(err, "items") != "required" {
		t.Errorf("no items part: %v", err)
	}
	_, err = f.im.ImportArchive(f.ctx, p, f.lead.ID, parts("media", strings.NewReader("not a zip"), "items", ndjson()))
	if fieldCode(err, "media") != "invalid_archive" {
		t.Errorf("media that is not a zip: %v", err)
	}
	broken := func() (string, io.Reader, error) { return "", nil, errors.New("multipart: unexpected EOF") }
	if _, err := f.im.ImportArchive(f.ctx, p, f.lead.ID, broken); err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("a broken form: %v", err)
	}
	rep, err := f.im.ImportArchive(f.ctx, p, f.lead.ID, parts("items", ndjson(`{"external_id":"n-1","inputs":{"prompt":"p","photo":"img/a.png"}}`)))
	if err != nil || rep.Imported != 1 || photoRef(t, f.item(p, "n-1")).URL != "img/a.png" || f.assets(p.ID) != 0 {
		t.Errorf("items without media: %v %+v", err, rep)
	}
}

// parts is a multipart form of the given name and body pairs, in order.
func parts(pairs ...any) imports.NextPart {
	i := 0
	return func() (string, io.Reader, error) {
		if i >= len(pairs) {
			return "", nil, io.EOF
		}
		name, body := pairs[i].(string), pairs[i+1].(io.Reader)
		i += 2
		return name, body, nil
	}
}

// zipOf is a zip archive of the files.
func zipOf(t *testing.T, files map[string][]byte) io.Reader {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// photoRef is the photo input of an item.
func photoRef(t *testing.T, it *store.Item) tasks.MediaRef {
	t.Helper()
	var in map[string]json.RawMessage
	var ref tasks.MediaRef
	if err := json.Unmarshal(it.Inputs, &in); err != nil || json.Unmarshal(in["photo"], &ref) != nil {
		t.Fatalf("inputs %s", it.Inputs)
	}
	return ref
}

// assets counts a project's assets.
func (f *fixture) assets(projectID string) int {
	f.t.Helper()
	keys, err := f.st.AssetKeys(f.ctx, projectID)
	if err != nil {
		f.t.Fatal(err)
	}
	return len(keys)
}

// fieldCode is the code of err's field error at field, "" when there is none.
func fieldCode(err error, field string) string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return ""
	}
	return fe[field].Code
}
