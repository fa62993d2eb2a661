package workflow_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func goldLine(id string, quality int) string {
	return fmt.Sprintf(`{"external_id":%q,"gold":true,"inputs":{"prompt":"gold %s","output":[{"id":"g","type":"text","value":"v"}]},"ground_truth":{"answers":{"quality":%d}}}`, id, id, quality)
}

// TestGoldScoring: gold items are handed out among label work at the gold rate, scored against
// their gold answers, never decided; an annotator whose accuracy over the window falls below
// the minimum is paused until a lead lifts it, which starts the window over.
func TestGoldScoring(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{GoldRate: 1, GoldWindow: 5, GoldMinAccuracy: 0.8, GoldPause: true,
			Consensus: workflow.Consensus{OrdinalTolerance: 1}})
		f.importItems(p, likertLine("g-p1"), likertLine("g-p2"))
		for i := range 6 {
			f.importItems(p, goldLine(fmt.Sprintf("g-%d", i), 4))
		}
		ann := f.member(p, store.RoleAnnotator)
		pr, err := f.wf.MyProgress(f.ctx, p, ann.ID)
		if err != nil || pr[0].Available != 8 {
			t.Fatalf("available label work %+v %v, want 2 items and 6 gold", pr, err)
		}

		answers := []struct {
			score   string
			correct bool
		}{
			{`{"quality":4}`, true},
			{`{"quality":5}`, true}, // within the tolerance
			{`{"quality":1}`, false},
			{`{"quality":"na"}`, false},
			{`{"quality":2}`, false},
		}
		for i, a := range answers {
			c := f.claim(p, ann, flow.StageLabel)
			if it := f.itemByID(p, c.Assignment.ItemID); it.Stage != flow.StageGold {
				t.Fatalf("claim %d at gold rate 1 gave a %s item", i+1, it.Stage)
			}
			res := f.submit(p, ann, c, workflow.Submission{Answers: ans(a.score)})
			if res.ItemStage != flow.StageDone {
				t.Fatalf("a gold label reports %s, want what a production label would", res.ItemStage)
			}
			got := f.assignment(c.Assignment.ID)
			if got.GoldCorrect == nil || *got.GoldCorrect != a.correct {
				t.Fatalf("gold answer %d (%s) scored %v, want %v", i+1, a.score, got.GoldCorrect, a.correct)
			}
			if it := f.itemByID(p, c.Assignment.ItemID); it.Stage != flow.StageGold || f.truth(it) != nil {
				t.Fatalf("a gold item was decided: %s", it.Stage)
			}
			m, _ := f.st.Member(f.ctx, p.ID, ann.ID)
			if want := i == len(answers)-1; m.Paused != want {
				t.Fatalf("after %d gold answers paused %v, want %v", i+1, m.Paused, want)
			}
		}
		if !f.audited(p, "member.pause") {
			t.Fatal("the pause is not audited")
		}
		_, err = f.wf.Next(f.ctx, p, ann.User, ann.roles, flow.StageLabel, false)
		wantErr(t, err, workflow.ErrPaused)

		if err := f.st.SetMemberPaused(f.ctx, p.ID, ann.ID, false); err != nil {
			t.Fatal(err)
		}
		f.advance(time.Minute) // note: the lift starts the window at the store's clock
		c := f.claim(p, ann, flow.StageLabel)
		f.submit(p, ann, c, workflow.Submission{Answers: ans(`{"quality":1}`)})
		if m, _ := f.st.Member(f.ctx, p.ID, ann.ID); m.Paused {
			t.Fatal("one wrong answer after the pause was lifted paused again: the window did not start over")
		}
		if it := f.itemByID(p, f.claim(p, ann, flow.StageLabel).Assignment.ItemID); it.Stage != flow.StageLabel {
			t.Fatalf("with every gold item answered the claim gave a %s item", it.Stage)
		}
	})
}

// TestGoldReportedStage: the answer to a gold submit names the stage a production label would
// have moved its item to, so that gold cannot be told apart.
func TestGoldReportedStage(t *testing.T) {
	cases := []struct {
		pol  workflow.Policy
		want flow.Stage
	}{
		{workflow.Policy{Review: workflow.ReviewCross}, flow.StageReview},
		{workflow.Policy{Overlap: 3}, flow.StageLabel},
		{workflow.Policy{Adjudication: workflow.AdjudicateAlways}, flow.StageAdjudicate},
		{workflow.Policy{}, flow.StageDone},
	}
	forEachBackend(t, func(t *testing.T, f *fixture) {
		for _, tc := range cases {
			tc.pol.GoldRate = 1
			p := f.template("likert-rating", tc.pol)
			f.importItems(p, likertLine("rs-1"), goldLine("rs-g", 3))
			ann := f.member(p, store.RoleAnnotator)
			res := f.label(p, ann, `{"quality":3}`)
			if it := f.itemByID(p, res.Assignment.ItemID); it.Stage != flow.StageGold {
				t.Fatalf("%+v: no gold handed out", tc.pol)
			}
			if res.ItemStage != tc.want || res.Assignment.ReviewStatus != flow.ReviewNone {
				t.Errorf("%+v: gold submit reports %s (review %s), want %s", tc.pol, res.ItemStage, res.Assignment.ReviewStatus, tc.want)
			}
		}
	})
}

// TestJudgeWindow: a window is judged once it holds five answers (or the whole window when it
// is smaller), and is below when its accuracy is under the minimum.
func TestJudgeWindow(t *testing.T) {
	cases := []struct {
		window  int
		results []bool
		judged  bool
		below   bool
	}{
		{20, nil, false, false},
		{20, []bool{false, false, false, false}, false, false},
		{20, []bool{false, false, false, false, false}, true, true},
		{20, []bool{true, true, true, true, false}, true, false},
		{20, []bool{true, true, true, false, false}, true, true},
		{3, []bool{false, true, true}, true, true},
		{2, []bool{true, true}, true, false},
	}
	for _, tc := range cases {
		p := &workflow.Project{Policy: workflow.Policy{GoldWindow: tc.window, GoldMinAccuracy: 0.8}}
		g := p.JudgeWindow(tc.results)
		if g.Answered != len(tc.results) || g.Judged != tc.judged || g.Below != tc.below {
			t.Errorf("window %d %v: %+v, want judged %v below %v", tc.window, tc.results, g, tc.judged, tc.below)
		}
		correct := 0
		for _, ok := range tc.results {
			if ok {
				correct++
			}
		}
		switch acc := g.Accuracy(); {
		case len(tc.results) == 0 && acc != nil:
			t.Errorf("accuracy %v without answers", *acc)
		case len(tc.results) > 0 && *acc != float64(correct)/float64(len(tc.results)):
			t.Errorf("accuracy %v, want %d/%d", *acc, correct, len(tc.results))
		}
	}
}

// TestGoldRetriesAndPassesReportedStage: a retried gold submit and the submit of a gold item's
// first pass answer as a production item's would, never with the gold stage.
func TestGoldRetriesAndPassesReportedStage(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{GoldRate: 1, Overlap: 2})
		f.importItems(p, likertLine("rr-1"), goldLine("rr-g", 3))
		ann := f.member(p, store.RoleAnnotator)
		c := f.claim(p, ann, flow.StageLabel)
		in := workflow.Submission{Answers: ans(`{"quality":3}`), IdempotencyKey: "gold-1"}
		first := f.submit(p, ann, c, in)
		again := f.submit(p, ann, c, in)
		if it := f.itemByID(p, c.Assignment.ItemID); it.Stage != flow.StageGold {
			t.Fatalf("no gold handed out: %s", it.Stage)
		}
		if !again.Replayed || again.ItemStage != first.ItemStage || again.ItemStage != flow.StageLabel {
			t.Fatalf("retried gold submit reports %s (replayed %v), the first %s", again.ItemStage, again.Replayed, first.ItemStage)
		}

		pp := f.passProject(tasks.PassSamePerson, workflow.Policy{GoldRate: 1})
		f.importItems(pp, passLine("rr-p1"),
			`{"external_id":"rr-pg","gold":true,"inputs":{"video":"gold rollout","instruction":"x"},"ground_truth":{"answers":{"physics":4,"alignment":3}}}`)
		pa := f.member(pp, store.RoleAnnotator)
		pc := f.claim(pp, pa, flow.StageLabel)
		if it := f.itemByID(pp, pc.Assignment.ItemID); it.Stage != flow.StageGold {
			t.Fatalf("no gold handed out in passes: %s", it.Stage)
		}
		pin := workflow.Submission{Answers: ans(`{"physics":4}`), IdempotencyKey: "gold-pass-1"}
		for _, res := range []*workflow.Result{f.submit(pp, pa, pc, pin), f.submit(pp, pa, pc, pin)} {
			if res.NextPass == nil || res.ItemStage != flow.StageLabel {
				t.Fatalf("gold pass submit reports %s, next pass %+v", res.ItemStage, res.NextPass)
			}
		}
	})
}

// TestGoldDraftedAsProduction: with drafts from predictions, a gold item that has no
// predictions of its own is claimed prefilled, with a draft made from another item's
// predictions, as production items are: the claim views of gold and production carry the same
// fields and the same draft source, and the lead's record says the gold draft was a decoy.
// (Gold claims used to carry no draft and a null draft_source.)
func TestGoldDraftedAsProduction(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{GoldRate: 1, DraftFromPredictions: &workflow.DraftPolicy{Method: workflow.DraftMean}})
		var preds []string
		drafts := map[string]bool{}
		for i := range 4 {
			id := fmt.Sprintf("pd-%d", i)
			f.importItems(p, likertLine(id))
			preds = append(preds, fmt.Sprintf(`{"external_id":%q,"model":"judge","answers":{"quality":%d}}`, id, 1+i))
			drafts[fmt.Sprint(1+i)] = true
		}
		if rep, err := f.imp.ImportPredictions(f.ctx, p, f.lead.ID, strings.NewReader(strings.Join(preds, "\n")), nil); err != nil || rep.Imported != 4 {
			t.Fatalf("predictions %+v %v", rep, err)
		}
		for i := range 3 {
			f.importItems(p, goldLine(fmt.Sprintf("gd-%d", i), 3))
		}
		ann := f.member(p, store.RoleAnnotator)
		shapes := map[bool]string{}
		for i := range 5 { // note: at gold rate 1 the three gold items come first
			c := f.claim(p, ann, flow.StageLabel)
			gold := f.itemByID(p, c.Assignment.ItemID).Stage == flow.StageGold
			if gold != (i < 3) {
				t.Fatalf("claim %d gold %v", i, gold)
			}
			if c.DraftSource == nil || *c.DraftSource != workflow.DraftPrefilled || !drafts[string(c.Draft["quality"])] {
				t.Fatalf("claim %d (gold %v): draft %v, source %v", i, gold, c.Draft, c.DraftSource)
			}
			b, _ := json.Marshal(workflow.ClaimViewOf(c))
			if s := shape(b); shapes[gold] == "" {
				shapes[gold] = s
			} else if shapes[gold] != s {
				t.Fatalf("claim views of one kind differ: %s and %s", shapes[gold], s)
			}
			stored := f.assignment(c.Assignment.ID).DraftSource
			if want := map[bool]string{true: "decoy:predictions:mean", false: "predictions:mean"}[gold]; stored == nil || *stored != want {
				t.Fatalf("stored draft source %v, want %s", stored, want)
			}
			f.submit(p, ann, c, workflow.Submission{Answers: ans(`{"quality":3}`)})
		}
		if shapes[true] != shapes[false] {
			t.Fatalf("gold and production claim views differ:\ngold       %s\nproduction %s", shapes[true], shapes[false])
		}
	})
}

// shape is a JSON value with every string, number and boolean replaced by its type, and the
// same for the values inside, so that two values of one shape compare equal.
func shape(b []byte) string {
	var v any
	json.Unmarshal(b, &v)
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				if k == "context" || k == "item" { // note: an item's view has the shape of its inputs
					out[k] = "…"
					continue
				}
				out[k] = walk(e)
			}
			return out
		case []any:
			if len(x) == 0 {
				return "[]"
			}
			return []any{walk(x[0])}
		case nil:
			return "null"
		default:
			return fmt.Sprintf("%T", x)
		}
	}
	out, _ := json.Marshal(walk(v))
	return string(out)
}
