package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/config"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// ratedProject is a likert-rating project whose items were imported with rule ground truth
// (so they are done), each showing an uploaded image.
func ratedProject(t *testing.T, e *env, n int) (lead *client, pid, asset string) {
	t.Helper()
	lead = e.newUser("lead@example.org", false)
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "Ratings", "template": "likert-rating"}, 201, &p)
	asset = uploadAsset(t, lead, p.ID, "apple.png", pngBytes)
	var lines []string
	for i := range n {
		line, _ := json.Marshal(map[string]any{"external_id": fmt.Sprintf("r-%03d", i),
			"inputs":       map[string]any{"prompt": "an apple", "output": []any{map[string]any{"id": "o1", "type": "image", "value": map[string]string{"asset": asset}}}},
			"ground_truth": map[string]any{"answers": map[string]any{"quality": 1 + i%5}, "provenance": "rule"}})
		lines = append(lines, string(line))
	}
	lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...)
	return lead, p.ID, asset
}

// TestReleaseOnMinIO writes a release with copied media into MinIO: files come back through
// signed URLs, the media copy is the uploaded file, and the archive holds everything.
func TestReleaseOnMinIO(t *testing.T) {
	e := newEnv(t, testenv.Postgres, func(o *options) { o.jobs = true; o.blobs = testenv.S3Blobs })
	lead, pid, asset := ratedProject(t, e, 40)
	v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl", "hf"},
		"options": map[string]any{"media": "copy"}}))
	if v.Status != "done" {
		t.Fatalf("release: %+v", v)
	}
	path := "/api/v1/projects/" + pid + "/releases/" + v.ID + "/files/jsonl/test.jsonl"
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+lead.token)
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), "X-Amz-Signature") {
		t.Fatalf("a release file on S3: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	files := lead.releaseFiles(pid, v)
	media := "media/" + asset + ".png"
	sum := sha256.Sum256(pngBytes)
	if string(files[media]) != string(pngBytes) {
		t.Fatalf("the copied media is not the upload (%d bytes); files %v", len(files[media]), keys(files))
	}
	listed := false
	for _, f := range v.Manifest.Files {
		listed = listed || (f.Path == media && f.Format == "media" && f.SHA256 == hex.EncodeToString(sum[:]))
	}
	if !listed || !strings.Contains(string(files["jsonl/test.jsonl"]), `"value":"`+media+`"`) {
		t.Fatalf("media not listed or not referenced by its release path: %+v", v.Manifest.Files)
	}
	status, zipped := lead.get("/api/v1/projects/" + pid + "/releases/" + v.ID + "/archive")
	if status != 200 || len(unzip(t, zipped)) != len(files) {
		t.Fatalf("archive: %d, %d files of %d", status, len(unzip(t, zipped)), len(files))
	}
}

// TestReleaseReferencesMedia: by default uploaded media are copied into a release; a release
// by reference carries signed URLs under the server's public URL, which the server (local blob
// store) serves, and says when they expire; without a public URL such a release is refused.
func TestReleaseReferencesMedia(t *testing.T) {
	e := newEnv(t, testenv.SQLite, func(o *options) {
		o.jobs = true
		o.config = func(c *config.Config) { c.PublicURL = "https://arbiter.example.org" }
	})
	lead, pid, asset := ratedProject(t, e, 3)
	byDefault := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v0", "formats": []string{"jsonl"}}))
	if !strings.Contains(string(lead.releaseFiles(pid, byDefault)["jsonl/test.jsonl"]), `"value":"media/`+asset+`.png"`) {
		t.Fatalf("a release that does not choose did not copy its media: %+v", byDefault.Manifest.Files)
	}
	v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"media": "reference"}}))
	var rec struct {
		Inputs struct {
			Output []struct{ Value string }
		}
	}
	line, _, _ := strings.Cut(string(lead.releaseFiles(pid, v)["jsonl/test.jsonl"]), "\n")
	if err := json.Unmarshal([]byte(line), &rec); err != nil || len(rec.Inputs.Output) != 1 {
		t.Fatalf("record %s: %v", line, err)
	}
	url, ok := strings.CutPrefix(rec.Inputs.Output[0].Value, "https://arbiter.example.org/blobs/")
	if !ok || !strings.Contains(url, "sig=") {
		t.Fatalf("media value %q is not a signed URL of the public address", rec.Inputs.Output[0].Value)
	}
	if v.MediaLinksExpireAt == nil || v.MediaLinksExpireAt.Sub(time.Now()) < 7*24*time.Hour-time.Minute {
		t.Fatalf("the release says its links expire at %v", v.MediaLinksExpireAt)
	}
	resp, err := http.Get(e.srv.URL + "/blobs/" + url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != string(pngBytes) {
		t.Fatalf("the signed URL in the release: %d, %d bytes", resp.StatusCode, len(b))
	}

	bare := newEnv(t, testenv.SQLite, func(o *options) { o.jobs = true })
	lead, pid, _ = ratedProject(t, bare, 1)
	status, body := lead.do("POST", "/api/v1/projects/"+pid+"/releases", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"media": "reference"}})
	if status != 422 || fieldError(t, body, "options.media") != "no_public_url" {
		t.Fatalf("a release of host-less links: %d %s", status, body)
	}
}

// downBlobs is a blob store that can be switched off: reads and writes fail.
type downBlobs struct {
	blob.Store
	down atomic.Bool
}

var errDown = errors.New("dial tcp: connection refused")

func (b *downBlobs) Put(ctx context.Context, key string, r io.Reader, size int64, ct string) error {
	if b.down.Load() {
		return errDown
	}
	return b.Store.Put(ctx, key, r, size, ct)
}

func (b *downBlobs) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if b.down.Load() {
		return nil, errDown
	}
	return b.Store.Get(ctx, key)
}

// TestBlobStoreDownStopsOnlyReleases: with the blob store down a release fails with an error
// that says so, and annotation goes on.
func TestBlobStoreDownStopsOnlyReleases(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		blobs := &downBlobs{}
		e := newEnv(t, open, func(o *options) {
			o.jobs = true
			o.blobs = func(tb testing.TB) blob.Store { blobs.Store = testenv.LocalBlobs(tb); return blobs }
		})
		lead, pid, _ := ratedProject(t, e, 2)
		ann := e.newUser("ann@example.org", false)
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items",
			`{"external_id":"open-1","inputs":{"prompt":"a pear","output":[{"id":"o1","type":"text","value":"a pear"}]}}`)
		blobs.down.Store(true)
		v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}}))
		if v.Status != "failed" || v.Error == nil || !strings.Contains(*v.Error, "blob store") {
			t.Fatalf("release with the blob store down: %+v", v)
		}
		c := ann.next(pid, "label")
		if c == nil {
			t.Fatal("no label work while the blob store is down")
		}
		if st := ann.submitOK(c.Assignment.ID, map[string]any{"answers": answers("quality", 4)}); st != "done" {
			t.Fatalf("the label left the item in %s", st)
		}
		blobs.down.Store(false)
		if again := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}})); again.Status != "done" || again.Manifest.Records.Total != 3 {
			t.Fatalf("a new release once the blob store is back: %+v", again)
		}
	})
}

// TestArchiveStopsVisibly: if a file cannot be read while the archive streams, the download
// fails instead of ending as a short zip.
func TestArchiveStopsVisibly(t *testing.T) {
	blobs := &downBlobs{}
	e := newEnv(t, testenv.SQLite, func(o *options) {
		o.jobs = true
		o.blobs = func(tb testing.TB) blob.Store { blobs.Store = testenv.LocalBlobs(tb); return blobs }
	})
	lead, pid, _ := ratedProject(t, e, 3)
	v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl", "csv"}}))
	blobs.down.Store(true)
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/projects/"+pid+"/releases/"+v.ID+"/archive", nil)
	req.Header.Set("Authorization", "Bearer "+lead.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return // the connection closed before the headers: a visible failure too
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Fatalf("the archive of unreadable files downloaded without an error (%d)", resp.StatusCode)
	}
}

// TestReleaseLinks: a browser downloads a release through signed links without a token; a
// link whose signature was tampered with is refused, and so are the links of a viewer who
// was removed from the project.
func TestReleaseLinks(t *testing.T) {
	for _, bb := range testenv.BlobBackends() {
		t.Run(bb.Name, func(t *testing.T) {
			e := newEnv(t, testenv.SQLite, func(o *options) { o.jobs = true; o.blobs = bb.Open })
			lead, pid, _ := ratedProject(t, e, 5)
			v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl", "csv"}}))
			var links struct {
				Archive string
				Files   []struct{ Path, URL, SHA256 string }
			}
			lead.must("GET", "/api/v1/projects/"+pid+"/releases/"+v.ID+"/links", nil, 200, &links)
			if len(links.Files) != len(v.Manifest.Files)+1 {
				t.Fatalf("%d links for %d files and the manifest", len(links.Files), len(v.Manifest.Files))
			}
			anon := e.anon()
			for _, f := range links.Files {
				url := f.URL
				if strings.HasPrefix(url, "/") {
					url = e.srv.URL + url
				}
				resp, err := http.Get(url)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				sum := sha256.Sum256(b)
				if resp.StatusCode != 200 || hex.EncodeToString(sum[:]) != f.SHA256 {
					t.Fatalf("%s through its link: %d, sha256 %x, want %s", f.Path, resp.StatusCode, sum, f.SHA256)
				}
			}
			archive := strings.TrimPrefix(links.Archive, e.cfg.PublicURL)
			status, zipped := anon.get(archive)
			if status != 200 || len(unzip(t, zipped)) != len(links.Files) {
				t.Fatalf("the archive through its link: %d", status)
			}
			tampered := strings.Replace(archive, "sig=", "sig=0", 1)
			if status, body := anon.do("GET", tampered, nil); status != 403 || errorCode(t, body) != "forbidden" {
				t.Fatalf("a tampered archive link: %d %s", status, body)
			}
			// a viewer's links end with the membership, long before they expire
			viewer := e.newUser("viewer@example.org", false)
			lead.member(pid, viewer, "viewer")
			viewer.must("GET", "/api/v1/projects/"+pid+"/releases/"+v.ID+"/links", nil, 200, &links)
			theirs := []string{strings.TrimPrefix(links.Archive, e.cfg.PublicURL), links.Files[0].URL}
			for _, l := range theirs {
				if status, _ := anon.get(l); status != 200 {
					t.Fatalf("a viewer's link %s: %d", l, status)
				}
			}
			lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+viewer.user.ID, map[string]any{"roles": []string{}}, 200, nil)
			for _, l := range theirs {
				if status, body := anon.do("GET", l, nil); status != 403 || errorCode(t, body) != "forbidden" {
					t.Fatalf("the link %s of a removed viewer: %d %s", l, status, body)
				}
			}
		})
	}
}
