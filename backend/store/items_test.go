package store_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestItemLookups(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p, other := f.project(lead), f.project(lead)
		it := f.item(p, "x", flow.StageLabel, inLanguage("en"))
		if got, err := f.s.Item(f.ctx, p.ID, it.ID); err != nil || got.ExternalID != "x" || got.Language != "en" || got.Version != 1 {
			t.Fatalf("item %+v, %v", got, err)
		}
		if _, err := f.s.Item(f.ctx, other.ID, it.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an item of another project: %v, want ErrNotFound", err)
		}
		if got, err := f.s.ItemByExternalID(f.ctx, p.ID, "x"); err != nil || got.ID != it.ID {
			t.Fatalf("by external id %+v, %v", got, err)
		}
		if _, err := f.s.ItemByExternalID(f.ctx, other.ID, "x"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("by external id in another project: %v", err)
		}
		must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error {
			got, err := tx.ItemForUpdate(f.ctx, it.ID)
			if err == nil && got.ProjectID != p.ID {
				t.Errorf("item for update %+v", got)
			}
			return err
		}))
		if _, err := f.s.ItemForUpdate(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing item for update: %v", err)
		}
		byExt, err := f.s.ItemsByExternalIDs(f.ctx, p.ID, []string{"x", "y"})
		must(t, err)
		if len(byExt) != 1 || byExt["x"].ID != it.ID {
			t.Fatalf("items by external ids %v", byExt)
		}
	})
}

func TestUpsertItem(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		upsert := func(inputs, meta string) (*store.Item, store.UpsertResult) {
			t.Helper()
			it := &store.Item{ProjectID: p.ID, ExternalID: "x", Inputs: store.JSON(inputs), Meta: store.JSON(meta), Stage: flow.StageLabel}
			r, err := f.s.UpsertItem(f.ctx, it)
			must(t, err)
			return it, r
		}
		first, r := upsert(`{"a":1}`, "")
		equal(t, "first import", r, store.Inserted)
		must(t, f.s.SetItemStage(f.ctx, first.ID, flow.StageReview, nil))
		same, r := upsert(`{"a":1}`, "")
		equal(t, "same line again", r, store.Unchanged)
		equal(t, "unchanged item", same.ID, first.ID)
		changed, r := upsert(`{"a":2}`, `{"m":1}`)
		equal(t, "changed line", r, store.Updated)
		got, err := f.s.Item(f.ctx, p.ID, changed.ID)
		must(t, err)
		if got.ID != first.ID || string(got.Inputs) != `{"a":2}` || string(got.Meta) != `{"m":1}` || got.Stage != flow.StageReview || got.Version != 3 {
			t.Fatalf("updated item %+v", got)
		}
	})
}

func TestInsertNewItems(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		f.item(p, "e-007", flow.StageLabel)
		var its []*store.Item
		for i := 1; i <= 120; i++ { // three chunks
			its = append(its, &store.Item{ProjectID: p.ID, ExternalID: fmt.Sprintf("e-%03d", i), Inputs: store.JSON(`{}`), Stage: flow.StageLabel})
		}
		its = append(its, &store.Item{ProjectID: p.ID, ExternalID: "e-001", Inputs: store.JSON(`{}`), Stage: flow.StageLabel})
		got, err := f.s.InsertNewItems(f.ctx, its)
		must(t, err)
		if len(got) != 119 || got["e-007"] || !got["e-001"] || !got["e-120"] {
			t.Fatalf("inserted %d: %v", len(got), got)
		}
		n, err := f.s.CountItemsInStages(f.ctx, p.ID, []flow.Stage{flow.StageLabel})
		must(t, err)
		equal(t, "items", n, int64(120))
		again, err := f.s.InsertNewItems(f.ctx, its[:3])
		if err != nil || len(again) != 0 {
			t.Fatalf("a second import of the same lines: %v, %v", again, err)
		}
	})
}

func TestItemChanges(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		it := f.item(p, "x", flow.StageLabel)
		read := func() *store.Item {
			t.Helper()
			got, err := f.s.Item(f.ctx, p.ID, it.ID)
			must(t, err)
			return got
		}
		for _, c := range []struct {
			name   string
			change func() error
			check  func(*store.Item) bool
		}{
			{"drop", func() error { return f.s.SetItemStage(f.ctx, it.ID, flow.StageDropped, new("spam")) },
				func(g *store.Item) bool { return g.Stage == flow.StageDropped && *g.DropReason == "spam" }},
			{"restore", func() error { return f.s.SetItemStage(f.ctx, it.ID, flow.StageLabel, nil) },
				func(g *store.Item) bool { return g.Stage == flow.StageLabel && g.DropReason == nil }},
			{"move", func() error {
				return f.s.MoveItem(f.ctx, it.ID, flow.StageDropped, new("off topic"), store.Event{ProjectID: p.ID, Action: "item.stage", Target: "item:" + it.ID})
			}, func(g *store.Item) bool { return g.Stage == flow.StageDropped && *g.DropReason == "off topic" }},
			{"move back", func() error {
				return f.s.MoveItem(f.ctx, it.ID, flow.StageLabel, nil, store.Event{ProjectID: p.ID, Action: "item.stage", Target: "item:" + it.ID})
			}, func(g *store.Item) bool { return g.Stage == flow.StageLabel && g.DropReason == nil }},
			{"pass", func() error {
				return f.s.SetItemPass(f.ctx, it.ID, 2, store.Event{ProjectID: p.ID, Action: "item.pass", Target: "item:" + it.ID})
			}, func(g *store.Item) bool { return g.Pass == 2 }},
			{"flag", func() error { return f.s.SetItemFlag(f.ctx, it.ID, store.JSON(`{"by":"u"}`)) },
				func(g *store.Item) bool { return string(g.Flag) == `{"by":"u"}` }},
			{"unflag", func() error { return f.s.SetItemFlag(f.ctx, it.ID, nil) }, func(g *store.Item) bool { return g.Flag == nil }},
			{"content", func() error {
				return f.s.UpdateItemContent(f.ctx, it.ID, store.JSON(`{"b":1}`), store.JSON(`{"k":"v"}`), "fr")
			},
				func(g *store.Item) bool {
					return string(g.Inputs) == `{"b":1}` && string(g.Meta) == `{"k":"v"}` && g.Language == "fr"
				}},
		} {
			before := read()
			must(t, c.change())
			after := read()
			if !c.check(after) || after.Version != before.Version+1 || after.UpdatedAt.Before(before.UpdatedAt) {
				t.Fatalf("%s: %+v (version %d before)", c.name, after, before.Version)
			}
		}
		evs, err := f.s.AuditEvents(f.ctx, p.ID, 10)
		must(t, err)
		var actions []string
		for _, e := range evs {
			actions = append(actions, e.Action)
		}
		slices.Sort(actions)
		equal(t, "events written with the moves and the pass", actions, []string{"item.pass", "item.stage", "item.stage"})
	})
}

func TestItemsPaging(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p, other := f.project(f.user("lead")), f.project(f.user("other"))
		its := f.items(p, "l", flow.StageLabel, 5)
		rev := f.item(p, "r", flow.StageReview)
		f.item(p, "pool", flow.StageCalibration)
		f.item(other, "o", flow.StageLabel)
		must(t, f.s.SetItemFlag(f.ctx, its[1].ID, store.JSON(`{}`)))
		must(t, f.s.SetItemFlag(f.ctx, rev.ID, store.JSON(`{}`)))
		yes, no := new(true), new(false)
		for _, c := range []struct {
			name string
			f    store.ItemFilter
			want []string
		}{
			{"first page", store.ItemFilter{Limit: 2}, idsOf(its[0], its[1])},
			{"next page", store.ItemFilter{After: its[1].ID, Limit: 2}, idsOf(its[2], its[3])},
			{"last page", store.ItemFilter{After: its[3].ID, Limit: 2}, idsOf(its[4], rev)},
			{"stage", store.ItemFilter{Stage: flow.StageReview, Limit: 10}, idsOf(rev)},
			{"flagged", store.ItemFilter{Flagged: yes, Limit: 10}, idsOf(its[1], rev)},
			{"not flagged, label", store.ItemFilter{Flagged: no, Stage: flow.StageLabel, Limit: 10}, idsOf(its[0], its[2], its[3], its[4])},
			{"external id", store.ItemFilter{ExternalID: "l-003", Limit: 10}, idsOf(its[2])},
		} {
			got, err := f.s.Items(f.ctx, p.ID, c.f)
			must(t, err)
			var ids []string
			for _, it := range got {
				ids = append(ids, it.ID)
			}
			equalIDs(t, c.name, ids, c.want...)
		}
		counts, err := f.s.ItemCounts(f.ctx, p.ID)
		must(t, err)
		equal(t, "counts", counts, []store.StageCount{
			{Stage: flow.StageLabel, Flagged: false, Count: 4}, {Stage: flow.StageLabel, Flagged: true, Count: 1},
			{Stage: flow.StageReview, Flagged: true, Count: 1},
		})
	})
}

func TestGroundTruth(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p := f.project(lead)
		its := f.items(p, "i", flow.StageAdjudicate, 2)
		must(t, f.s.SetItemStage(f.ctx, its[0].ID, flow.StageDropped, new("spam")))
		gt := &store.GroundTruth{ItemID: its[0].ID, Answers: store.JSON(`{"q":"a"}`), Provenance: flow.ProvenanceMajority, Texts: store.JSON(`{"t":["x"]}`)}
		must(t, f.s.DecideItem(f.ctx, gt, flow.StageDone, store.Event{ProjectID: p.ID, Action: "item.stage", Target: "item:" + its[0].ID}))
		equal(t, "first revision", gt.Revision, 1)
		got, err := f.s.Item(f.ctx, p.ID, its[0].ID)
		must(t, err)
		if got.Stage != flow.StageDone || got.DropReason != nil || got.GTRevision != 1 || got.Version != 3 {
			t.Fatalf("decided item %+v", got)
		}
		second := &store.GroundTruth{ItemID: its[0].ID, Answers: store.JSON(`{"q":"b"}`), Provenance: flow.ProvenanceAdjudicated, DecidedBy: &lead.ID, Rationale: new("clear")}
		must(t, f.s.AddGroundTruth(f.ctx, second))
		equal(t, "second revision", second.Revision, 2)
		must(t, f.s.AddGroundTruth(f.ctx, &store.GroundTruth{ItemID: its[1].ID, Answers: store.JSON(`{"q":"c"}`), Provenance: flow.ProvenanceSingle}))

		latest, err := f.s.LatestGroundTruth(f.ctx, idsOf(its...))
		must(t, err)
		if len(latest) != 2 || latest[its[0].ID].Revision != 2 || string(latest[its[0].ID].Answers) != `{"q":"b"}` ||
			*latest[its[0].ID].DecidedBy != lead.ID || latest[its[1].ID].Provenance != flow.ProvenanceSingle {
			t.Fatalf("latest ground truth %v", latest)
		}
		history, err := f.s.GroundTruthHistory(f.ctx, its[0].ID)
		must(t, err)
		if len(history) != 2 || history[0].Revision != 1 || string(history[0].Texts) != `{"t":["x"]}` || history[1].Revision != 2 {
			t.Fatalf("history %+v", history)
		}
		events, err := f.s.AuditEvents(f.ctx, p.ID, 10)
		must(t, err)
		if len(events) != 1 || events[0].Action != "item.stage" {
			t.Fatalf("audit %+v", events)
		}
	})
}

// TestDecideMissingItem: deciding an item that does not exist is ErrNotFound, and leaves no
// ground truth nor audit event behind (on PostgreSQL the event was written by the same
// statement that found no item).
func TestDecideMissingItem(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		gt := &store.GroundTruth{ItemID: "missing", Answers: store.JSON(`{}`), Provenance: flow.ProvenanceRule}
		err := f.s.DecideItem(f.ctx, gt, flow.StageDone, store.Event{ProjectID: p.ID, Action: "item.stage", Target: "item:missing"})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
		if err := f.s.AddGroundTruth(f.ctx, gt); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("ground truth of a missing item: %v, want ErrNotFound", err)
		}
		if n := f.countRows("audit_events", "project_id = "+f.ph(1), p.ID); n != 0 {
			t.Fatalf("%d audit events of a decision that found no item", n)
		}
	})
}

func TestPredictions(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		it := f.item(p, "x", flow.StageLabel)
		for _, pr := range []store.Prediction{
			{ItemID: it.ID, Model: "m2", ProjectID: p.ID, Answers: store.JSON(`{"q":1}`)},
			{ItemID: it.ID, Model: "m1", ProjectID: p.ID, Answers: store.JSON(`{"q":2}`)},
			{ItemID: it.ID, Model: "m2", ProjectID: p.ID, Answers: store.JSON(`{"q":3}`)},
		} {
			must(t, f.s.UpsertPrediction(f.ctx, &pr))
		}
		ps, err := f.s.Predictions(f.ctx, it.ID)
		must(t, err)
		if len(ps) != 2 || ps[0].Model != "m1" || ps[1].Model != "m2" || string(ps[1].Answers) != `{"q":3}` {
			t.Fatalf("predictions %+v", ps)
		}
		must(t, f.s.Analyze(f.ctx, "items", "predictions"))
		if err := f.s.Analyze(f.ctx, "users"); err == nil {
			t.Fatal("analyze of a table imports do not fill was accepted")
		}
	})
}
