package store_test

import (
	"errors"
	neturl "net/url"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestAgreementRequests: agreement figures are requested once while a request is pending, and
// again once it is stale or its figures are stored; storing keeps the time of the request.
func TestAgreementRequests(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		t0 := time.Now().UTC().Truncate(time.Second)
		at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
		request := func(stage flow.Stage, when, after time.Time) bool {
			t.Helper()
			ok, err := f.s.RequestAgreement(f.ctx, p.ID, stage, when, after)
			must(t, err)
			return ok
		}
		if _, err := f.s.AgreementResult(f.ctx, p.ID, flow.StageLabel); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("figures never computed: %v", err)
		}
		if !request(flow.StageLabel, at(1), at(0)) || request(flow.StageLabel, at(2), at(0)) {
			t.Fatal("a second request while the first is pending was recorded")
		}
		if !request(flow.StageReview, at(2), at(0)) {
			t.Fatal("a request of another stage was refused")
		}
		if !request(flow.StageLabel, at(3), at(2)) {
			t.Fatal("a request after a stale one was refused")
		}
		must(t, f.s.PutAgreementResult(f.ctx, &store.AgreementResult{ProjectID: p.ID, Stage: flow.StageLabel, SchemaVersion: 2,
			Stamp: new(at(0)), Labels: 40, Result: store.JSON(`{"alpha":0.8}`), ComputedAt: new(at(4))}))
		got, err := f.s.AgreementResult(f.ctx, p.ID, flow.StageLabel)
		must(t, err)
		if got.SchemaVersion != 2 || got.Labels != 40 || string(got.Result) != `{"alpha":0.8}` || !got.Stamp.Equal(at(0)) ||
			!got.ComputedAt.Equal(at(4)) || got.RequestedAt == nil || !got.RequestedAt.Equal(at(3)) {
			t.Fatalf("stored figures %+v", got)
		}
		if !request(flow.StageLabel, at(5), at(0)) {
			t.Fatal("a request after the figures were stored was refused")
		}
	})
}

func TestLatestSubmit(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := f.project(lead)
		latest := func() *time.Time {
			t.Helper()
			ts, err := f.s.LatestSubmit(f.ctx, p.ID)
			must(t, err)
			return ts
		}
		if ts := latest(); ts != nil {
			t.Fatalf("a project without submits: %v", ts)
		}
		base := time.Now().UTC().Truncate(time.Second)
		its := f.items(p, "i", flow.StageReview, 3)
		label := f.assign(its[0], u, flow.StageLabel, flow.AssignSubmitted, submittedAt(base))
		f.assign(its[1], u, flow.StageCriteria, flow.AssignSubmitted, submittedAt(base.Add(time.Hour))) // neither label nor review
		equal(t, "after a label", latest().UTC(), base)
		f.assign(its[0], lead, flow.StageReview, flow.AssignSubmitted, reviewOf(label), submittedAt(base.Add(time.Minute)))
		equal(t, "after a review", latest().UTC(), base.Add(time.Minute))
		f.assign(its[2], u, flow.StageLabel, flow.AssignSubmitted, submittedAt(base.Add(2*time.Minute)))
		equal(t, "after a later label", latest().UTC(), base.Add(2*time.Minute))
	})
}

func TestEachProductionLabel(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, bob := f.user("lead"), f.user("ann"), f.user("bob")
		p, other := f.project(lead), f.project(lead)
		its := f.items(p, "i", flow.StageDone, 2)
		gold := f.item(p, "g", flow.StageGold)
		f.decide(its[0], `{"q":"truth"}`)
		prefilled := f.assign(its[0], ann, flow.StageLabel, flow.AssignSubmitted, func(a *store.Assignment) {
			a.DraftSource, a.TimeSpentMS, a.Shuffle, a.Effective = new("model"), 900, store.JSON(`[1,0]`), store.JSON(`{"q":"fixed"}`)
		})
		must(t, f.s.AddRevision(f.ctx, prefilled.ID, 0, flow.RevisionPrefill, store.JSON(`{"q":"draft"}`)))
		plain := f.assign(its[1], bob, flow.StageLabel, flow.AssignSubmitted)
		f.assign(its[1], ann, flow.StageLabel, flow.AssignRejected)
		f.assign(its[0], bob, flow.StageLabel, flow.AssignActive)
		f.assign(gold, bob, flow.StageLabel, flow.AssignSubmitted)
		f.assign(its[0], lead, flow.StageReview, flow.AssignSubmitted, reviewOf(prefilled))
		f.assign(f.item(other, "o", flow.StageDone), ann, flow.StageLabel, flow.AssignSubmitted)

		for _, detail := range []bool{false, true} {
			var rows []store.LabelRow
			must(t, f.s.EachProductionLabel(f.ctx, p.ID, detail, func(r *store.LabelRow) error {
				rows = append(rows, *r)
				return nil
			}))
			if len(rows) != 2 || rows[0].ID != prefilled.ID || rows[1].ID != plain.ID {
				t.Fatalf("detail %v: labels %+v", detail, rows)
			}
			r := rows[0]
			if r.ItemID != its[0].ID || r.UserID != ann.ID || string(r.Answers) != `{"q":"a"}` || string(r.Effective) != `{"q":"fixed"}` ||
				*r.DraftSource != "model" || r.TimeSpentMS != 900 || r.ItemStage != flow.StageDone || string(r.Shuffle) != `[1,0]` {
				t.Fatalf("detail %v: label %+v", detail, r)
			}
			if detail != (string(r.Draft) == `{"q":"draft"}` && string(r.Truth) == `{"q":"truth"}`) || rows[1].Draft != nil || rows[1].Truth != nil {
				t.Fatalf("detail %v: draft %s, truth %s; plain label %+v", detail, r.Draft, r.Truth, rows[1])
			}
		}
		stop := errors.New("stop")
		if err := f.s.EachProductionLabel(f.ctx, p.ID, false, func(*store.LabelRow) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("a walk stopped by its function: %v", err)
		}
	})
}

func TestUserNames(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		a, b, c := f.user("a"), f.user("b"), f.user("c")
		ids := make([]string, 600) // two pages of 500
		for i := range ids {
			ids[i] = unique("nobody")
		}
		ids[0], ids[499], ids[550] = a.ID, b.ID, c.ID
		names, err := f.s.UserNames(f.ctx, ids)
		must(t, err)
		equal(t, "names", names, map[string]string{a.ID: "a", b.ID: "b", c.ID: "c"})
	})
}

// TestLabelPagesPlannedForTheirValues: the pages of a long read are planned for their own
// values however many times the statement runs on one connection, even where PostgreSQL would
// otherwise settle on a generic plan (forced here on the connection): a generic keyset page
// cannot use the last id read and scans the whole project on every page.
func TestLabelPagesPlannedForTheirValues(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		if !f.pg() {
			return // note: SQLite plans every statement afresh
		}
		lead, ann := f.user("lead"), f.user("ann")
		p := f.project(lead)
		its := f.items(p, "pages", flow.StageDone, 8)
		for _, it := range its {
			f.assign(it, ann, flow.StageLabel, flow.AssignSubmitted)
		}
		u, err := neturl.Parse(f.s.URL())
		must(t, err)
		q := u.Query()
		q.Set("plan_cache_mode", "force_generic_plan")
		u.RawQuery = q.Encode()
		one, err := store.OpenPool(f.ctx, u.String(), store.Pool{MaxOpen: 1})
		must(t, err)
		defer one.Close()
		store.SetLabelPage(one, 1)
		n := 0
		must(t, one.EachProductionLabel(f.ctx, p.ID, false, func(*store.LabelRow) error { n++; return nil }))
		generic, custom, err := store.PreparedPlans(f.ctx, one, "ORDER BY a.id LIMIT")
		must(t, err)
		if n != len(its) || custom < int64(len(its)) || generic != 0 {
			t.Fatalf("%d labels in pages of one: the page query was planned %d times for its values and %d times generically; want every page for its values", n, custom, generic)
		}
	})
}
