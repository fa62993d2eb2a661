package workflow_test

import (
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestSetQualified changes a member's qualification with an audit event saying why; an
// unchanged one writes nothing, and a non-member is not found.
func TestSetQualified(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		ann := f.member(p, store.RoleAnnotator)
		count := func(action string) int {
			evs, _ := f.st.AuditEvents(f.ctx, p.ID, 100)
			n := 0
			for _, e := range evs {
				if e.Action == action {
					n++
				}
			}
			return n
		}
		for _, step := range []struct {
			qualified bool
			action    string
			events    int
		}{
			{true, "member.qualify", 1},
			{true, "member.qualify", 1},
			{false, "member.disqualify", 1},
		} {
			err := f.st.WithTx(f.ctx, func(tx *store.Store) error {
				return workflow.SetQualified(f.ctx, tx, p.ID, f.lead.ID, ann.ID, step.qualified, map[string]any{"round": "r1"})
			})
			if err != nil {
				t.Fatal(err)
			}
			if m, _ := f.st.Member(f.ctx, p.ID, ann.ID); m.Qualified != step.qualified || count(step.action) != step.events {
				t.Fatalf("qualified %v with %d %s events", m.Qualified, count(step.action), step.action)
			}
		}
		stranger := f.user("stranger")
		wantErr(t, workflow.SetQualified(f.ctx, f.st, p.ID, f.lead.ID, stranger.ID, true, nil), store.ErrNotFound)
	})
}
