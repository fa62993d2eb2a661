// Package imports brings a project's items and model predictions in: NDJSON lines validated
// against the schema with an error per line, media paths resolved to uploaded assets, archives
// of media and items, and large files imported in the background with progress.
package imports

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// Enqueuer queues an import's job inside the caller's transaction, so that the import's row
// and the job that works it are written together or not at all.
type Enqueuer interface {
	// EnqueueImport queues the import with the given id in the transaction tx.
	EnqueueImport(ctx context.Context, tx *store.Store, importID string) error
}

// Service imports items and predictions into projects.
type Service struct {
	store     *store.Store
	wf        *workflow.Service
	blobs     blob.Store
	media     *media.Service
	jobs      Enqueuer
	maxUpload int64
	now       func() time.Time
}

// Deps are what imports need; Blobs and Media may be nil for a service that imports lines
// without files.
type Deps struct {
	Store    *store.Store
	Workflow *workflow.Service
	Blobs    blob.Store
	Media    *media.Service
}

// New returns the import service.
func New(d Deps) *Service {
	s := &Service{store: d.Store, wf: d.Workflow, blobs: d.Blobs, media: d.Media, now: d.Workflow.Now}
	if d.Media != nil {
		s.maxUpload = d.Media.MaxUploadBytes()
	}
	return s
}

// UseJobs lets the service import in the background (the queue's workers call back into the
// service, so it is wired after both exist).
func (s *Service) UseJobs(e Enqueuer) { s.jobs = e }
