package store_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/store/migrations"
)

// TestAssignmentOncePerStage: a person has an item at most once per stage, and a label at
// most once under review; the database refuses the second with ErrConflict.
func TestAssignmentOncePerStage(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u, o := f.user("lead"), f.user("u"), f.user("o")
		p := f.project(lead)
		it := f.item(p, "x", flow.StageLabel)
		first := f.assign(it, u, flow.StageLabel, flow.AssignExpired)
		equal(t, "review status of a new assignment", first.ReviewStatus, flow.ReviewNone)
		l1 := f.assign(it, o, flow.StageLabel, flow.AssignSubmitted)
		l2 := f.assign(it, lead, flow.StageLabel, flow.AssignSubmitted)
		f.assign(it, u, flow.StageReview, flow.AssignSubmitted, reviewOf(l1))
		f.assign(it, u, flow.StageReview, flow.AssignActive, reviewOf(l2)) // one reviewer, every label
		for _, c := range []struct {
			name   string
			stage  flow.Stage
			target *string
		}{
			{"a second label", flow.StageLabel, nil},
			{"a second review of one label", flow.StageReview, &l1.ID},
		} {
			err := f.s.CreateAssignment(f.ctx, &store.Assignment{ProjectID: p.ID, ItemID: it.ID, UserID: u.ID, Stage: c.stage,
				TargetID: c.target, Status: flow.AssignActive, LeaseExpiresAt: time.Now().UTC()})
			if !errors.Is(err, store.ErrConflict) {
				t.Fatalf("%s: %v, want ErrConflict", c.name, err)
			}
		}
		as, err := f.s.ItemAssignments(f.ctx, it.ID, flow.StageReview)
		must(t, err)
		equal(t, "reviews of the item", len(as), 2)
	})
}

func TestAssignmentRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := f.project(lead)
		it := f.item(p, "x", flow.StageLabel)
		a := f.assign(it, u, flow.StageLabel, flow.AssignActive)
		if _, err := f.s.Assignment(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing assignment: %v", err)
		}
		submitted := time.Now().UTC().Truncate(time.Millisecond)
		a.Status, a.Version, a.Answers, a.Draft = flow.AssignSubmitted, 3, store.JSON(`{"q":"yes"}`), store.JSON(`{"q":"no"}`)
		a.SubmittedAt, a.TimeSpentMS, a.Confidence, a.Rationale = &submitted, 1234, new(4), new("because")
		a.Comments, a.Shuffle, a.Seed, a.Pass, a.GoldCorrect = store.JSON(`[{"q":"c"}]`), store.JSON(`[1,0]`), -42, 2, new(true)
		a.ReviewStatus, a.SkipReason = flow.ReviewPending, new("unclear")
		must(t, f.s.SaveAssignment(f.ctx, a))
		var got *store.Assignment
		must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error {
			var err error
			got, err = tx.AssignmentForUpdate(f.ctx, a.ID)
			return err
		}))
		if got.Status != a.Status || got.Version != 3 || string(got.Answers) != `{"q":"yes"}` || string(got.Draft) != `{"q":"no"}` ||
			got.SubmittedAt == nil || !got.SubmittedAt.Equal(submitted) || got.TimeSpentMS != 1234 || *got.Confidence != 4 ||
			*got.Rationale != "because" || string(got.Comments) != `[{"q":"c"}]` || string(got.Shuffle) != `[1,0]` || got.Seed != -42 ||
			got.Pass != 2 || !*got.GoldCorrect || got.ReviewStatus != flow.ReviewPending || *got.SkipReason != "unclear" ||
			got.Verdict != nil || got.TargetID != nil {
			t.Fatalf("saved %+v, read %+v", a, got)
		}
		if _, err := f.s.AssignmentForUpdate(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing assignment for update: %v", err)
		}
	})
}

func TestAssignmentLists(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u, o := f.user("lead"), f.user("u"), f.user("o")
		p, other := f.project(lead), f.project(lead)
		its := f.items(p, "i", flow.StageLabel, 3)
		elsewhere := f.item(other, "e", flow.StageLabel)
		a0 := f.assign(its[0], u, flow.StageLabel, flow.AssignActive)
		a1 := f.assign(its[1], u, flow.StageLabel, flow.AssignActive, leaseEnded) // still open
		f.assign(its[2], u, flow.StageLabel, flow.AssignSubmitted)
		f.assign(its[2], u, flow.StageAdjudicate, flow.AssignActive)
		f.assign(its[0], o, flow.StageLabel, flow.AssignActive)
		f.assign(elsewhere, u, flow.StageLabel, flow.AssignActive)

		open, err := f.s.ActiveAssignments(f.ctx, p.ID, u.ID, flow.StageLabel)
		must(t, err)
		equalIDs(t, "u's open labels", assignmentIDs(open), a0.ID, a1.ID)
		byItem, err := f.s.AssignmentsOfItems(f.ctx, idsOf(its[0], its[2]))
		must(t, err)
		if len(byItem) != 2 || len(byItem[its[0].ID]) != 2 || len(byItem[its[2].ID]) != 2 || byItem[its[0].ID][0].ID != a0.ID {
			t.Fatalf("assignments of items %v", byItem)
		}
		labels, err := f.s.ItemAssignments(f.ctx, its[2].ID, flow.StageLabel)
		must(t, err)
		all, err := f.s.ItemAssignments(f.ctx, its[2].ID, "")
		must(t, err)
		if len(labels) != 1 || len(all) != 2 {
			t.Fatalf("item assignments: %d labels, %d in all", len(labels), len(all))
		}
	})
}

func assignmentIDs(as []store.Assignment) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

func TestLeases(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := f.project(lead)
		its := f.items(p, "i", flow.StageLabel, 3)
		untouched := f.assign(its[0], u, flow.StageLabel, flow.AssignActive)
		saved := f.assign(its[1], u, flow.StageLabel, flow.AssignActive, func(a *store.Assignment) { a.Version = 1 })
		done := f.assign(its[2], u, flow.StageLabel, flow.AssignSubmitted)

		until := time.Now().UTC().Add(3 * time.Hour).Truncate(time.Second)
		if ok, err := f.s.RenewLease(f.ctx, saved.ID, until); err != nil || !ok {
			t.Fatalf("renew: %v, %v", ok, err)
		}
		got, err := f.s.Assignment(f.ctx, saved.ID)
		must(t, err)
		equal(t, "renewed lease", got.LeaseExpiresAt.UTC(), until)
		for _, c := range []struct {
			a    *store.Assignment
			want bool
		}{{saved, false}, {done, false}, {untouched, true}} {
			ok, err := f.s.DeleteUntouchedAssignment(f.ctx, c.a.ID)
			must(t, err)
			equal(t, "deleted "+c.a.ItemID, ok, c.want)
		}
		if _, err := f.s.Assignment(f.ctx, untouched.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("deleted assignment still there: %v", err)
		}
		if ok, err := f.s.ExpireAssignment(f.ctx, saved.ID); err != nil || !ok {
			t.Fatalf("expire: %v, %v", ok, err)
		}
		assertStatus(t, f.ctx, f.s, saved.ID, flow.AssignExpired)
		if ok, err := f.s.RenewLease(f.ctx, saved.ID, until); err != nil || ok {
			t.Fatalf("renewing expired work: %v, %v", ok, err)
		}
	})
}

func TestRevisions(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		it := f.item(f.project(lead), "x", flow.StageLabel)
		a := f.assign(it, u, flow.StageLabel, flow.AssignActive)
		must(t, f.s.AddRevision(f.ctx, a.ID, 1, flow.RevisionDraft, store.JSON(`{"q":1}`)))
		must(t, f.s.AddPassRevision(f.ctx, a.ID, 2, flow.RevisionPass, store.JSON(`{"q":2}`), "read", store.JSON(`["text"]`)))
		must(t, f.s.AddRevision(f.ctx, a.ID, 0, flow.RevisionPrefill, store.JSON(`{"q":0}`)))
		if err := f.s.AddRevision(f.ctx, a.ID, 1, flow.RevisionSubmit, store.JSON(`{}`)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a version saved twice: %v, want ErrConflict", err)
		}
		rs, err := f.s.Revisions(f.ctx, a.ID)
		must(t, err)
		if len(rs) != 3 || rs[0].Kind != string(flow.RevisionPrefill) || string(rs[1].Answers) != `{"q":1}` || rs[1].Pass != nil ||
			rs[2].Pass == nil || *rs[2].Pass != "read" || string(rs[2].Inputs) != `["text"]` {
			t.Fatalf("revisions %+v", rs)
		}
	})
}

func TestThroughputAndProgress(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, bob := f.user("lead"), f.user("ann"), f.user("bob")
		p := f.project(lead)
		its := f.items(p, "i", flow.StageLabel, 3)
		old, today := submittedAt(time.Now().UTC().Add(-48*time.Hour)), submittedAt(time.Now().UTC())
		f.assign(its[0], ann, flow.StageLabel, flow.AssignSubmitted, old)
		f.assign(its[1], ann, flow.StageLabel, flow.AssignRejected, today)
		f.assign(its[2], ann, flow.StageLabel, flow.AssignActive)
		f.assign(its[0], bob, flow.StageReview, flow.AssignSubmitted, today)
		pool := f.item(p, "pool", flow.StageCalibration)
		f.assign(pool, bob, flow.StageCalibration, flow.AssignSubmitted, today)

		since := time.Now().UTC().Add(-time.Hour)
		tp, err := f.s.ProjectThroughput(f.ctx, p.ID, since)
		must(t, err)
		equal(t, "throughput", tp, []store.Throughput{
			{UserID: ann.ID, Name: "ann", Stage: flow.StageLabel, Submitted: 2, Today: 1},
			{UserID: bob.ID, Name: "bob", Stage: flow.StageReview, Submitted: 1, Today: 1},
		})
		pr, err := f.s.UserProgress(f.ctx, p.ID, bob.ID, since)
		must(t, err)
		equal(t, "bob's progress", pr, []store.Progress{
			{Stage: flow.StageCalibration, DoneToday: 1, DoneTotal: 1}, {Stage: flow.StageReview, DoneToday: 1, DoneTotal: 1},
		})
		pr, err = f.s.UserProgress(f.ctx, p.ID, lead.ID, since)
		must(t, err)
		equal(t, "no progress", pr, []store.Progress{})
	})
}

// TestAssignmentForSubmit: a submit locks its assignment, a review's label and, on PostgreSQL,
// the item when the submit can move it on (a label from the deciding pass on, a review, an
// adjudication); a calibration answer never moves its item. On SQLite the assignment and a
// review's label are read.
func TestAssignmentForSubmit(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := f.project(lead)
		it := f.item(p, "x", flow.StageLabel)
		label := f.assign(it, u, flow.StageLabel, flow.AssignActive, func(a *store.Assignment) { a.Pass = 1 })
		review := f.assign(it, lead, flow.StageReview, flow.AssignActive, reviewOf(label))
		adj := f.assign(it, f.user("adj"), flow.StageAdjudicate, flow.AssignActive)
		cal := f.assign(it, f.user("cal"), flow.StageCalibration, flow.AssignActive)
		for _, c := range []struct {
			name     string
			id       string
			fromPass int
			item     bool // the item comes locked with it (PostgreSQL)
			target   *store.Assignment
		}{
			{"label in the deciding pass", label.ID, 1, true, nil},
			{"label in an earlier pass", label.ID, 2, false, nil},
			{"review", review.ID, 0, true, label},
			{"adjudication", adj.ID, 0, true, nil},
			{"calibration", cal.ID, 0, false, nil},
		} {
			err := f.s.WithTx(f.ctx, func(tx *store.Store) error {
				got, err := tx.AssignmentForSubmit(f.ctx, c.id, c.fromPass)
				if err != nil {
					return err
				}
				if got.Assignment.ID != c.id || (got.Item != nil) != (c.item && f.pg()) || (got.Target != nil) != (c.target != nil) {
					t.Errorf("%s: %+v", c.name, got)
				}
				if c.target != nil && got.Target != nil && (got.Target.ID != c.target.ID || got.Target.UserID != u.ID) {
					t.Errorf("%s: target %+v", c.name, got.Target)
				}
				if got.Item != nil && (got.Item.ID != it.ID || string(got.Item.Inputs) != string(it.Inputs) || got.Item.Stage != flow.StageLabel) {
					t.Errorf("%s: item %+v", c.name, got.Item)
				}
				return nil
			})
			must(t, err)
		}
		if _, err := f.s.AssignmentForSubmit(f.ctx, "missing", 0); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing: %v", err)
		}
	})
}

// TestCorrectedByBackfill: migration 00057 names, on every label corrected before it, the
// reviewer whose submitted correction it holds; other labels stay without one.
func TestCorrectedByBackfill(t *testing.T) {
	eachFreshBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, rev, other := f.user("lead"), f.user("ann"), f.user("rev"), f.user("other")
		p := f.project(lead)
		it := f.item(p, "x", flow.StageDone)
		corrected := f.assign(it, ann, flow.StageLabel, flow.AssignSubmitted, func(a *store.Assignment) {
			a.ReviewStatus, a.Effective = flow.ReviewCorrected, store.JSON(`{"q":"b"}`)
		})
		approved := f.assign(it, other, flow.StageLabel, flow.AssignSubmitted, func(a *store.Assignment) { a.ReviewStatus = flow.ReviewApproved })
		correct, approve := flow.VerdictCorrect, flow.VerdictApprove
		f.assign(it, rev, flow.StageReview, flow.AssignSubmitted, reviewOf(corrected), func(a *store.Assignment) { a.Verdict = &correct })
		f.assign(it, rev, flow.StageReview, flow.AssignSubmitted, reviewOf(approved), func(a *store.Assignment) { a.Verdict = &approve })
		f.exec("UPDATE assignments SET corrected_by = NULL WHERE item_id = "+f.ph(1), it.ID)
		f.exec(migrationStatement(t, "00057_assignment_corrected_by.sql", "UPDATE"))
		got, err := f.s.ItemAssignments(f.ctx, it.ID, flow.StageLabel)
		must(t, err)
		by := map[string]string{}
		for _, a := range got {
			if a.CorrectedBy != nil {
				by[a.ID] = *a.CorrectedBy
			}
		}
		if len(by) != 1 || by[corrected.ID] != rev.ID {
			t.Fatalf("corrected_by after the migration: %v (want %s on %s only)", by, rev.ID, corrected.ID)
		}
	})
}

// migrationStatement is the statement of a migration's up part that starts with prefix.
func migrationStatement(t *testing.T, file, prefix string) string {
	t.Helper()
	b, err := fs.ReadFile(migrations.FS, file)
	if err != nil {
		t.Fatal(err)
	}
	up, _, _ := strings.Cut(string(b), "-- +goose Down")
	for _, stmt := range strings.Split(up, ";") {
		if s := strings.TrimSpace(stmt); strings.HasPrefix(s, prefix) {
			return s
		}
	}
	t.Fatalf("%s has no %s statement", file, prefix)
	return ""
}
