package imports

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"path"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrNoJobs refuses background work on a server that runs no job queue.
var ErrNoJobs = errors.New("background jobs are not running on this server; import without async")

// ImportStatus is a background import with the share done, for progress bars.
type ImportStatus struct {
	ID         string            `json:"id"`
	Kind       flow.ImportKind   `json:"kind"`
	Filename   string            `json:"filename"`
	Status     flow.ImportStatus `json:"status"`
	BytesTotal int64             `json:"bytes_total"`
	BytesDone  int64             `json:"bytes_done"`
	LinesDone  int64             `json:"lines_done"`
	Percent    float64           `json:"percent"`
	Report     *ImportReport     `json:"report"`
	Error      *string           `json:"error"`
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
}

// MaxUnfinished is how many background imports of one project may be queued or running at
// once.
const MaxUnfinished = 4

// StartImport stores an NDJSON file in the blob store and queues its import; the import row
// and its job are inserted in one transaction, so an import never waits for a job that does
// not exist. filename is only shown in lists. A project with MaxUnfinished background imports
// queued or running gets a flow.TooManyJobsError, before the file is read.
func (s *Service) StartImport(ctx context.Context, p *workflow.Project, actorID string, kind flow.ImportKind, filename string, r io.Reader) (*store.Import, error) {
	if s.jobs == nil {
		return nil, ErrNoJobs
	}
	if err := s.admit(ctx, s.store, p.ID); err != nil {
		return nil, err
	}
	name := path.Base(filename)
	if len(name) > 255 || name == "." || name == "/" {
		name = ""
	}
	im := &store.Import{ID: store.NewImportID(), ProjectID: p.ID, Kind: kind, Filename: name, Status: flow.ImportQueued, CreatedBy: actorID}
	im.BlobKey = "imports/" + p.ID + "/" + im.ID + ".ndjson"
	body := &blob.Counter{R: r, Limit: s.maxUpload}
	if err := s.blobs.Put(ctx, im.BlobKey, body, -1, "application/x-ndjson"); err != nil {
		s.blobs.Delete(context.WithoutCancel(ctx), im.BlobKey)
		return nil, media.TooLarge(err, s.maxUpload)
	}
	im.BytesTotal = body.N()
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if _, err := tx.ProjectForUpdate(ctx, p.ID); err != nil {
			return err
		}
		if err := s.admit(ctx, tx, p.ID); err != nil { // note: again, under the project's lock
			return err
		}
		if err := tx.CreateImport(ctx, im); err != nil {
			return err
		}
		return s.jobs.EnqueueImport(ctx, tx, im.ID)
	})
	if err != nil {
		s.blobs.Delete(context.WithoutCancel(ctx), im.BlobKey)
		return nil, err
	}
	return im, nil
}

// admit refuses a background import to a project that has MaxUnfinished queued or running.
func (s *Service) admit(ctx context.Context, st *store.Store, projectID string) error {
	n, err := st.UnfinishedImports(ctx, projectID)
	if err == nil && n >= MaxUnfinished {
		err = &flow.TooManyJobsError{Kind: "background imports", Limit: MaxUnfinished}
	}
	return err
}

// Import returns one background import of the project.
func (s *Service) Import(ctx context.Context, projectID, id string) (*store.Import, error) {
	im, err := s.store.Import(ctx, projectID, id)
	return im, store.Missing(err, "import")
}

// RunImport works one background import: it reads the uploaded file from the blob store,
// imports it and records progress after every batch. Finished imports are left alone, so a
// retried job does no harm; one found running was interrupted and starts over.
func (s *Service) RunImport(ctx context.Context, id string) error {
	im, err := s.store.Import(ctx, "", id)
	if err != nil {
		return err
	}
	if im.Status == flow.ImportDone || im.Status == flow.ImportFailed {
		return nil
	}
	im.Status = flow.ImportRunning
	if err := s.store.UpdateImport(ctx, im); err != nil {
		return err
	}
	rep, err := s.runImport(ctx, im)
	if err != nil && ctx.Err() != nil {
		// note: the job was stopped (its server shut down, or its lease was lost to another
		// replica); it runs again and starts over, and the lines stored so far come back as
		// unchanged
		return err
	}
	if err != nil {
		msg := err.Error()
		im.Status, im.Error = flow.ImportFailed, &msg
		return errors.Join(err, s.store.UpdateImport(context.WithoutCancel(ctx), im))
	}
	b, _ := json.Marshal(rep)
	im.Status, im.Report, im.BytesDone, im.LinesDone = flow.ImportDone, b, im.BytesTotal, int64(rep.Lines)
	if err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.UpdateImport(ctx, im); err != nil {
			return err
		}
		return s.wf.Webhooks().Notify(ctx, tx, webhooks.Event{Type: webhooks.ImportCompleted, ProjectID: im.ProjectID,
			Data: map[string]any{"import_id": im.ID, "lines": rep.Lines}})
	}); err != nil {
		return err
	}
	return s.blobs.Delete(ctx, im.BlobKey)
}

// errInterrupted ends an import whose job stopped part way and will not run again.
var errInterrupted = errors.New("the job working this import stopped part way, and so often that it will not run again; the lines before the stop are stored, and importing the file again completes it")

// Interrupted ends an import whose job will not run again (the queue gave up on it after its
// replica stopped) as failed, and deletes its file.
func (s *Service) Interrupted(ctx context.Context, id string) error {
	im, err := s.store.Import(ctx, "", id)
	if err != nil || im.Status == flow.ImportDone || im.Status == flow.ImportFailed {
		return err
	}
	msg := errInterrupted.Error()
	im.Status, im.Error = flow.ImportFailed, &msg
	if err := s.store.UpdateImport(ctx, im); err != nil {
		return err
	}
	return s.blobs.Delete(ctx, im.BlobKey)
}

func (s *Service) runImport(ctx context.Context, im *store.Import) (*ImportReport, error) {
	p, err := s.store.Project(ctx, im.ProjectID)
	if err != nil {
		return nil, err
	}
	fp, err := s.wf.LoadProject(ctx, p, 0)
	if err != nil {
		return nil, err
	}
	r, err := s.blobs.Get(ctx, im.BlobKey)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	body := &blob.Counter{R: r}
	progress := func(lines int) {
		im.LinesDone, im.BytesDone = int64(lines), body.N()
		s.store.UpdateImport(ctx, im) // note: progress is best effort; the report is what counts
	}
	return s.ImportFile(ctx, fp, im.Kind, im.CreatedBy, body, progress)
}

// ImportFile reads an NDJSON file of the given kind: items or model predictions.
func (s *Service) ImportFile(ctx context.Context, p *workflow.Project, kind flow.ImportKind, actorID string, r io.Reader, progress func(int)) (*ImportReport, error) {
	if kind == flow.ImportPredictions {
		return s.ImportPredictions(ctx, p, actorID, r, progress)
	}
	return s.ImportItems(ctx, p, actorID, r, progress)
}

// NextPart returns the next part of a multipart upload by its form name, and io.EOF after
// the last one.
type NextPart func() (name string, body io.Reader, err error)

// ImportArchive imports an upload of two parts: "media", a zip archive, then "items", NDJSON
// whose media paths name files of the archive. Each referenced file becomes an asset of the
// project once (by sha256); other parts are ignored.
func (s *Service) ImportArchive(ctx context.Context, p *workflow.Project, actorID string, next NextPart) (*ImportReport, error) {
	return s.importArchive(ctx, p, actorID, next, false)
}

// ImportPoolArchive is ImportArchive into the calibration pool (as ImportPool).
func (s *Service) ImportPoolArchive(ctx context.Context, p *workflow.Project, actorID string, next NextPart) (*ImportReport, error) {
	return s.importArchive(ctx, p, actorID, next, true)
}

func (s *Service) importArchive(ctx context.Context, p *workflow.Project, actorID string, next NextPart, pool bool) (*ImportReport, error) {
	var archive *media.Archive
	defer func() {
		if archive != nil {
			archive.Close()
		}
	}()
	for {
		name, body, err := next()
		if errors.Is(err, io.EOF) {
			return nil, tasks.Field("items", "required", "the form has no \"items\" part (it must come after \"media\")")
		}
		if err != nil {
			return nil, err
		}
		switch name {
		case "media":
			if archive, err = s.media.OpenArchive(body); err != nil {
				return nil, err
			}
		case "items":
			var files MediaFiles
			if archive != nil {
				files = archive.Files(p.ID, actorID)
			}
			return s.importItems(ctx, p, actorID, body, nil, files, pool)
		}
	}
}

// Imports lists a project's recent background imports.
func (s *Service) Imports(ctx context.Context, projectID string) ([]ImportStatus, error) {
	ims, err := s.store.Imports(ctx, projectID, 50)
	if err != nil {
		return nil, err
	}
	out := make([]ImportStatus, len(ims))
	for i := range ims {
		out[i] = ImportStatusOf(&ims[i])
	}
	return out, nil
}

// ImportStatusOf adds the share done to an import, for progress bars.
func ImportStatusOf(im *store.Import) ImportStatus {
	pct := 0.0
	if im.BytesTotal > 0 {
		pct = 100 * float64(im.BytesDone) / float64(im.BytesTotal)
	}
	if im.Status == flow.ImportDone {
		pct = 100
	}
	var rep *ImportReport
	if len(im.Report) > 0 {
		rep = &ImportReport{}
		if err := json.Unmarshal(im.Report, rep); err != nil {
			rep = nil
		}
	}
	return ImportStatus{ID: im.ID, Kind: im.Kind, Filename: im.Filename, Status: im.Status, BytesTotal: im.BytesTotal,
		BytesDone: im.BytesDone, LinesDone: im.LinesDone, Percent: pct, Report: rep, Error: im.Error,
		CreatedAt: im.CreatedAt, UpdatedAt: im.UpdatedAt}
}
