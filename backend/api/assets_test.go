package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// pngBytes is a 1×1 PNG.
var pngBytes, _ = hex.DecodeString("89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
	"1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")

func multipartBody(t *testing.T, field, filename string, data []byte) (string, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("note", "ignored")
	fw, err := w.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

// uploadAsset uploads data and returns the asset id.
func uploadAsset(t *testing.T, c *client, pid, filename string, data []byte) string {
	t.Helper()
	ct, body := multipartBody(t, "file", filename, data)
	status, out := c.do("POST", "/api/v1/projects/"+pid+"/assets", body, "Content-Type", ct)
	if status != 201 {
		t.Fatalf("upload: %d %s", status, out)
	}
	var a struct{ ID string }
	json.Unmarshal(out, &a)
	return a.ID
}

func TestAssets(t *testing.T) {
	for _, bb := range testenv.BlobBackends() {
		t.Run(bb.Name, func(t *testing.T) {
			e := newEnv(t, testenv.SQLite, func(o *options) { o.blobs = bb.Open; o.maxUpload = 64 << 10 })
			assetScenarios(t, e)
		})
	}
	t.Run("postgres", func(t *testing.T) {
		assetScenarios(t, newEnv(t, testenv.Postgres, func(o *options) { o.maxUpload = 64 << 10 }))
	})
}

func assetScenarios(t *testing.T, e *env) {
	lead := e.newUser("lead@example.org", false)
	ann := e.newUser("ann@example.org", false)
	outsider := e.newUser("out@example.org", false)
	pid := lead.createProject("media")
	lead.member(pid, ann, "annotator")

	ct, body := multipartBody(t, "file", "pixel.bin", pngBytes)
	var a struct {
		ID    string
		Bytes int64
	}
	status, out := lead.do("POST", "/api/v1/projects/"+pid+"/assets", body, "Content-Type", ct)
	if status != 201 || json.Unmarshal(out, &a) != nil {
		t.Fatalf("upload: %d %s", status, out)
	}
	want := sha256.Sum256(pngBytes)
	if !strings.Contains(string(out), hex.EncodeToString(want[:])) || a.Bytes != int64(len(pngBytes)) || !strings.Contains(string(out), `"content_type":"image/png"`) {
		t.Fatalf("recorded %s", out)
	}

	t.Run("signed url loads in a browser", func(t *testing.T) {
		var u struct{ URL string }
		ann.must("GET", "/api/v1/assets/"+a.ID+"/url", nil, 200, &u)
		got, ctype := fetch(t, e, u.URL)
		if !bytes.Equal(got, pngBytes) || ctype != "image/png" {
			t.Fatalf("fetched %d bytes as %q", len(got), ctype)
		}
		if _, ok := e.blobs.(*blob.Local); ok {
			tampered := strings.Replace(u.URL, "sig=", "sig=0", 1)
			if resp, err := http.Get(e.srv.URL + tampered); err != nil || resp.StatusCode != 403 {
				t.Fatalf("tampered local url: %v %v", resp.StatusCode, err)
			}
		}
	})
	nf := noFileBody(t)
	runScenarios(t, e, []scenario{
		{name: "outsider asks for the url", as: outsider, method: "GET", path: "/api/v1/assets/" + a.ID + "/url", status: 404, code: "not_found"},
		{name: "annotator cannot upload", as: ann, method: "POST", path: "/api/v1/projects/" + pid + "/assets", body: body, headers: []string{"Content-Type", ct}, status: 403, code: "forbidden"},
		{name: "not multipart", as: lead, method: "POST", path: "/api/v1/projects/" + pid + "/assets", body: `{}`, status: 400, code: "bad_request"},
		{name: "no file part", as: lead, method: "POST", path: "/api/v1/projects/" + pid + "/assets", body: nf, headers: []string{"Content-Type", noFileType}, status: 400, code: "bad_request"},
	})
	t.Run("oversized upload is refused and leaves nothing", func(t *testing.T) {
		big := bytes.Repeat([]byte{0x42}, 100<<10)
		ct, body := multipartBody(t, "file", "big.bin", big)
		status, out := lead.do("POST", "/api/v1/projects/"+pid+"/assets", body, "Content-Type", ct)
		if status != 413 || errorCode(t, out) != "payload_too_large" {
			t.Fatalf("oversized: %d %s", status, out)
		}
		if n := countAssets(t, e); n != 1 {
			t.Fatalf("%d assets recorded after a refused upload, want 1", n)
		}
	})
	t.Run("active content is a download", func(t *testing.T) {
		for name, data := range map[string]string{
			"x.svg": `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`,
			"x.xml": `<?xml version="1.0"?><a xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script></a>`,
		} {
			id := uploadAsset(t, lead, pid, name, []byte(data))
			var u struct {
				URL         string `json:"url"`
				ContentType string `json:"content_type"`
			}
			lead.must("GET", "/api/v1/assets/"+id+"/url", nil, 200, &u)
			resp := get(t, e, u.URL)
			if ct, cd := resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"); ct != blob.Download || !strings.HasPrefix(cd, "attachment") {
				t.Fatalf("%s stored as %q, served as %q (%q)", name, u.ContentType, ct, cd)
			}
		}
	})
	t.Run("html is never served as html", func(t *testing.T) {
		id := uploadAsset(t, lead, pid, "x.html", []byte("<html><script>alert(1)</script></html>"))
		var u struct{ URL string }
		lead.must("GET", "/api/v1/assets/"+id+"/url", nil, 200, &u)
		if _, ctype := fetch(t, e, u.URL); strings.Contains(ctype, "html") {
			t.Fatalf("served as %q", ctype)
		}
	})
}

var noFileType string

func noFileBody(t *testing.T) []byte {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("note", "no file here")
	w.Close()
	noFileType = w.FormDataContentType()
	return buf.Bytes()
}

// fetch GETs a URL of the server or of the blob store: the body and its content type.
func fetch(t *testing.T, e *env, u string) ([]byte, string) {
	t.Helper()
	resp, b := getBody(t, e, u)
	return b, resp.Header.Get("Content-Type")
}

// get GETs a URL of the server or of the blob store and returns the response.
func get(t *testing.T, e *env, u string) *http.Response {
	t.Helper()
	resp, _ := getBody(t, e, u)
	return resp
}

func getBody(t *testing.T, e *env, u string) (*http.Response, []byte) {
	t.Helper()
	if strings.HasPrefix(u, "/") {
		u = e.srv.URL + u
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
	}
	return resp, b
}

func countAssets(t *testing.T, e *env) int64 {
	var n int64
	if err := e.store.SQL().QueryRow("SELECT COUNT(*) FROM assets").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestUploadFormFieldsCount: the form's other fields count toward the upload limit, and a form
// of many parts is refused, on uploads and on archive imports.
func TestUploadFormFieldsCount(t *testing.T) {
	e := newEnv(t, testenv.SQLite, func(o *options) { o.maxUpload = 64 << 10 })
	lead := e.newUser("lead@example.org", false)
	pid := lead.createProjectFrom("likert-rating")
	form := func(fields int, fieldSize int, file string) (string, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for i := range fields {
			w.WriteField(fmt.Sprintf("junk%d", i), strings.Repeat("x", fieldSize))
		}
		fw, _ := w.CreateFormFile(file, "pixel.png")
		fw.Write(pngBytes)
		w.Close()
		return w.FormDataContentType(), buf.Bytes()
	}
	for _, c := range []struct {
		name           string
		path, file     string
		fields, size   int
		status         int
		code, contains string
	}{
		{"a field past the limit", "/assets", "file", 1, 2 << 20, 413, "payload_too_large", ""},
		{"many small fields", "/assets", "file", 1000, 1, 400, "bad_request", "more than 16 parts"},
		{"many small fields before an archive", "/items", "media", 1000, 1, 400, "bad_request", "more than 16 parts"},
		{"a few small fields", "/assets", "file", 3, 10, 201, "", ""},
	} {
		ct, body := form(c.fields, c.size, c.file)
		status, out := lead.do("POST", "/api/v1/projects/"+pid+c.path, body, "Content-Type", ct)
		if status != c.status || (c.code != "" && errorCode(t, out) != c.code) || !strings.Contains(string(out), c.contains) {
			t.Errorf("%s: %d %.300s", c.name, status, out)
		}
	}
}
