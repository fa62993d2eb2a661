package imports_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

type failingQueue struct{}

func (failingQueue) EnqueueImport(context.Context, *store.Store, string) error {
	return errors.New("queue unavailable")
}

// recordingQueue records the imports queued; the tests run them.
type recordingQueue struct {
	mu  sync.Mutex
	ids []string
}

func (q *recordingQueue) EnqueueImport(_ context.Context, tx *store.Store, id string) error {
	if _, ok := tx.SQLTx(); !ok {
		return errors.New("enqueued outside a transaction")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ids = append(q.ids, id)
	return nil
}

// TestStartImportIsAtomic shows an import row is never left queued without its job: when the
// job cannot be queued, the row is not written either.
func TestStartImportIsAtomic(t *testing.T) {
	ctx := context.Background()
	st := testenv.SQLite(t)
	blobs := testenv.LocalBlobs(t)
	fp := project(t, st)
	im := imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st}), Blobs: blobs})
	if _, err := im.StartImport(ctx, fp, fp.CreatedBy, "items", "a.ndjson", strings.NewReader(`{"external_id":"x"}`)); !errors.Is(err, imports.ErrNoJobs) {
		t.Fatalf("StartImport without a job queue: %v", err)
	}
	im.UseJobs(failingQueue{})
	if _, err := im.StartImport(ctx, fp, fp.CreatedBy, "items", "a.ndjson", strings.NewReader(`{"external_id":"x"}`)); err == nil {
		t.Fatal("StartImport succeeded without a job")
	}
	ims, err := im.Imports(ctx, fp.ID)
	if err != nil || len(ims) != 0 {
		t.Fatalf("imports after a failed enqueue: %v %+v", err, ims)
	}
}

// TestBackgroundImport: a started import is queued with its file in the blob store; its job
// imports the file, records the report and removes the file, and running it again does
// nothing. A job whose file is gone ends the import failed with the error.
func TestBackgroundImport(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			q := &recordingQueue{}
			f.im.UseJobs(q)
			body := ndjson(`{"external_id":"a","inputs":{"prompt":"p","photo":"a.png"}}`, `{"external_id":"b", broken`,
				`{"external_id":"c","inputs":{"prompt":"p"}}`)
			size := int64(body.Len())
			im, err := f.im.StartImport(f.ctx, p, f.lead.ID, flow.ImportItems, "../uploads/batch-1.ndjson", body)
			if err != nil {
				t.Fatal(err)
			}
			if im.Status != flow.ImportQueued || im.Filename != "batch-1.ndjson" || im.BytesTotal != size || len(q.ids) != 1 || q.ids[0] != im.ID {
				t.Fatalf("started %+v, queued %v", im, q.ids)
			}
			if err := f.im.RunImport(f.ctx, im.ID); err != nil {
				t.Fatal(err)
			}
			done, err := f.im.Import(f.ctx, p.ID, im.ID)
			if err != nil || done.Status != flow.ImportDone || done.LinesDone != 3 || done.BytesDone != size || done.Error != nil {
				t.Fatalf("after its job: %v %+v", err, done)
			}
			if rc, err := f.blobs.Get(f.ctx, im.BlobKey); !errors.Is(err, blob.ErrNotFound) {
				if rc != nil {
					rc.Close()
				}
				t.Fatalf("the uploaded file is left: %v", err)
			}
			list, err := f.im.Imports(f.ctx, p.ID)
			if err != nil || len(list) != 1 || list[0].Percent != 100 || list[0].Report == nil || list[0].Report.Imported != 2 ||
				len(list[0].Report.Errors) != 1 || list[0].Report.Errors[0].Line != 2 {
				t.Fatalf("imports listed: %v %+v", err, list)
			}
			if err := f.im.RunImport(f.ctx, im.ID); err != nil {
				t.Fatalf("a done import run again: %v", err)
			}
			if again, _ := f.im.Import(f.ctx, p.ID, im.ID); !again.UpdatedAt.Equal(done.UpdatedAt) {
				t.Fatal("a done import changed when its job ran again")
			}
			if _, err := f.im.Import(f.ctx, f.photos(workflow.Policy{}).ID, im.ID); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("another project's import: %v", err)
			}

			lost, err := f.im.StartImport(f.ctx, p, f.lead.ID, flow.ImportItems, "", ndjson(`{"external_id":"d"}`))
			if err != nil || lost.Filename != "" {
				t.Fatalf("second import: %v %+v", err, lost)
			}
			if err := f.blobs.Delete(f.ctx, lost.BlobKey); err != nil {
				t.Fatal(err)
			}
			if err := f.im.RunImport(f.ctx, lost.ID); err == nil {
				t.Fatal("an import without its file ran")
			}
			failed, _ := f.im.Import(f.ctx, p.ID, lost.ID)
			if failed.Status != flow.ImportFailed || failed.Error == nil || *failed.Error == "" {
				t.Fatalf("an import without its file: %+v", failed)
			}
			if err := f.im.RunImport(f.ctx, lost.ID); err != nil {
				t.Fatalf("a failed import run again: %v", err)
			}
			if err := f.im.RunImport(f.ctx, "no-such-import"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("an unknown import: %v", err)
			}
		})
	}
}

// TestBackgroundPredictions: a predictions file imported in the background attaches to the
// items as a direct import does.
func TestBackgroundPredictions(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.photos(workflow.Policy{})
	f.importItems(p, `{"external_id":"a","inputs":{"prompt":"p","photo":"a.png"}}`)
	f.im.UseJobs(&recordingQueue{})
	im, err := f.im.StartImport(f.ctx, p, f.lead.ID, flow.ImportPredictions, "preds.ndjson",
		ndjson(`{"external_id":"a","model":"m1","answers":{"sharp":"yes"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.im.RunImport(f.ctx, im.ID); err != nil {
		t.Fatal(err)
	}
	f.predictions(f.item(p, "a").ID, map[string]string{"m1": `"yes"`})
}

// TestStartImportTooLarge: a file over the upload limit is refused with the limit, and
// neither its row nor its bytes are kept.
func TestStartImportTooLarge(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.photos(workflow.Policy{})
	f.im.UseJobs(&recordingQueue{})
	_, err := f.im.StartImport(f.ctx, p, f.lead.ID, flow.ImportItems, "big.ndjson", bytes.NewReader(make([]byte, 2<<20)))
	var tl *blob.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != f.media.MaxUploadBytes() {
		t.Fatalf("a file over the limit: %v", err)
	}
	if ims, _ := f.im.Imports(f.ctx, p.ID); len(ims) != 0 {
		t.Fatalf("imports %+v", ims)
	}
}

// TestImportStatusOf: the share done, for progress bars, is by bytes read, and 100 once done;
// a report that cannot be read is left out.
func TestImportStatusOf(t *testing.T) {
	tests := []struct {
		name    string
		im      store.Import
		percent float64
		report  bool
	}{
		{"queued, nothing read", store.Import{Status: flow.ImportQueued, BytesTotal: 0}, 0, false},
		{"running, a quarter read", store.Import{Status: flow.ImportRunning, BytesTotal: 400, BytesDone: 100}, 25, false},
		{"done", store.Import{Status: flow.ImportDone, BytesTotal: 400, BytesDone: 10, Report: store.JSON(`{"lines":3,"imported":2}`)}, 100, true},
		{"a broken report", store.Import{Status: flow.ImportDone, BytesTotal: 1, Report: store.JSON(`{"lines":`)}, 100, false},
	}
	for _, tc := range tests {
		s := imports.ImportStatusOf(&tc.im)
		if s.Percent != tc.percent || (s.Report != nil) != tc.report || (tc.report && s.Report.Imported != 2) {
			t.Errorf("%s: %+v", tc.name, s)
		}
	}
}
