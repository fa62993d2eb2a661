package store_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// decide gives an item ground truth with these answers (a new revision each call).
func (f *fixture) decide(it *store.Item, answers string) {
	f.t.Helper()
	must(f.t, f.s.AddGroundTruth(f.ctx, &store.GroundTruth{ItemID: it.ID, Answers: store.JSON(answers), Provenance: flow.ProvenanceMajority}))
}

func withMeta(meta string) func(*store.Item) {
	return func(it *store.Item) { it.Meta = store.JSON(meta) }
}

// TestTruthReads: the walks over a project's items and ground truth that exports and figures
// read, in external id order, with the newest ground truth, gold and the pool left out.
func TestTruthReads(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p, other := f.project(f.user("lead")), f.project(f.user("other"))
		c := f.item(p, "c", flow.StageDone, withMeta(`{"k":"x"}`), inLanguage("en"))
		a := f.item(p, "a", flow.StageDone, withMeta(`{"k":"x"}`), inLanguage("en"))
		b := f.item(p, "b", flow.StageDropped)
		f.item(p, "d", flow.StageLabel)
		e := f.item(p, "e", flow.StageDone, withMeta(`{"k":"y"}`))
		f.item(p, "g", flow.StageGold)
		f.item(p, "pool", flow.StageCalibration)
		f.item(other, "a", flow.StageDone)
		f.decide(a, `{"q":"old"}`)
		f.decide(a, `{"q":"yes"}`)
		f.decide(c, `{"q":"yes"}`)
		f.decide(e, `{"q":"no"}`)
		must(t, f.s.SetItemStage(f.ctx, b.ID, flow.StageDropped, new("spam")))

		var rows []string
		must(t, f.s.EachTruth(f.ctx, p.ID, func(r *store.TruthRow) error {
			line := r.ExternalID + " " + string(r.Stage) + " " + string(r.Answers)
			if r.Provenance != nil {
				line += " " + string(*r.Provenance)
			}
			if r.DropReason != nil {
				line += " " + *r.DropReason
			}
			rows = append(rows, line)
			return nil
		}))
		equal(t, "truth rows", rows, []string{`a done {"q":"yes"} majority`, "b dropped  spam", `c done {"q":"yes"} majority`, "d label ", `e done {"q":"no"} majority`})
		stop := errors.New("stop")
		n := 0
		if err := f.s.EachTruth(f.ctx, p.ID, func(*store.TruthRow) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Fatalf("a walk stopped by its function: %v after %d rows", err, n)
		}

		groups := map[string]int64{}
		must(t, f.s.EachDoneTruthGroup(f.ctx, p.ID, func(g *store.TruthGroup) error {
			groups[string(g.Answers)+" "+string(g.Meta)+" "+g.Language] = g.Items
			return nil
		}))
		equal(t, "done truth groups", groups, map[string]int64{`{"q":"yes"} {"k":"x"} en`: 2, `{"q":"no"} {"k":"y"} `: 1})

		var decided []string
		must(t, f.s.EachDecidedTruth(f.ctx, p.ID, func(r *store.DecidedTruth) error {
			decided = append(decided, r.ExternalID+" "+string(r.Meta)+" "+string(r.Answers)) // copies
			return nil
		}))
		equal(t, "decided truth", decided, []string{`a {"k":"x"} {"q":"yes"}`, `c {"k":"x"} {"q":"yes"}`, `e {"k":"y"} {"q":"no"}`})
		if err := f.s.EachDecidedTruth(f.ctx, p.ID, func(*store.DecidedTruth) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("a walk stopped by its function: %v", err)
		}
	})
}

func TestPredictionWalks(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p, other := f.project(f.user("lead")), f.project(f.user("other"))
		its := f.items(p, "i", flow.StageDone, 2)
		elsewhere := f.item(other, "o", flow.StageDone)
		for _, pr := range []store.Prediction{
			{ItemID: its[1].ID, Model: "b", ProjectID: p.ID, Answers: store.JSON(`1`)},
			{ItemID: its[0].ID, Model: "b", ProjectID: p.ID, Answers: store.JSON(`2`)},
			{ItemID: its[0].ID, Model: "a", ProjectID: p.ID, Answers: store.JSON(`3`)},
			{ItemID: elsewhere.ID, Model: "a", ProjectID: other.ID, Answers: store.JSON(`4`)},
		} {
			must(t, f.s.UpsertPrediction(f.ctx, &pr))
		}
		want := []string{its[0].ID + " a 3", its[0].ID + " b 2", its[1].ID + " b 1"}
		var got []string
		must(t, f.s.EachPrediction(f.ctx, p.ID, func(pr *store.Prediction) error {
			got = append(got, pr.ItemID+" "+pr.Model+" "+string(pr.Answers))
			return nil
		}))
		equal(t, "predictions", got, want)
		got = nil
		must(t, f.s.EachPredictionAnswers(f.ctx, p.ID, func(pr *store.PredictionAnswers) error {
			got = append(got, string(pr.ItemID)+" "+string(pr.Model)+" "+string(pr.Answers))
			return nil
		}))
		equal(t, "prediction answers", got, want)
		stop := errors.New("stop")
		if err := f.s.EachPrediction(f.ctx, p.ID, func(*store.Prediction) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("EachPrediction stopped: %v", err)
		}
		if err := f.s.EachPredictionAnswers(f.ctx, p.ID, func(*store.PredictionAnswers) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("EachPredictionAnswers stopped: %v", err)
		}
	})
}

func TestDoneItemsWithoutMeta(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		for _, c := range []struct {
			meta  string
			stage flow.Stage
			truth bool
		}{
			{`{"a.b":1,"k":"v"}`, flow.StageDone, true},
			{`{"a":{"b":1}}`, flow.StageDone, true},
			{"", flow.StageDone, true},
			{`{"a.b":null}`, flow.StageDone, true},
			{`{}`, flow.StageDone, false},   // no ground truth
			{`{}`, flow.StageLabel, true},   // not decided
			{`{}`, flow.StageDropped, true}, // not decided
		} {
			it := f.item(p, unique("i"), c.stage, withMeta(c.meta))
			if c.truth {
				f.decide(it, `{}`)
			}
		}
		for key, want := range map[string]int64{"a.b": 3, "k": 3, "a": 3, `"odd'key`: 4} {
			n, err := f.s.DoneItemsWithoutMeta(f.ctx, p.ID, key)
			must(t, err)
			equal(t, "decided items without "+key, n, want)
		}
	})
}

func TestSeedFamily(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p, other := f.project(f.user("lead")), f.project(f.user("other"))
		f.item(p, "n2", flow.StageLabel, withMeta(`{"seed_id":"s1","is_seed":false}`))
		f.item(p, "n1", flow.StageDone, withMeta(`{"seed_id":"s1"}`))
		f.item(p, "s", flow.StageLabel, withMeta(`{"seed_id":"s1","is_seed":true}`))
		f.item(p, "x", flow.StageLabel, withMeta(`{"seed_id":"s2"}`))
		f.item(p, "y", flow.StageLabel)
		f.item(other, "o", flow.StageLabel, withMeta(`{"seed_id":"s1"}`))
		rows, err := f.s.SeedFamily(f.ctx, p.ID, "s1", 10)
		must(t, err)
		var got []string
		for _, r := range rows {
			got = append(got, r.ExternalID+" "+string(r.Stage))
		}
		equal(t, "family", got, []string{"n1 done", "n2 label", "s label"})
		if rows, _ := f.s.SeedFamily(f.ctx, p.ID, "s1", 2); len(rows) != 2 {
			t.Fatalf("a family up to 2: %d", len(rows))
		}

		// a seed id written as a JSON number is the seed named by its text, as on PostgreSQL
		f.item(p, "m1", flow.StageLabel, withMeta(`{"seed_id":7}`))
		f.item(p, "m2", flow.StageLabel, withMeta(`{"seed_id":"7"}`))
		f.item(p, "m3", flow.StageLabel, withMeta(`{"seed_id":70}`))
		rows, err = f.s.SeedFamily(f.ctx, p.ID, "7", 10)
		must(t, err)
		got = nil
		for _, r := range rows {
			got = append(got, r.ExternalID)
		}
		equal(t, "numbered family", got, []string{"m1", "m2"})
	})
}

// TestFiguresRequests: a figures job is requested once while one is pending, and again once
// the pending one is stale or its figures are stored; storing keeps the time of the request.
func TestFiguresRequests(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		p := f.project(f.user("lead"))
		t0 := time.Now().UTC().Truncate(time.Second)
		at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
		request := func(t *testing.T, when, after time.Time) bool {
			ok, err := f.s.RequestFigures(f.ctx, p.ID, "balance", when, after)
			must(t, err)
			return ok
		}
		if _, err := f.s.FiguresResult(f.ctx, p.ID, "balance"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("figures never computed: %v", err)
		}
		for i, c := range []struct {
			name        string
			when, after time.Time
			want        bool
		}{
			{"first request", at(1), at(0), true},
			{"while it is pending", at(2), at(0), false},
			{"once it is stale", at(3), at(2), true},
			{"while the new one is pending", at(4), at(2), false},
		} {
			if got := request(t, c.when, c.after); got != c.want {
				t.Fatalf("%d %s: requested %v, want %v", i, c.name, got, c.want)
			}
		}
		must(t, f.s.PutFiguresResult(f.ctx, &store.FiguresResult{ProjectID: p.ID, Kind: "balance", DataKey: "k1", Result: store.JSON(`{"n":1}`), ComputedAt: new(at(5))}))
		got, err := f.s.FiguresResult(f.ctx, p.ID, "balance")
		must(t, err)
		if got.DataKey != "k1" || string(got.Result) != `{"n":1}` || !got.ComputedAt.Equal(at(5)) || got.RequestedAt == nil || !got.RequestedAt.Equal(at(3)) {
			t.Fatalf("stored figures %+v", got)
		}
		if !request(t, at(6), at(0)) {
			t.Fatal("a request after the figures were stored was refused")
		}
		must(t, f.s.PutFiguresResult(f.ctx, &store.FiguresResult{ProjectID: p.ID, Kind: "report", DataKey: "k", ComputedAt: new(at(7))}))
		if got, _ := f.s.FiguresResult(f.ctx, p.ID, "report"); got.RequestedAt != nil || got.DataKey != "k" {
			t.Fatalf("figures stored unasked %+v", got)
		}
	})
}

// TestFiguresKey: the fingerprint of a project's figures moves with each of its parts.
func TestFiguresKey(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p := f.project(lead)
		key := func() string {
			t.Helper()
			k, err := f.s.FiguresKey(f.ctx, p.ID)
			must(t, err)
			return k
		}
		equal(t, "empty project", key(), "items=- predictions=- submits=- criteria=-")
		it := f.item(p, "x", flow.StageLabel)
		parts := func(k string) map[string]string {
			out := map[string]string{}
			for _, kv := range strings.Fields(k) {
				name, v, _ := strings.Cut(kv, "=")
				out[name] = v
			}
			return out
		}
		last := parts(key())
		if last["items"] == "-" || last["predictions"] != "-" {
			t.Fatalf("key after an import %v", last)
		}
		for _, c := range []struct {
			part   string
			change func()
		}{
			{"predictions", func() {
				must(t, f.s.UpsertPrediction(f.ctx, &store.Prediction{ItemID: it.ID, Model: "m", ProjectID: p.ID, Answers: store.JSON(`{}`)}))
			}},
			{"submits", func() { f.assign(it, lead, flow.StageLabel, flow.AssignSubmitted) }},
			{"criteria", func() {
				must(t, f.s.CreateCriterion(f.ctx, &store.Criterion{ProjectID: p.ID, ItemID: it.ID, AssignmentID: "a", AuthorID: lead.ID, Text: "t", Status: flow.CriterionPending}))
			}},
			{"items", func() { must(t, f.s.SetItemStage(f.ctx, it.ID, flow.StageReview, nil)) }},
		} {
			time.Sleep(2 * time.Millisecond)
			c.change()
			now := parts(key())
			for name, v := range now {
				if changed := v != last[name]; changed != (name == c.part) {
					t.Fatalf("after a change of %s, %s went from %q to %q", c.part, name, last[name], v)
				}
			}
			last = now
		}
	})
}

// bulk fills p with n decided items (ids and external ids numbered in order), each with ground
// truth and one prediction, and the first labels of them with a submitted label of u, in a few
// statements.
func (f *fixture) bulk(p *store.Project, u *store.User, n, labels int) {
	f.t.Helper()
	pad := "printf('%06d', i)"
	if f.pg() {
		pad = "lpad(i::text, 6, '0')"
	}
	series := func(n int) string {
		return fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)\n", n)
	}
	id := "%s || '-' || " + pad
	for i, q := range []string{
		`INSERT INTO items (id, project_id, external_id, inputs, stage, gt_revision, created_at, updated_at)
SELECT ` + fmt.Sprintf(id, "'"+p.ID+"'") + `, '` + p.ID + `', 'e' || ` + pad + `, '{}', 'done', 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM n`,
		`INSERT INTO ground_truth_revisions (item_id, revision, answers, provenance, created_at)
SELECT ` + fmt.Sprintf(id, "'"+p.ID+"'") + `, 1, '{}', 'single', CURRENT_TIMESTAMP FROM n`,
		`INSERT INTO predictions (item_id, model, project_id, answers, created_at)
SELECT ` + fmt.Sprintf(id, "'"+p.ID+"'") + `, 'm', '` + p.ID + `', '{}', CURRENT_TIMESTAMP FROM n`,
		`INSERT INTO assignments (id, project_id, item_id, user_id, stage, status, schema_version, seed, lease_expires_at, answers, created_at, submitted_at)
SELECT ` + fmt.Sprintf(id, "'a"+p.ID+"'") + `, '` + p.ID + `', ` + fmt.Sprintf(id, "'"+p.ID+"'") + `, '` + u.ID + `', 'label', 'submitted', 0, 0,
  CURRENT_TIMESTAMP, '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM n`,
	} {
		if i == 3 {
			n = labels
		}
		f.exec(series(n) + q)
	}
}

// TestWalksCrossPages: the walks that read a project a page at a time give every row once, in
// order, across the pages' boundaries (10,000 items and predictions, 5,000 labels a page).
func TestWalksCrossPages(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p := f.project(lead)
		const n, labels = 10001, 5001
		f.bulk(p, lead, n, labels)
		for _, c := range []struct {
			name string
			walk func(visit func(key string)) error
			rows int
		}{
			{"truth", func(visit func(string)) error {
				return f.s.EachTruth(f.ctx, p.ID, func(r *store.TruthRow) error { visit(r.ExternalID); return nil })
			}, n},
			{"decided truth", func(visit func(string)) error {
				return f.s.EachDecidedTruth(f.ctx, p.ID, func(r *store.DecidedTruth) error { visit(r.ExternalID); return nil })
			}, n},
			{"predictions", func(visit func(string)) error {
				return f.s.EachPrediction(f.ctx, p.ID, func(pr *store.Prediction) error { visit(pr.ItemID); return nil })
			}, n},
			{"prediction answers", func(visit func(string)) error {
				return f.s.EachPredictionAnswers(f.ctx, p.ID, func(pr *store.PredictionAnswers) error { visit(string(pr.ItemID)); return nil })
			}, n},
			{"production labels", func(visit func(string)) error {
				return f.s.EachProductionLabel(f.ctx, p.ID, false, func(r *store.LabelRow) error { visit(r.ID); return nil })
			}, labels},
		} {
			count, last := 0, ""
			err := c.walk(func(key string) {
				if key <= last {
					t.Fatalf("%s: %q after %q", c.name, key, last)
				}
				count, last = count+1, key
			})
			must(t, err)
			equal(t, c.name+" rows", count, c.rows)
		}
	})
}
