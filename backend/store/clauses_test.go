package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestRowLocks: on PostgreSQL the reads for update hold their rows' locks until their
// transaction ends, and the queue skips the items other transactions hold. (SQLite has one
// writer at a time: there is nothing to lock.)
func TestRowLocks(t *testing.T) {
	f := &fixture{t: t, ctx: context.Background(), s: sharedStore(t, "postgres")}
	lead, u := f.user("lead"), f.user("u")
	p := f.project(lead)
	its := f.items(p, "i", flow.StageLabel, 2)
	a := f.assign(its[0], u, flow.StageLabel, flow.AssignActive)
	r := f.round(p, nil)
	c := &store.Criterion{ProjectID: p.ID, ItemID: its[0].ID, AssignmentID: a.ID, AuthorID: u.ID, Text: "t", Status: flow.CriterionPending}
	must(t, f.s.CreateCriterion(f.ctx, c))

	// locked reports whether another session finds the row locked.
	locked := func(table, id string) bool {
		t.Helper()
		_, err := f.s.SQL().ExecContext(f.ctx, "SELECT 1 FROM "+table+" WHERE id = $1 FOR UPDATE NOWAIT", id)
		var pg *pgconn.PgError
		if err != nil && !(errors.As(err, &pg) && pg.Code == "55P03") {
			t.Fatal(err)
		}
		return err != nil
	}
	for _, c := range []struct {
		name, table, id string
		read            func(tx *store.Store) error
	}{
		{"project", "projects", p.ID, func(tx *store.Store) error { _, err := tx.ProjectForUpdate(f.ctx, p.ID); return err }},
		{"item", "items", its[0].ID, func(tx *store.Store) error { _, err := tx.ItemForUpdate(f.ctx, its[0].ID); return err }},
		{"assignment", "assignments", a.ID, func(tx *store.Store) error { _, err := tx.AssignmentForUpdate(f.ctx, a.ID); return err }},
		{"assignment for submit", "assignments", a.ID, func(tx *store.Store) error { _, err := tx.AssignmentForSubmit(f.ctx, a.ID, 0); return err }},
		{"item of a submit", "items", its[0].ID, func(tx *store.Store) error { _, err := tx.AssignmentForSubmit(f.ctx, a.ID, 0); return err }},
		{"round", "calibration_rounds", r.ID, func(tx *store.Store) error { _, err := tx.RoundForUpdate(f.ctx, p.ID, r.ID); return err }},
		{"criterion", "criteria", c.ID, func(tx *store.Store) error { _, err := tx.CriterionForUpdate(f.ctx, p.ID, c.ID); return err }},
		{"the queue's next item", "items", its[1].ID, func(tx *store.Store) error { // note: u holds its[0]
			_, err := tx.NextItem(f.ctx, p.ID, lead.ID, flow.StageLabel, 3, time.Now().UTC(), nil, store.Allowed{})
			return err
		}},
	} {
		must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error {
			if err := c.read(tx); err != nil {
				return err
			}
			if !locked(c.table, c.id) {
				t.Errorf("%s: the row is not locked", c.name)
			}
			return nil
		}))
		if locked(c.table, c.id) {
			t.Errorf("%s: the lock outlived its transaction", c.name)
		}
	}

	// the queue passes over an item another claim holds
	must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error {
		if _, err := tx.ItemForUpdate(f.ctx, its[0].ID); err != nil {
			return err
		}
		ids, err := f.s.NextItemCandidates(f.ctx, p.ID, lead.ID, flow.StageLabel, 3, 10, time.Now().UTC(), store.Allowed{})
		if err == nil {
			equalIDs(t, "candidates while the first item is held", ids, its[1].ID)
		}
		return err
	}))
}
