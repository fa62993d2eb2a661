package api_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// releaseView is the body of GET /releases/:rid.
type releaseView struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Progress struct {
		Records int64 `json:"records"`
		Total   int64 `json:"total"`
	} `json:"progress"`
	Error              *string    `json:"error"`
	MediaLinksExpireAt *time.Time `json:"media_links_expire_at"`
	Summary            *struct{ Records, Bytes int64 }
	Manifest           *struct {
		Records struct {
			Total   int64            `json:"total"`
			BySplit map[string]int64 `json:"by_split"`
		} `json:"records"`
		Files []struct {
			Path, Format, SHA256 string
			Bytes, Records       int64
		} `json:"files"`
	} `json:"manifest"`
}

// startRelease asks for a release and returns its id.
func (c *client) startRelease(pid string, body any) string {
	c.e.t.Helper()
	status, b := c.do("POST", "/api/v1/projects/"+pid+"/releases", body)
	if status != http.StatusAccepted {
		c.e.t.Fatalf("start release: %d %s", status, b)
	}
	var v releaseView
	json.Unmarshal(b, &v)
	if v.Status != "queued" || v.ID == "" {
		c.e.t.Fatalf("start release: %s", b)
	}
	return v.ID
}

// waitRelease polls a release until it is done or failed.
func (c *client) waitRelease(pid, rid string) releaseView {
	c.e.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var v releaseView
		c.must("GET", "/api/v1/projects/"+pid+"/releases/"+rid, nil, 200, &v)
		if v.Status == "done" || v.Status == "failed" {
			return v
		}
		if time.Now().After(deadline) {
			c.e.t.Fatalf("release %s still %s after 2 minutes", rid, v.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// releaseFiles downloads every file a done release's manifest lists, and manifest.json,
// checking each against the manifest's size and sha256.
func (c *client) releaseFiles(pid string, v releaseView) map[string][]byte {
	c.e.t.Helper()
	out := map[string][]byte{}
	base := "/api/v1/projects/" + pid + "/releases/" + v.ID + "/files/"
	for _, f := range v.Manifest.Files {
		status, b := c.get(base + f.Path)
		if status != 200 {
			c.e.t.Fatalf("GET %s: %d %s", f.Path, status, b)
		}
		sum := sha256.Sum256(b)
		if int64(len(b)) != f.Bytes || hex.EncodeToString(sum[:]) != f.SHA256 {
			c.e.t.Fatalf("%s: %d bytes sha256 %x, manifest says %d bytes %s", f.Path, len(b), sum, f.Bytes, f.SHA256)
		}
		out[f.Path] = b
	}
	status, b := c.get(base + "manifest.json")
	if status != 200 {
		c.e.t.Fatalf("GET manifest.json: %d %s", status, b)
	}
	out["manifest.json"] = b
	return out
}

// get fetches a path following redirects (a signed S3 URL), without the contract check of do:
// release files are not JSON API responses.
func (c *client) get(path string) (int, []byte) {
	c.e.t.Helper()
	req, _ := http.NewRequest("GET", c.e.srv.URL+path, nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := downloadClient.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.e.t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode, b
}

// downloadClient follows redirects to signed URLs without the bearer token, as the CLI does:
// an object store refuses a request that carries both.
var downloadClient = &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
	if req.URL.Host != via[0].URL.Host {
		req.Header.Del("Authorization")
	}
	return nil
}}

// unzip reads an archive into its files by name.
func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("the archive is not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = data
	}
	return out
}

// sampleLines are a template's sample items as import lines, with extra metadata merged in.
func sampleLines(t *testing.T, tpl tasks.Template, extraMeta func(i int) map[string]any) []string {
	t.Helper()
	var lines []string
	for i, s := range tpl.Samples {
		meta := map[string]any{}
		for k, v := range s.Meta {
			var x any
			json.Unmarshal(v, &x)
			meta[k] = x
		}
		if extraMeta != nil {
			for k, v := range extraMeta(i) {
				meta[k] = v
			}
		}
		line, err := json.Marshal(map[string]any{"external_id": s.ExternalID, "inputs": s.Inputs, "meta": meta})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(line))
	}
	return lines
}

// labelAll has the annotators claim and submit label work until none is left; answer gives
// the canonical answers of the n-th label of an item (by external id).
func labelAll(t *testing.T, e *env, pid string, schema *tasks.Schema, anns []*client, answer func(ext string, n int) tasks.Answers) int {
	t.Helper()
	given := map[string]int{}
	submitted := 0
	for progress := true; progress; {
		progress = false
		for _, a := range anns {
			c := a.next(pid, "label")
			if c == nil {
				continue
			}
			as, err := e.store.Assignment(t.Context(), c.Assignment.ID)
			if err != nil {
				t.Fatal(err)
			}
			item, err := e.store.Item(t.Context(), pid, as.ItemID)
			if err != nil {
				t.Fatal(err)
			}
			ans := answer(item.ExternalID, given[item.ExternalID])
			given[item.ExternalID]++
			a.submitOK(c.Assignment.ID, map[string]any{"answers": shown(t, e, schema, c.Assignment.ID, ans)})
			submitted++
			progress = true
		}
	}
	return submitted
}

// fieldError returns the code of one field of a validation_failed body.
func fieldError(t *testing.T, body []byte, field string) string {
	t.Helper()
	var v struct {
		Error struct {
			Code    string                       `json:"code"`
			Details map[string]map[string]string `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Error.Code != "validation_failed" {
		t.Fatalf("not validation_failed: %s", body)
	}
	fe, ok := v.Error.Details[field]
	if !ok {
		keys := []string{}
		for k := range v.Error.Details {
			keys = append(keys, k)
		}
		t.Fatalf("no error on %s (errors on %s): %s", field, strings.Join(keys, ", "), body)
	}
	return fe["code"]
}

// compareRelease compares release files with the expected files under dir, as JSON values
// (.json) or one JSON value per line (.jsonl). An expected string "~glob:PATTERN" matches any
// string path.Match accepts, for ids the server makes up.
func compareRelease(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, ok := files[rel]
		if !ok {
			t.Errorf("the release has no %s (it has %v)", rel, keys(files))
			return nil
		}
		n++
		wantVals, gotVals := [][]byte{want}, [][]byte{got}
		if strings.HasSuffix(rel, ".jsonl") {
			wantVals, gotVals = nonEmptyLines(want), nonEmptyLines(got)
		}
		if len(wantVals) != len(gotVals) {
			t.Errorf("%s: %d records, want %d:\n%s", rel, len(gotVals), len(wantVals), got)
			return nil
		}
		for i := range wantVals {
			var w, g any
			if err := json.Unmarshal(wantVals[i], &w); err != nil {
				return fmt.Errorf("%s: expected record %d: %w", p, i+1, err)
			}
			if err := json.Unmarshal(gotVals[i], &g); err != nil {
				t.Errorf("%s record %d is not JSON: %v", rel, i+1, err)
				continue
			}
			if where := jsonDiff(w, g, ""); where != "" {
				t.Errorf("%s record %d differs at %s:\n got  %s\n want %s", rel, i+1, where, gotVals[i], wantVals[i])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no expected files under %s", dir)
	}
}

func nonEmptyLines(b []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// jsonDiff returns where got differs from want ("" when it matches).
func jsonDiff(want, got any, at string) string {
	switch w := want.(type) {
	case string:
		if pattern, ok := strings.CutPrefix(w, "~glob:"); ok {
			if s, isStr := got.(string); isStr {
				if m, _ := path.Match(pattern, s); m {
					return ""
				}
			}
			return at + " (pattern " + pattern + ")"
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return at + " (keys)"
		}
		for k, v := range w {
			if _, ok := g[k]; !ok {
				return at + "." + k + " (missing)"
			}
			if d := jsonDiff(v, g[k], at+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return at + " (length)"
		}
		for i := range w {
			if d := jsonDiff(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return at
	}
	return ""
}
