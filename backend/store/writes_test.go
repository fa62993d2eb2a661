package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// openLabels makes an item with two labels, the first u's open one and the second submitted.
func openLabels(f *fixture) (it *store.Item, open, other *store.Assignment) {
	lead, u := f.user("lead"), f.user("u")
	it = f.item(f.project(lead), "x", flow.StageLabel)
	open = f.assign(it, u, flow.StageLabel, flow.AssignActive)
	other = f.assign(it, lead, flow.StageLabel, flow.AssignSubmitted)
	return it, open, other
}

// submitted is a the way a submit leaves it.
func submitted(a *store.Assignment) *store.Assignment {
	t := time.Now().UTC()
	a.Status, a.Answers, a.SubmittedAt, a.Version = flow.AssignSubmitted, store.JSON(`{"q":"yes"}`), &t, a.Version+1
	return a
}

// TestCombinedWrites: a submit's assignment, revision and audit event (and the read of the
// item's labels), a save with its revision and a decision's ground truth, stage and audit
// event are one statement on PostgreSQL, and the same writes one after the other on SQLite.
func TestCombinedWrites(t *testing.T) {
	eachCountedBackend(t, func(t *testing.T, f *fixture, st *testenv.Statements) {
		statements := func(t *testing.T, sqlite int, write func() error) {
			t.Helper()
			st.Start()
			err := write()
			n, log := st.Stop()
			must(t, err)
			want := map[bool]int{false: sqlite, true: 1}[f.pg()]
			if n != want {
				t.Fatalf("%d statements, want %d:\n%s", n, want, strings.Join(log, "\n"))
			}
		}
		f.run("submit with the item's labels", func(t *testing.T, f *fixture) {
			_, a, other := openLabels(f)
			sub := submitted(a)
			var labels []store.Assignment
			statements(t, 4, func() (err error) {
				labels, err = f.s.RecordSubmit(f.ctx, store.Submitted{Assignment: sub,
					Revision: store.RevisionWrite(a.ID, sub.Version, flow.RevisionSubmit, sub.Answers, "", nil),
					Event:    store.Event{ProjectID: a.ProjectID, ActorID: a.UserID, Action: "assignment.submit", Target: "item:" + a.ItemID, After: map[string]any{"assignment": a.ID}},
					Labels:   true})
				return err
			})
			if len(labels) != 2 || labels[0].ID != a.ID || labels[0].Status != flow.AssignSubmitted || labels[1].ID != other.ID {
				t.Fatalf("labels after the submit %+v", labels)
			}
			assertStatus(t, f.ctx, f.s, a.ID, flow.AssignSubmitted)
			rs, err := f.s.Revisions(f.ctx, a.ID)
			must(t, err)
			if len(rs) != 1 || rs[0].Kind != string(flow.RevisionSubmit) || string(rs[0].Answers) != `{"q":"yes"}` {
				t.Fatalf("revisions %+v", rs)
			}
			es, err := f.s.AuditEvents(f.ctx, a.ProjectID, 1)
			must(t, err)
			if len(es) != 1 || es[0].Action != "assignment.submit" || *es[0].ActorID != a.UserID || string(es[0].After) != `{"assignment":"`+a.ID+`"}` {
				t.Fatalf("audit %+v", es)
			}
		})
		f.run("submit alone", func(t *testing.T, f *fixture) {
			_, a, _ := openLabels(f)
			sub := submitted(a)
			statements(t, 3, func() error {
				labels, err := f.s.RecordSubmit(f.ctx, store.Submitted{Assignment: sub,
					Revision: store.RevisionWrite(a.ID, 1, flow.RevisionSubmit, sub.Answers, "", nil),
					Event:    store.Event{ProjectID: a.ProjectID, Action: "assignment.submit", Target: "item:" + a.ItemID}})
				if labels != nil {
					t.Errorf("labels not asked for: %+v", labels)
				}
				return err
			})
			assertStatus(t, f.ctx, f.s, a.ID, flow.AssignSubmitted)
		})
		f.run("save with its revision", func(t *testing.T, f *fixture) {
			_, a, _ := openLabels(f)
			a.Draft, a.Version = store.JSON(`{"q":"draft"}`), 1
			statements(t, 2, func() error {
				return f.s.SaveAssignmentWith(f.ctx, a, store.RevisionWrite(a.ID, 1, flow.RevisionDraft, a.Draft, "", nil))
			})
			got, err := f.s.Assignment(f.ctx, a.ID)
			must(t, err)
			rs, err := f.s.Revisions(f.ctx, a.ID)
			must(t, err)
			if string(got.Draft) != `{"q":"draft"}` || got.Version != 1 || len(rs) != 1 {
				t.Fatalf("saved %+v with revisions %+v", got, rs)
			}
		})
		f.run("decision", func(t *testing.T, f *fixture) {
			it, _, _ := openLabels(f)
			gt := &store.GroundTruth{ItemID: it.ID, Answers: store.JSON(`{"q":"yes"}`), Provenance: flow.ProvenanceMajority}
			statements(t, 3, func() error {
				return f.s.DecideItem(f.ctx, gt, flow.StageDone, store.Event{ProjectID: it.ProjectID, Action: "item.stage", Target: "item:" + it.ID})
			})
			equal(t, "revision", gt.Revision, 1)
		})
	})
}

// TestSaveDraftIf: a draft is written with its revision, in one statement committed by itself
// on PostgreSQL (BEGIN, two writes, COMMIT on SQLite), only while the assignment is active, the
// person's and at the version given; otherwise nothing is written.
func TestSaveDraftIf(t *testing.T) {
	eachCountedBackend(t, func(t *testing.T, f *fixture, st *testenv.Statements) {
		it, a, other := openLabels(f)
		pass := "second"
		refused := []struct {
			name, id, user string
			version        int
		}{
			{"a stale version", a.ID, a.UserID, 1},
			{"someone else's assignment", a.ID, other.UserID, 0},
			{"an assignment no longer active", other.ID, other.UserID, 0},
		}
		for _, r := range refused {
			saved, err := f.s.SaveDraftIf(f.ctx, r.id, r.user, r.version, store.JSON(`{"q":"no"}`), nil, nil)
			must(t, err)
			if saved {
				t.Fatalf("%s: saved", r.name)
			}
		}
		st.Start()
		saved, err := f.s.SaveDraftIf(f.ctx, a.ID, a.UserID, 0, store.JSON(`{"q":"draft"}`), &pass, store.JSON(`{"x":1}`))
		n, log := st.Stop()
		must(t, err)
		if want := map[bool]int{false: 4, true: 1}[f.pg()]; !saved || n != want {
			t.Fatalf("saved %v in %d statements, want %d:\n%s", saved, n, want, strings.Join(log, "\n"))
		}
		if saved, err := f.s.SaveDraftIf(f.ctx, a.ID, a.UserID, 0, store.JSON(`{"q":"late"}`), nil, nil); err != nil || saved {
			t.Fatalf("a second save at the version already saved: saved %v, %v", saved, err)
		}
		if saved, err := f.s.SaveDraftIf(f.ctx, a.ID, a.UserID, 1, store.JSON(`{"q":"again"}`), nil, nil); err != nil || !saved {
			t.Fatalf("the next version: saved %v, %v", saved, err)
		}
		got, err := f.s.Assignment(f.ctx, a.ID)
		must(t, err)
		rs, err := f.s.Revisions(f.ctx, a.ID)
		must(t, err)
		if string(got.Draft) != `{"q":"again"}` || got.Version != 2 || got.Status != flow.AssignActive || got.ItemID != it.ID || len(rs) != 2 {
			t.Fatalf("saved %+v with revisions %+v", got, rs)
		}
		if r := rs[0]; r.Version != 1 || r.Kind != string(flow.RevisionDraft) || string(r.Answers) != `{"q":"draft"}` || r.Pass == nil || *r.Pass != pass || string(r.Inputs) != `{"x":1}` {
			t.Fatalf("first revision %+v", r)
		}
		if r := rs[1]; r.Version != 2 || string(r.Answers) != `{"q":"again"}` || r.Pass != nil || r.Inputs != nil {
			t.Fatalf("second revision %+v", r)
		}
		if rs, _ := f.s.Revisions(f.ctx, other.ID); len(rs) != 0 {
			t.Fatalf("a refused save kept a revision: %+v", rs)
		}
	})
}

// TestCombinedWriteConflict: a unique violation inside writes sent together (one statement of
// WITH queries on PostgreSQL) is ErrConflict on both engines, as a single write's is, and
// nothing of the statement is kept.
func TestCombinedWriteConflict(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		at := time.Now().UTC()
		insert := store.Write{SQL: "INSERT INTO settings (key, value, created_at) VALUES (?, ?, ?)", Args: []any{unique("combined"), "v", at}}
		a := &store.Assignment{ID: "absent", CreatedAt: at, LeaseExpiresAt: at}
		err := f.s.WithTx(f.ctx, func(tx *store.Store) error { return tx.SaveAssignmentWith(f.ctx, a, insert, insert) })
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("got %v, want ErrConflict", err)
		}
		if err := f.s.WithTx(f.ctx, func(tx *store.Store) error { return tx.SaveAssignmentWith(f.ctx, a, insert) }); err != nil {
			t.Fatalf("the failed statement left its first write: %v", err)
		}
	})
}

// TestCombinedWriteRefusesUnsetTimestamps: a row whose automatic timestamp is zero is refused
// before anything is written, rather than written with a zero time.
func TestCombinedWriteRefusesUnsetTimestamps(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		_, a, _ := openLabels(f)
		a.CreatedAt, a.Version = time.Time{}, 7
		err := f.s.SaveAssignmentWith(f.ctx, a, store.RevisionWrite(a.ID, 7, flow.RevisionDraft, store.JSON(`{}`), "", nil))
		if err == nil || !strings.Contains(err.Error(), "created_at") {
			t.Fatalf("got %v, want a refusal naming created_at", err)
		}
		if got, _ := f.s.Assignment(f.ctx, a.ID); got.Version != 0 {
			t.Fatalf("the refused save was written: version %d", got.Version)
		}
		if rs, _ := f.s.Revisions(f.ctx, a.ID); len(rs) != 0 {
			t.Fatalf("the refused save's revision was written: %+v", rs)
		}
	})
}
