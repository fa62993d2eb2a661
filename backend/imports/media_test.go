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
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// fakeFiles are media files by path, each with a content type, that count what is stored.
type fakeFiles struct {
	types  map[string]string // path → content type
	fail   map[string]error  // path → error when stored
	stored []string
}

func (f *fakeFiles) Check(p string, t tasks.InputType) *tasks.FieldError {
	ct, ok := f.types[p]
	switch {
	case !ok:
		return &tasks.FieldError{Code: imports.CodeMissingMedia, Message: "no file " + p}
	case !media.Fits(t, ct):
		return &tasks.FieldError{Code: imports.CodeWrongMedia, Message: p + " is " + ct}
	}
	return nil
}

func (f *fakeFiles) AssetID(_ context.Context, p string) (string, error) {
	if err := f.fail[p]; err != nil {
		return "", err
	}
	f.stored = append(f.stored, p)
	return "id:" + p, nil
}

// TestResolveMediaPaths: the paths of media inputs (strings and {"url": s} objects, in image
// lists and media candidates too) become asset references; URLs, assets and inputs that take
// no media are left as they are. A path that names no file, or a file of another medium,
// refuses the whole item before any file is stored, with the input named.
func TestResolveMediaPaths(t *testing.T) {
	schema := tasks.Schema{Inputs: []tasks.Input{
		{Name: "prompt", Type: tasks.InputText}, {Name: "photo", Type: tasks.InputImage}, {Name: "album", Type: tasks.InputImageList},
		{Name: "voice", Type: tasks.InputAudio}, {Name: "output", Type: tasks.InputCandidates}, {Name: "extra", Type: tasks.InputJSON},
	}}
	files := func() *fakeFiles {
		return &fakeFiles{types: map[string]string{"img/a.png": "image/png", "b.wav": "audio/wave", "./img/a.png": "image/png", "page.html": "application/octet-stream"},
			fail: map[string]error{"boom.png": errors.New("disk full")}}
	}
	tests := []struct {
		name, in, want string
		stored         int
		field, code    string
		err            string
	}{
		{"a path", `{"photo":"img/a.png"}`, `{"photo":{"asset":"id:img/a.png"}}`, 1, "", "", ""},
		{"a url object", `{"voice":{"url":"b.wav","content_type":"audio/wav"}}`, `{"voice":{"asset":"id:b.wav"}}`, 1, "", "", ""},
		{"a list", `{"album":["img/a.png","https://example.org/x.png",{"asset":"kept"}]}`, `{"album":[{"asset":"id:img/a.png"},"https://example.org/x.png",{"asset":"kept"}]}`, 1, "", "", ""},
		{"candidates", `{"output":[{"id":"o1","type":"image","value":"./img/a.png"},{"id":"o2","type":"text","value":"img/a.png"}]}`,
			`{"output":[{"id":"o1","type":"image","value":{"asset":"id:./img/a.png"}},{"id":"o2","type":"text","value":"img/a.png"}]}`, 1, "", "", ""},
		{"text and json are no media", `{"prompt":"img/a.png","extra":{"photo":"img/a.png"}}`, `{"extra":{"photo":"img/a.png"},"prompt":"img/a.png"}`, 0, "", "", ""},
		{"urls stay", `{"photo":"https://example.org/a.png","voice":"data:audio/wav;base64,UklGRg=="}`, `{"photo":"https://example.org/a.png","voice":"data:audio/wav;base64,UklGRg=="}`, 0, "", "", ""},
		{"a mistyped name", `{"photo":"img/a.png","voice":"b.wva"}`, "", 0, "inputs.voice", imports.CodeMissingMedia, ""},
		{"an absolute path", `{"photo":"/img/a.png"}`, "", 0, "inputs.photo", imports.CodeMissingMedia, ""},
		{"a missing file in a list", `{"album":["img/a.png","img/c.png"]}`, "", 0, "inputs.album", imports.CodeMissingMedia, ""},
		{"a picture as audio", `{"voice":"img/a.png"}`, "", 0, "inputs.voice", imports.CodeWrongMedia, ""},
		{"a web page as an image", `{"output":[{"id":"o1","type":"image","value":"page.html"}]}`, "", 0, "inputs.output", imports.CodeWrongMedia, ""},
		{"a file that cannot be stored", `{"photo":"img/a.png","album":["boom.png"]}`, "", 1, "", "", "inputs.album: disk full"},
	}
	for _, tc := range tests {
		var inputs map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.in), &inputs); err != nil {
			t.Fatal(err)
		}
		fs := files()
		fs.types["boom.png"] = "image/png"
		err := imports.ResolveMediaPaths(context.Background(), &schema, inputs, fs)
		switch {
		case tc.code != "":
			var fe tasks.FieldErrors
			if !errors.As(err, &fe) || fe[tc.field].Code != tc.code || len(fs.stored) != 0 {
				t.Errorf("%s: %v (stored %v), want %s %s and nothing stored", tc.name, err, fs.stored, tc.field, tc.code)
			}
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
		default:
			got, _ := json.Marshal(inputs)
			if err != nil || string(got) != tc.want || len(fs.stored) != tc.stored {
				t.Errorf("%s: %s %v (stored %v), want %s", tc.name, got, err, fs.stored, tc.want)
			}
		}
	}
}

// TestImportItemsWithMedia: media paths of an item's inputs are resolved before it is checked;
// a line whose media cannot be stored, or that names a file the import does not have, is
// refused with the input named, the others kept.
func TestImportItemsWithMedia(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.photos(workflow.Policy{})
	a := f.upload(p.ID, "a.png", pngBytes)
	files := &fakeFiles{types: map[string]string{"a.png": "image/png", "lost.png": "image/png"}, fail: map[string]error{"lost.png": errors.New("the archive entry is corrupt")}}
	asset := map[string]string{"a.png": a.ID}
	rep, err := f.im.ImportItemsWithMedia(f.ctx, p, f.lead.ID, ndjson(
		`{"external_id":"m-1","inputs":{"prompt":"p","photo":"a.png"}}`,
		`{"external_id":"m-2","inputs":{"prompt":"p","photo":"lost.png"}}`,
		`{"external_id":"m-3","inputs":{"prompt":"p","photo":"https://example.org/x.png"}}`,
		`{"external_id":"m-4", broken`,
		`{"external_id":"m-5","inputs":{"prompt":"p","photo":"a.pgn"}}`), nil, assetFiles{files, asset})
	if err != nil {
		t.Fatal(err)
	}
	got := lineErrors(rep)
	if rep.Imported != 2 || !strings.Contains(got[2], "inputs.photo: the archive entry is corrupt") || !strings.Contains(got[4], "malformed JSON") ||
		!strings.Contains(got[5], "inputs.photo=missing_media") {
		t.Fatalf("report %+v %v", rep, got)
	}
	if ref := photoRef(t, f.item(p, "m-1")); ref.Asset != a.ID {
		t.Fatalf("resolved photo %+v", ref)
	}
	if ref := photoRef(t, f.item(p, "m-3")); ref.Asset != "" || ref.URL != "https://example.org/x.png" {
		t.Fatalf("a url became %+v", ref)
	}
	if !f.missing(p, "m-5") {
		t.Fatal("a line naming no file was imported")
	}
}

// assetFiles are fake files whose stored ids are real assets.
type assetFiles struct {
	*fakeFiles
	ids map[string]string
}

func (f assetFiles) AssetID(ctx context.Context, p string) (string, error) {
	if _, err := f.fakeFiles.AssetID(ctx, p); err != nil {
		return "", err
	}
	return f.ids[p], nil
}

// TestImportChecksMedia: an asset referenced by id must be the medium of its input, by what
// its bytes were sniffed as on upload: an HTML page or a picture is no audio, a picture is no
// video; the line is refused with the input named.
func TestImportChecksMedia(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			var schema tasks.Schema
			if err := json.Unmarshal([]byte(`{"version": 1, "title": "Voices",
				"inputs": [{"name": "voice", "type": "audio"}, {"name": "output", "type": "candidates", "count": 1}],
				"questions": [{"key": "ok", "kind": "binary", "label": "Fine?", "required": true}]}`), &schema); err != nil {
				t.Fatal(err)
			}
			p := f.create(projects.ProjectSpec{Name: "voices", Schema: &schema, Workflow: &workflow.Policy{}})
			wav := f.upload(p.ID, "take.wav", []byte("RIFF\x24\x00\x00\x00WAVEfmt voice"))
			page := f.upload(p.ID, "take.mp3", []byte("<!DOCTYPE html><html><body>not a sound</body></html>"))
			pic := f.upload(p.ID, "a.png", pngBytes)
			line := func(id, voice, outType, out string) string {
				return `{"external_id":"` + id + `","inputs":{"voice":{"asset":"` + voice + `"},"output":[{"id":"o1","type":"` + outType + `","value":{"asset":"` + out + `"}}]}}`
			}
			rep := f.importItems(p,
				line("ok", wav.ID, "image", pic.ID),
				line("html", page.ID, "image", pic.ID),
				line("png", pic.ID, "audio", wav.ID),
				line("video", wav.ID, "video", pic.ID),
				line("again", wav.ID, "audio", page.ID))
			got := lineErrors(rep)
			if rep.Imported != 1 || len(got) != 4 {
				t.Fatalf("report %+v %v", rep, got)
			}
			for n, want := range map[int]string{2: "inputs.voice=wrong_media", 3: "inputs.voice=wrong_media", 4: "inputs.output=wrong_media", 5: "inputs.output=wrong_media"} {
				if !strings.Contains(got[n], want) {
					t.Errorf("line %d: %q, want %s", n, got[n], want)
				}
			}
			var fe tasks.FieldErrors
			raw, _ := json.Marshal(rep.Errors[0].Details)
			if json.Unmarshal(raw, &fe) != nil || !strings.Contains(fe["inputs.voice"].Message, "not audio") {
				t.Fatalf("the reason does not say what is wrong: %s", raw)
			}
		})
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
			if err != nil || rep.Imported != 2 || !strings.Contains(lineErrors(rep)[3], "inputs.photo=missing_media") || !f.missing(p, "z-3") {
				t.Fatalf("archive import: %v %+v", err, rep)
			}
			one, two := photoRef(t, f.item(p, "z-1")), photoRef(t, f.item(p, "z-2"))
			if one.Asset == "" || one != two {
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
