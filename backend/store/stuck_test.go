package store_test

import (
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestStuckWork: work no current member can ever be given is found per stage: in a language
// nobody with the stage's role reads, or readable but left only to people who worked the item
// in another stage or already did this stage's work on it.
func TestStuckWork(t *testing.T) {
	eachFreshBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, rev := f.user("lead"), f.user("ann"), f.user("rev")
		p := f.project(lead)
		f.member(p, ann, store.RoleAnnotator, store.RoleViewer)
		f.member(p, rev, store.RoleReviewer)
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, ann.ID, []string{"en"}))

		open := f.item(p, "a-open", flow.StageLabel)
		f.item(p, "b-de", flow.StageLabel, inLanguage("de"))
		reviewed := f.item(p, "c-reviewed", flow.StageLabel, inLanguage("en"))
		f.worked(reviewed, ann, flow.StageReview)
		labeled := f.item(p, "d-labeled", flow.StageLabel, inLanguage("en-GB"))
		f.assign(labeled, ann, flow.StageLabel, flow.AssignExpired)
		f.items(p, "e-fr", flow.StageLabel, 2, inLanguage("fr"))
		flagged := f.item(p, "f-flagged", flow.StageLabel, inLanguage("de"))
		must(t, f.s.SetItemFlag(f.ctx, flagged.ID, store.JSON(`{}`)))
		f.assign(open, lead, flow.StageLabel, flow.AssignSubmitted) // the lead's label is no annotator's

		n, ids, err := f.s.StuckWork(f.ctx, p.ID, flow.StageLabel, string(store.RoleAnnotator), 10, store.Allowed{})
		must(t, err)
		equal(t, "stuck labels", n, int64(2))
		equalIDs(t, "stuck label items", ids, reviewed.ID, labeled.ID)
		n, ids, err = f.s.StuckWork(f.ctx, p.ID, flow.StageLabel, string(store.RoleAnnotator), 1, store.Allowed{})
		must(t, err)
		if n != 1 || len(ids) != 2 {
			t.Fatalf("stuck labels up to 1: %d, ids %v", n, ids)
		}
		langs, err := f.s.StuckLanguages(f.ctx, p.ID, flow.StageLabel, string(store.RoleAnnotator), 10)
		must(t, err)
		equal(t, "stuck languages", langs, []store.LanguageStuck{{Language: "fr", Count: 2}, {Language: "de", Count: 1}})
		langs, err = f.s.StuckLanguages(f.ctx, p.ID, flow.StageLabel, string(store.RoleAnnotator), 1)
		must(t, err)
		equal(t, "stuck languages up to 1", langs, []store.LanguageStuck{{Language: "fr", Count: 1}, {Language: "de", Count: 1}})
		fr, err := f.s.StuckIDs(f.ctx, p.ID, flow.StageLabel, string(store.RoleAnnotator), "fr")
		must(t, err)
		if len(fr) != 2 {
			t.Fatalf("stuck fr items %v", fr)
		}

		// reviews: rev may review the lead's label, not their own nor one they reviewed
		base := time.Now().UTC().Add(-time.Hour)
		its := f.items(p, "r", flow.StageReview, 3)
		f.assign(its[0], lead, flow.StageLabel, flow.AssignSubmitted, awaitingReview, submittedAt(base))
		own := f.assign(its[1], rev, flow.StageLabel, flow.AssignSubmitted, awaitingReview, submittedAt(base.Add(time.Minute)))
		f.worked(its[1], rev, flow.StageLabel)
		again := f.assign(its[2], lead, flow.StageLabel, flow.AssignSubmitted, awaitingReview, submittedAt(base.Add(2*time.Minute)))
		f.assign(its[2], rev, flow.StageReview, flow.AssignExpired, reviewOf(again))
		n, ids, err = f.s.StuckWork(f.ctx, p.ID, flow.StageReview, string(store.RoleReviewer), 10, store.Allowed{})
		must(t, err)
		equal(t, "stuck reviews", n, int64(2))
		equalIDs(t, "stuck labels to review", ids, own.ID, again.ID)

		// the totals count both kinds over the projects that are not archived
		archived := f.project(lead)
		f.item(archived, "x", flow.StageLabel, inLanguage("de"))
		must(t, f.s.SetProjectArchived(f.ctx, archived.ID, new(time.Now().UTC())))
		totals, err := f.s.StuckTotals(f.ctx, map[flow.Stage]string{flow.StageLabel: string(store.RoleAnnotator), flow.StageReview: string(store.RoleReviewer)}, 10, func(store.JSON) store.Allowed { return store.Allowed{} })
		must(t, err)
		equal(t, "stuck totals", totals, map[flow.Stage]int64{flow.StageLabel: 5, flow.StageReview: 2})
	})
}
