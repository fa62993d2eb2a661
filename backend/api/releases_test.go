package api_test

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// releaseProject is a D3-Omni T2I project with two labels per item whose samples are labeled
// through the queue: every item agrees except the first, which is dropped. The last sample
// has no "split" in its metadata.
func releaseProject(t *testing.T, e *env) (lead, viewer, ann *client, pid string, tpl tasks.Template) {
	t.Helper()
	lead = e.newUser("lead@example.org", false)
	viewer = e.newUser("viewer@example.org", false)
	anns := []*client{e.newUser("ann1@example.org", false), e.newUser("ann2@example.org", false)}
	tpl, _ = tasks.LookupTemplate("d3omni-t2i")
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "D3 release", "template": "d3omni-t2i",
		"workflow": map[string]any{"overlap": 2, "adjudication": "never", "on_no_consensus": "drop"}}, 201, &p)
	for _, a := range anns {
		lead.member(p.ID, a, "annotator")
	}
	lead.member(p.ID, viewer, "viewer")
	last := len(tpl.Samples) - 1
	lines := sampleLines(t, tpl, func(i int) map[string]any {
		if i == last {
			return map[string]any{"task": "t2i"}
		}
		return map[string]any{"split": "test", "task": "t2i"}
	})
	lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...)
	return lead, viewer, anns[0], p.ID, tpl
}

// labelReleaseProject labels every item; the first sample's second label disagrees.
func labelReleaseProject(t *testing.T, e *env, pid string, tpl tasks.Template, anns []*client) {
	t.Helper()
	base := tpl.Schema.ExampleAnswers()
	first := tpl.Samples[0].ExternalID
	labelAll(t, e, pid, &tpl.Schema, anns, func(ext string, n int) tasks.Answers {
		a := merge(base, nil)
		if ext == first && n == 1 {
			q := tpl.Schema.Questions[0].Key
			if string(a[q]) == `"yes"` {
				a[q] = []byte(`"no"`)
			} else {
				a[q] = []byte(`"yes"`)
			}
		}
		return a
	})
}

// TestReleaseRequestChecks: every problem a request can be found to have before its job runs
// is a 422 naming the field, and only leads start releases.
func TestReleaseRequestChecks(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, viewer, ann, pid, tpl := releaseProject(t, e)
		path := "/api/v1/projects/" + pid + "/releases"
		status, body := lead.do("POST", path, map[string]any{"name": "v1", "formats": []string{"jsonl"}})
		if status != 422 || fieldError(t, body, "project") != "nothing_done" {
			t.Fatalf("a release of a project with nothing done: %d %s", status, body)
		}
		ann2 := e.newUser("ann2b@example.org", false)
		lead.member(pid, ann2, "annotator")
		labelReleaseProject(t, e, pid, tpl, []*client{ann, ann2})
		cases := []struct {
			name  string
			body  map[string]any
			field string
			code  string
		}{
			{"no name", map[string]any{"name": " ", "formats": []string{"jsonl"}}, "name", "required"},
			{"no formats", map[string]any{"name": "v1", "formats": []string{}}, "formats", "required"},
			{"unknown format", map[string]any{"name": "v1", "formats": []string{"jsonl", "xlsx"}}, "formats[1]", "unknown_format"},
			{"format of another schema", map[string]any{"name": "v1", "formats": []string{"robojudge"}}, "formats[0]", "format_not_applicable"},
			{"unknown option", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"colour": "red"}}, "options.colour", "unknown_option"},
			{"option of another format", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"ties": false}}, "options.ties", "option_not_applicable"},
			{"bad value", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"raw": "sometimes"}}, "options.raw", "invalid_value"},
			{"split key missing on an item", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"split_key": "split"}}, "options.split_key", "missing_split_key"},
			{"cluster key missing", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"split_ratios": "train=0.5,test=0.5", "cluster_key": "clip"}}, "options.cluster_key", "missing_split_key"},
			{"filter keeps nothing", map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"filter.task": "t2v"}}, "options.filter.task", "no_match"},
		}
		for _, tc := range cases {
			status, body := lead.do("POST", path, tc.body)
			if status != 422 {
				t.Fatalf("%s: %d %s", tc.name, status, body)
			}
			if got := fieldError(t, body, tc.field); got != tc.code {
				t.Errorf("%s: %s has code %q, want %q: %s", tc.name, tc.field, got, tc.code, body)
			}
		}
		// a filter that leaves out the item without a split makes the split key usable
		ok := map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"split_key": "split", "filter.split": "test"}}
		if status, body := lead.do("POST", path, ok); status != 202 {
			t.Fatalf("split key with a filter keeping only items that have it: %d %s", status, body)
		}
		if status, _ := viewer.do("POST", path, ok); status != 403 {
			t.Fatalf("a viewer started a release: %d", status)
		}
		if status, _ := ann.do("GET", path, nil); status != 403 {
			t.Fatalf("an annotator listed releases: %d", status)
		}
		if status, _ := viewer.do("GET", path, nil); status != 200 {
			t.Fatalf("a viewer cannot list releases: %d", status)
		}
		if status, body := lead.do("POST", path, `{"name":"v1","formats":["jsonl"]}`, "Content-Type", "text/plain"); status != 415 {
			t.Fatalf("a text body: %d %s", status, body)
		}
		var n int64
		rs, _ := e.store.Releases(context.Background(), pid, 100)
		n = int64(len(rs))
		if n != 1 {
			t.Fatalf("%d releases stored, want only the one accepted", n)
		}
	})
}

// TestReleaseRoundTrip releases a labeled project, downloads every file and the archive and
// checks them against the manifest, then releases the same state again and expects the same
// bytes in every file but the manifest (which carries the release's own time).
func TestReleaseRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, viewer, ann, pid, tpl := releaseProject(t, e)
		ann2 := e.newUser("ann2b@example.org", false)
		lead.member(pid, ann2, "annotator")
		labelReleaseProject(t, e, pid, tpl, []*client{ann, ann2})
		req := map[string]any{"name": "v1", "formats": []string{"jsonl", "csv", "hf", "d3omni"},
			"options": map[string]any{"raw": true, "include_dropped": true}}
		first := lead.waitRelease(pid, lead.startRelease(pid, req))
		if first.Status != "done" || first.Manifest == nil {
			t.Fatalf("release: %+v", first)
		}
		n := int64(len(tpl.Samples))
		if first.Progress.Records != n || first.Progress.Total != n || first.Manifest.Records.Total != n {
			t.Fatalf("progress %+v, %d records; want all %d items", first.Progress, first.Manifest.Records.Total, n)
		}
		files := viewer.releaseFiles(pid, first)
		for _, want := range []string{"jsonl/test.jsonl", "csv/test.csv", "data/test-00000-of-00001.parquet", "README.md", "agreement.json"} {
			if _, ok := files[want]; !ok {
				t.Errorf("the release lacks %s (has %v)", want, keys(files))
			}
		}
		jsonl := string(files["jsonl/test.jsonl"])
		for _, secret := range []string{ann.user.ID, ann2.user.ID, "ann1@example.org"} {
			if strings.Contains(jsonl, secret) {
				t.Fatalf("the release names an annotator (%s)", secret)
			}
		}
		if !strings.Contains(jsonl, `"status":"dropped"`) || !strings.Contains(jsonl, "anon-") {
			t.Fatalf("the dropped item or the pseudonymised labels are missing:\n%s", jsonl)
		}
		status, zipped := viewer.get("/api/v1/projects/" + pid + "/releases/" + first.ID + "/archive")
		if status != 200 {
			t.Fatalf("archive: %d", status)
		}
		inZip := unzip(t, zipped)
		if len(inZip) != len(files) {
			t.Fatalf("the archive has %d files, the release %d", len(inZip), len(files))
		}
		for name, b := range inZip {
			_, rel, _ := strings.Cut(name, "/")
			if !bytes.Equal(b, files[rel]) {
				t.Errorf("archive file %s differs from the served file %q", name, rel)
			}
		}
		if status, _ := viewer.get("/api/v1/projects/" + pid + "/releases/" + first.ID + "/files/jsonl/../README.md"); status == 200 {
			t.Fatal("a path outside the listed files was served")
		}
		if status, _ := viewer.get("/api/v1/projects/" + pid + "/releases/" + first.ID + "/files/nope.txt"); status != 404 {
			t.Fatalf("an unlisted file: %d", status)
		}

		second := lead.waitRelease(pid, lead.startRelease(pid, req))
		again := lead.releaseFiles(pid, second)
		for p, b := range files {
			if p != "manifest.json" && !bytes.Equal(b, again[p]) {
				t.Errorf("%s differs between two releases of the same project state", p)
			}
		}
		var list struct{ Items []releaseView }
		lead.must("GET", "/api/v1/projects/"+pid+"/releases", nil, 200, &list)
		if len(list.Items) != 2 || list.Items[0].ID != second.ID || list.Items[1].Summary == nil || list.Items[1].Manifest != nil {
			t.Fatalf("release list: %+v", list.Items)
		}
	})
}

// TestReleaseNotDoneServesNothing: a queued or failed release has no files and no archive.
func TestReleaseNotDoneServesNothing(t *testing.T) {
	e := newEnv(t, testenvSQLite)
	lead := e.newUser("lead@example.org", false)
	pid := lead.createProject("p")
	for _, st := range []flow.ReleaseStatus{flow.ReleaseQueued, flow.ReleaseFailed} {
		r := &store.Release{ProjectID: pid, Name: "x", SchemaVersion: 1, Formats: store.JSON(`["jsonl"]`), Options: store.JSON(`{}`),
			Status: st, CreatedBy: lead.user.ID}
		if err := e.store.CreateRelease(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/files/manifest.json", "/archive"} {
			status, body := lead.do("GET", "/api/v1/projects/"+pid+"/releases/"+r.ID+p, nil)
			if status != http.StatusConflict || errorCode(t, body) != "release_not_done" {
				t.Fatalf("%s release %s: %d %s", st, p, status, body)
			}
		}
	}
	if status, _ := lead.do("GET", "/api/v1/projects/"+pid+"/releases/nope", nil); status != 404 {
		t.Fatalf("unknown release: %d", status)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
