package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync/atomic"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Import kinds.
const (
	ImportItemsKind       = "items"
	ImportPredictionsKind = "predictions"
)

// RunImport works one background import: it reads the uploaded file from the blob store,
// imports it and records progress after every batch. Finished imports are left alone, so a
// retried job does no harm.
func (s *Service) RunImport(ctx context.Context, blobs blob.Store, id string) error {
	im, err := s.store.Import(ctx, "", id)
	if err != nil {
		return err
	}
	if im.Status == store.ImportDone || im.Status == store.ImportFailed {
		return nil
	}
	im.Status = store.ImportRunning
	if err := s.store.UpdateImport(ctx, im); err != nil {
		return err
	}
	rep, err := s.runImport(ctx, blobs, im)
	if err != nil {
		msg := err.Error()
		im.Status, im.Error = store.ImportFailed, &msg
		return errors.Join(err, s.store.UpdateImport(context.WithoutCancel(ctx), im))
	}
	b, _ := json.Marshal(rep)
	im.Status, im.Report, im.BytesDone, im.LinesDone = store.ImportDone, b, im.BytesTotal, int64(rep.Lines)
	if err := s.store.UpdateImport(ctx, im); err != nil {
		return err
	}
	return blobs.Delete(ctx, im.BlobKey)
}

func (s *Service) runImport(ctx context.Context, blobs blob.Store, im *store.Import) (*ImportReport, error) {
	p, err := s.store.Project(ctx, im.ProjectID)
	if err != nil {
		return nil, err
	}
	fp, err := s.LoadProject(ctx, p, 0)
	if err != nil {
		return nil, err
	}
	r, err := blobs.Get(ctx, im.BlobKey)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var read atomic.Int64
	body := &countingReader{r: r, n: &read}
	progress := func(lines int) {
		im.LinesDone, im.BytesDone = int64(lines), read.Load()
		s.store.UpdateImport(ctx, im) // note: progress is best effort; the report is what counts
	}
	return s.Import(ctx, fp, im.Kind, im.CreatedBy, body, progress)
}

// Import reads an NDJSON file of the given kind: items or model predictions.
func (s *Service) Import(ctx context.Context, p *Project, kind, actorID string, r io.Reader, progress func(int)) (*ImportReport, error) {
	if kind == ImportPredictionsKind {
		return s.ImportPredictions(ctx, p, actorID, r, progress)
	}
	return s.ImportItems(ctx, p, actorID, r, progress)
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
