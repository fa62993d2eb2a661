// Package projects is the lead's side of a project: creating and changing it (template,
// schema versions, policy), members with their roles, languages and pauses, invitations, the
// set-up and feasibility checks, stuck work and handing it to a named person, archiving and
// deleting, and the lead's views of items, stats and the audit trail.
package projects

import (
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// Service manages projects and their members.
type Service struct {
	store *store.Store
	wf    *workflow.Service
	blobs blob.Store
	now   func() time.Time
}

// New returns the projects service; blobs may be nil where nothing is deleted.
func New(st *store.Store, wf *workflow.Service, blobs blob.Store) *Service {
	return &Service{store: st, wf: wf, blobs: blobs, now: wf.Now}
}
