package workflow

import (
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ClaimView is a claimed piece of work as its person receives it: the assignment and what they
// may see. Nothing here tells whether the item is gold, which calibration round it serves or
// how its candidates were shuffled.
type ClaimView struct {
	Assignment ClaimedAssignment `json:"assignment"`
	Item       tasks.View        `json:"item"`
	Draft      tasks.Answers     `json:"draft"`
	Context    map[string]any    `json:"context"`
}

// ClaimedAssignment is the claimed assignment: what the person needs to save, renew and
// submit it. Never its seed, shuffle, submit key, round or gold score.
type ClaimedAssignment struct {
	ID             string     `json:"id"`
	Stage          flow.Stage `json:"stage"`
	LeaseExpiresAt time.Time  `json:"lease_expires_at"`
	Version        int        `json:"version"`
	SchemaVersion  int        `json:"schema_version"`
	DraftSource    *string    `json:"draft_source"`
}

// ClaimViewOf is the view of a claim for the person who holds it.
func ClaimViewOf(c *Claim) ClaimView {
	a := c.Assignment
	return ClaimView{
		Assignment: ClaimedAssignment{ID: a.ID, Stage: a.Stage, LeaseExpiresAt: a.LeaseExpiresAt, Version: a.Version,
			SchemaVersion: a.SchemaVersion, DraftSource: c.DraftSource},
		Item: c.View, Draft: c.Draft, Context: c.Context,
	}
}

// SubmitView is the outcome of a submit as its person receives it.
type SubmitView struct {
	Assignment SubmittedAssignment `json:"assignment"`
	ItemStage  flow.Stage          `json:"item_stage"`
	Replayed   bool                `json:"replayed"`
	// NextPass is set when a pass other than the last was submitted: the same assignment is
	// open in that pass, and the next claim returns it with that pass's view.
	NextPass *tasks.PassStep `json:"next_pass,omitempty"`
}

// SubmittedAssignment is the submitted assignment: which one, and where it stands.
type SubmittedAssignment struct {
	ID          string                `json:"id"`
	Stage       flow.Stage            `json:"stage"`
	Status      flow.AssignmentStatus `json:"status"`
	SubmittedAt *time.Time            `json:"submitted_at"`
}

// SubmitViewOf is the view of a submit's result.
func SubmitViewOf(r *Result) SubmitView {
	a := r.Assignment
	return SubmitView{Assignment: SubmittedAssignment{ID: a.ID, Stage: a.Stage, Status: a.Status, SubmittedAt: a.SubmittedAt},
		ItemStage: r.ItemStage, Replayed: r.Replayed, NextPass: r.NextPass}
}
