package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// openWork makes a project with one item and one active label assignment of an annotator.
func openWork(t *testing.T, ctx context.Context, s *store.Store) (projectID, userID, assignmentID string) {
	t.Helper()
	u := &store.User{Email: unique("ann") + "@example.org", Name: "Ann", PasswordHash: "x"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	p := &store.Project{Name: "P", CreatedBy: u.ID}
	if err := s.CreateProject(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	it := &store.Item{ProjectID: p.ID, ExternalID: "x1", Inputs: store.JSON(`{}`), Stage: flow.StageLabel}
	if _, err := s.InsertNewItems(ctx, []*store.Item{it}); err != nil {
		t.Fatal(err)
	}
	a := &store.Assignment{ProjectID: p.ID, ItemID: it.ID, UserID: u.ID, Stage: flow.StageLabel,
		Status: flow.AssignActive, LeaseExpiresAt: time.Now().Add(time.Hour)}
	if err := s.CreateAssignment(ctx, a); err != nil {
		t.Fatal(err)
	}
	return p.ID, u.ID, a.ID
}

// TestDemotionNeverExpiresAnAcknowledgedSubmit: a role change that expires a person's open work
// while their submit of it is committing leaves the submit submitted (it used to read the open
// ids first, then expire them by id after the submit had committed).
func TestDemotionNeverExpiresAnAcknowledgedSubmit(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		s := testenv.SQLite(t)
		pid, uid, aid := openWork(t, ctx, s)
		submit(t, ctx, s.SQL(), "?", aid)
		ids, err := s.ExpireOpenAssignments(ctx, pid, uid, []flow.Stage{flow.StageLabel})
		if err != nil || len(ids) != 0 {
			t.Fatalf("expired %v (%v), want none", ids, err)
		}
		assertStatus(t, ctx, s, aid, flow.AssignSubmitted)
	})
	t.Run("postgres", func(t *testing.T) {
		s := testenv.Postgres(t)
		pid, uid, aid := openWork(t, ctx, s)
		// The submit locks the row and writes it, then the demotion runs and waits on the lock.
		tx, err := s.SQL().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `SELECT id FROM assignments WHERE id = $1 FOR UPDATE`, aid); err != nil {
			t.Fatal(err)
		}
		submit(t, ctx, tx, "$1", aid)
		type result struct {
			ids []string
			err error
		}
		done := make(chan result, 1)
		go func() {
			ids, err := s.ExpireOpenAssignments(ctx, pid, uid, []flow.Stage{flow.StageLabel})
			done <- result{ids, err}
		}()
		waitForLockWait(t, ctx, s.SQL())
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.err != nil || len(r.ids) != 0 {
			t.Fatalf("expired %v (%v), want none", r.ids, r.err)
		}
		assertStatus(t, ctx, s, aid, flow.AssignSubmitted)
	})
	t.Run("open work still expires", func(t *testing.T) {
		eachBackend(t, func(t *testing.T, f *fixture) {
			pid, uid, aid := openWork(t, ctx, f.s)
			ids, err := f.s.ExpireOpenAssignments(ctx, pid, uid, []flow.Stage{flow.StageLabel, flow.StageReview})
			if err != nil || len(ids) != 1 || ids[0] != aid {
				t.Fatalf("expired %v (%v), want [%s]", ids, err, aid)
			}
			assertStatus(t, ctx, f.s, aid, flow.AssignExpired)
		})
	})
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// submit marks an assignment submitted; placeholder is the engine's ("?" or "$1").
func submit(t *testing.T, ctx context.Context, db execer, placeholder, id string) {
	t.Helper()
	q := `UPDATE assignments SET status = 'submitted', submitted_at = CURRENT_TIMESTAMP WHERE id = ` + placeholder
	if _, err := db.ExecContext(ctx, q, id); err != nil {
		t.Fatal(err)
	}
}

// waitForLockWait returns once another session of the database waits on a row lock.
func waitForLockWait(t *testing.T, ctx context.Context, db *sql.DB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var n int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatal("no session ever waited on a row lock")
}

func assertStatus(t *testing.T, ctx context.Context, s *store.Store, id string, want flow.AssignmentStatus) {
	t.Helper()
	a, err := s.Assignment(ctx, id)
	if err != nil || a.Status != want {
		t.Fatalf("assignment %s is %v (%v), want %s", id, a.Status, err, want)
	}
}

// TestLeaseWritesLeaveSubmittedWork: renewing or expiring a lease read before a submit
// committed changes nothing of the submitted assignment (a claim's resume used to write back
// the whole row it had read, status and answers included).
func TestLeaseWritesLeaveSubmittedWork(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		_, _, aid := openWork(t, f.ctx, f.s)
		if ok, err := f.s.RenewLease(f.ctx, aid, time.Now().Add(time.Hour)); err != nil || !ok {
			t.Fatalf("renewing open work: %v, %v", ok, err)
		}
		submit(t, f.ctx, f.s.SQL(), f.ph(1), aid)
		if ok, err := f.s.RenewLease(f.ctx, aid, time.Now().Add(2*time.Hour)); err != nil || ok {
			t.Fatalf("renewing submitted work: %v, %v", ok, err)
		}
		if ok, err := f.s.ExpireAssignment(f.ctx, aid); err != nil || ok {
			t.Fatalf("expiring submitted work: %v, %v", ok, err)
		}
		assertStatus(t, f.ctx, f.s, aid, flow.AssignSubmitted)
	})
}
