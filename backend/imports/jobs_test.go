package imports_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

type failingQueue struct{}

func (failingQueue) EnqueueImport(context.Context, *store.Store, string) error {
	return errors.New("queue unavailable")
}

// TestStartImportIsAtomic shows an import row is never left queued without its job: when the
// job cannot be queued, the row is not written either.
func TestStartImportIsAtomic(t *testing.T) {
	ctx := context.Background()
	st := testenv.SQLite(t)
	blobs := testenv.LocalBlobs(t)
	fp := project(t, st)
	im := imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st}), Blobs: blobs})
	im.UseJobs(failingQueue{})
	if _, err := im.StartImport(ctx, fp, fp.CreatedBy, "items", "a.ndjson", strings.NewReader(`{"external_id":"x"}`)); err == nil {
		t.Fatal("StartImport succeeded without a job")
	}
	ims, err := im.Imports(ctx, fp.ID)
	if err != nil || len(ims) != 0 {
		t.Fatalf("imports after a failed enqueue: %v %+v", err, ims)
	}
}
