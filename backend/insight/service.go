// Package insight computes what a lead reads about a project, never changing it: agreement,
// annotator quality, balance, the dataset report, judges against people, and the criteria
// report. Heavy figures are computed by background jobs and kept until the labels change.
package insight

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// Enqueuer queues the refresh of kept figures inside the caller's transaction.
type Enqueuer interface {
	// EnqueueAgreement queues a refresh of a project's agreement figures in the transaction tx.
	EnqueueAgreement(ctx context.Context, tx *store.Store, projectID string, stage flow.Stage) error
	// EnqueueFigures queues a refresh of a project's derived figures of a kind in the transaction tx.
	EnqueueFigures(ctx context.Context, tx *store.Store, projectID string, kind flow.FiguresKind, params string) error
}

// Service answers a project's figures.
type Service struct {
	store *store.Store
	wf    *workflow.Service
	jobs  Enqueuer
	now   func() time.Time
}

// New returns the insight service.
func New(st *store.Store, wf *workflow.Service) *Service {
	return &Service{store: st, wf: wf, now: wf.Now}
}

// UseJobs lets the service compute figures in the background (the queue's workers call back
// into the service, so it is wired after both exist).
func (s *Service) UseJobs(e Enqueuer) { s.jobs = e }
