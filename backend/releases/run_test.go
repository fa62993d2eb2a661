package releases_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

func text(i int) any { return fmt.Sprintf("output %d", i) }

// TestStartQueuesRowAndJobTogether: a release row exists only with its job.
func TestStartQueuesRowAndJobTogether(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.importDone(3, text)
	f.jobs.fail = errors.New("queue unavailable")
	_, err := f.rel.Start(context.Background(), f.fp, f.user, releases.Request{Name: "v1", Formats: []string{"jsonl"}})
	if err == nil {
		t.Fatal("a release started although its job could not be queued")
	}
	if rs, _ := f.st.Releases(context.Background(), f.fp.ID, 10); len(rs) != 0 {
		t.Fatalf("a release row without its job: %+v", rs)
	}
	f.jobs.fail = nil
	id := f.start([]string{"jsonl"}, nil)
	if len(f.jobs.ids) != 1 || f.jobs.ids[0] != id || f.get(id).Status != flow.ReleaseQueued {
		t.Fatalf("queued %v, release %s %s", f.jobs.ids, id, f.get(id).Status)
	}
	noJobs := releases.New(releases.Deps{Store: f.st, Blobs: f.blobs, Flow: f.flow, Insight: insight.New(f.st, f.flow)})
	if _, err := noJobs.Start(context.Background(), f.fp, f.user, releases.Request{Name: "v1", Formats: []string{"jsonl"}}); !errors.Is(err, releases.ErrNoJobs) {
		t.Fatalf("without a job queue: %v", err)
	}
}

// TestBlobStoreFailsMidRelease: a blob store that stops taking files part way ends the release
// failed with an error that says so; no file is listed, what was written is removed, and
// running the job again changes nothing.
func TestBlobStoreFailsMidRelease(t *testing.T) {
	for _, b := range testenv.BlobBackends() {
		t.Run(b.Name, func(t *testing.T) {
			flaky := &flakyBlobs{Store: b.Open(t), limited: true}
			flaky.budget.Store(64 << 10)
			f := newFixture(t, testenv.SQLite(t), flaky)
			f.importDone(2500, text)
			id := f.start([]string{"jsonl", "csv", "hf"}, map[string]any{"split_key": "split"})
			if err := f.rel.Run(context.Background(), id); err != nil {
				t.Fatalf("Run: %v (a failed release is recorded, not retried)", err)
			}
			r := f.get(id)
			if r.Status != flow.ReleaseFailed || r.Error == nil || !strings.Contains(*r.Error, "blob store") || r.Manifest != nil {
				t.Fatalf("release after the blob store failed: %+v", r)
			}
			t.Logf("error: %s", *r.Error)
			files, err := f.st.ReleaseFiles(context.Background(), id)
			if err != nil || len(files) != 0 {
				t.Fatalf("a failed release lists files: %v %v", files, err)
			}
			if _, err := f.rel.File(context.Background(), f.fp.ID, id, "jsonl/train.jsonl"); !errors.Is(err, releases.ErrNotDone) {
				t.Fatalf("a file of a failed release: %v", err)
			}
			if len(flaky.keys) == 0 {
				t.Fatal("nothing was written before the failure; the test proves nothing")
			}
			for _, k := range flaky.keys {
				if rc, err := flaky.Store.Get(context.Background(), k); !errors.Is(err, blob.ErrNotFound) {
					if rc != nil {
						rc.Close()
					}
					t.Errorf("%s is left in the blob store: %v", k, err)
				}
			}
			if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseFailed {
				t.Fatalf("running a failed release again: %v %s", err, f.get(id).Status)
			}
		})
	}
}

// TestInterruptedReleaseFails: a job that dies part way (its server is shut down, or killed and
// the job run again) leaves the release failed, with no file listed; a new release works.
func TestInterruptedReleaseFails(t *testing.T) {
	t.Run("shutdown", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		flaky := &flakyBlobs{Store: testenv.LocalBlobs(t), limited: true, onLimit: cancel}
		flaky.budget.Store(1 << 40)
		f := newFixture(t, testenv.SQLite(t), flaky)
		f.importDone(3000, text)
		id := f.start([]string{"jsonl", "hf"}, nil)
		flaky.budget.Store(32 << 10)
		if err := f.rel.Run(ctx, id); err != nil {
			t.Fatal(err)
		}
		r := f.get(id)
		if r.Status != flow.ReleaseFailed || r.Error == nil || !strings.Contains(*r.Error, "interrupted") {
			t.Fatalf("release after a shutdown: %+v", r)
		}
		flaky.limited = false
		again := f.start([]string{"jsonl", "hf"}, nil)
		if err := f.rel.Run(context.Background(), again); err != nil || f.get(again).Status != flow.ReleaseDone {
			t.Fatalf("a new release after the interrupted one: %v %+v", err, f.get(again))
		}
	})
	t.Run("killed", func(t *testing.T) {
		f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
		f.importDone(10, text)
		id := f.start([]string{"jsonl"}, nil)
		// the first run marked it running, then its replica died; the queue runs the job again
		if ok, err := f.st.StartRelease(context.Background(), id, 10); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if err := f.rel.Run(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		r := f.get(id)
		if r.Status != flow.ReleaseFailed || r.Error == nil || !strings.Contains(*r.Error, "interrupted") {
			t.Fatalf("a release whose job died: %+v", r)
		}
		if files, _ := f.st.ReleaseFiles(context.Background(), id); len(files) != 0 {
			t.Fatalf("files listed: %v", files)
		}
	})
}

// TestDoneReleaseIsLeftAlone: running the job of a done release again changes nothing.
func TestDoneReleaseIsLeftAlone(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.importDone(20, text)
	id := f.start([]string{"jsonl"}, nil)
	if err := f.rel.Run(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	before := f.get(id)
	data := f.file(id, "jsonl/test.jsonl")
	if err := f.rel.Run(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	after := f.get(id)
	if before.Status != flow.ReleaseDone || after.UpdatedAt != before.UpdatedAt || !bytes.Equal(data, f.file(id, "jsonl/test.jsonl")) {
		t.Fatalf("a second run changed a done release: %+v -> %+v", before, after)
	}
	if before.Progress.Records != 20 || before.Progress.Total != 20 {
		t.Fatalf("progress %+v", before.Progress)
	}
}

// TestReleaseTwiceSameBytes: releasing the same project state twice with the same options
// gives the same bytes in every file but the manifest, on both engines, across several pages
// of items and parquet row groups.
func TestReleaseTwiceSameBytes(t *testing.T) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			f := newFixture(t, b.Open(t), testenv.LocalBlobs(t))
			f.importDone(2100, text)
			opts := map[string]any{"split_ratios": "train=0.7,test=0.3", "row_group_rows": 500}
			a, c := f.start([]string{"jsonl", "csv", "hf"}, opts), f.start([]string{"jsonl", "csv", "hf"}, opts)
			for _, id := range []string{a, c} {
				if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
					t.Fatalf("release %s: %v %+v", id, err, f.get(id))
				}
			}
			files, _ := f.st.ReleaseFiles(context.Background(), a)
			if len(files) < 8 {
				t.Fatalf("files %v", files)
			}
			for _, file := range files {
				if file.Path == "manifest.json" {
					continue
				}
				if !bytes.Equal(f.file(a, file.Path), f.file(c, file.Path)) {
					t.Errorf("%s differs between two releases of one project state", file.Path)
				}
			}
		})
	}
}
