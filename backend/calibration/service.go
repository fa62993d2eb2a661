// Package calibration runs calibration rounds: the pool of calibration items with their gold
// answers, rounds of fixed items and participants, closing (frozen work, pass rules,
// qualification), feedback notes, a participant's own results and the round report.
package calibration

import (
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// Service runs a project's calibration rounds.
type Service struct {
	store *store.Store
	wf    *workflow.Service
	now   func() time.Time
}

// New returns the calibration service.
func New(st *store.Store, wf *workflow.Service) *Service {
	return &Service{store: st, wf: wf, now: wf.Now}
}
