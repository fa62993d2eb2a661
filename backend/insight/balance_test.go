package insight_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// balanceSchema has three binary questions (plain, a defect question, and one whose N/A stays
// open), a Likert scale and a free text.
const balanceSchema = `{"version": 1, "title": "balance",
 "inputs": [{"name": "prompt", "type": "text", "label": "Prompt"}],
 "questions": [
  {"key": "a", "kind": "binary", "label": "A"},
  {"key": "b", "kind": "binary", "label": "B", "yes_means": "defect"},
  {"key": "c", "kind": "binary", "label": "C", "allow_na": true},
  {"key": "score", "kind": "likert", "label": "Score", "min": 1, "max": 5},
  {"key": "why", "kind": "text", "label": "Why"}]}`

// decidedLine is an item line with constructed ground truth, its source and language.
func decidedLine(ext, a, b, c string, score int, source, lang string) string {
	extra := []string{fmt.Sprintf(`"meta": {"source": %q}`, source),
		fmt.Sprintf(`"ground_truth": {"provenance": "constructed", "answers": {"a": %q, "b": %q, "c": %q, "score": %d}}`, a, b, c, score)}
	if lang != "" {
		extra = append(extra, fmt.Sprintf(`"language": %q`, lang))
	}
	return line(ext, extra...)
}

// balanceFixture makes a project of balanceSchema with five decided items (satisfied after
// the mapping: x1 a b c, x2 a, x3 b, x4 a b c, x5 none; x2's c open) and one undecided.
func balanceFixture(t *testing.T, st *store.Store) *fixture {
	t.Helper()
	var s tasks.Schema
	if err := json.Unmarshal([]byte(balanceSchema), &s); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, st, projects.ProjectSpec{Schema: &s, Workflow: policy(1)})
	f.importItems(
		decidedLine("x1", "yes", "no", "yes", 5, "s1", "en"),
		decidedLine("x2", "yes", "yes", "na", 3, "s1", "en"),
		decidedLine("x3", "no", "no", "no", 3, "s2", "de"),
		decidedLine("x4", "yes", "no", "yes", 1, "s2", ""),
		decidedLine("x5", "no", "yes", "no", 4, "s1", "en"),
		line("open", `"meta": {"source": "s3"}`))
	return f
}

// TestBalanceFigures: the D3-Omni balance of five decided items counted by hand: each
// dimension's Yes, No and open N/A, the ratios, the score histogram and its spread, the
// correlations (agreement's, the perfectly coupled pair flagged), the Likert distribution in
// scale order, the metadata and language counts; the undecided item counts nowhere.
func TestBalanceFigures(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := balanceFixture(t, st)
		rep, err := f.in.Balance(f.ctx, f.project())
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != insight.AgreementReady || rep.ComputedAt == nil || rep.Items != 5 || rep.Binary == nil {
			t.Fatalf("report: %s, %d items, binary %v", rep.Status, rep.Items, rep.Binary)
		}
		b := rep.Binary
		want := []struct {
			key          string
			yes, no, ope int64
			ratio        float64
		}{{"a", 3, 2, 0, 2.0 / 3}, {"b", 3, 2, 0, 2.0 / 3}, {"c", 2, 2, 1, 1}}
		for i, w := range want {
			d := b.Dimensions[i]
			if d.Key != w.key || d.Yes != w.yes || d.No != w.no || d.Open != w.ope || d.MeetsRatio != nil {
				t.Errorf("dimension %d: %+v, want %+v", i, d, w)
			}
			near(t, w.key+" ratio", d.Ratio, w.ratio)
		}
		near(t, "min ratio", b.MinRatio, 2.0/3)
		// scores: x1 3, x2 1, x3 1, x4 3, x5 0
		if got := counts(b.Histogram); !slices.Equal(got, []int64{1, 2, 0, 2}) || b.Spread != 2 {
			t.Errorf("histogram %v, spread %d", got, b.Spread)
		}
		// a and c: x1 and x4 both satisfied, x3 and x5 neither (x2's c is open)
		corr := map[string]insight.Correlation{}
		for _, c := range b.Correlations {
			corr[c.A+c.B] = c
		}
		for pair, n := range map[string][4]int64{"ab": {2, 1, 1, 1}, "ac": {2, 0, 0, 2}, "bc": {2, 1, 0, 1}} {
			r, _ := agreement.BinaryCorrelation(n[0], n[1], n[2], n[3])
			near(t, "correlation "+pair, corr[pair].R, r)
			if corr[pair].Flagged != (pair == "ac") {
				t.Errorf("correlation %s flagged %v (r %v)", pair, corr[pair].Flagged, show(corr[pair].R))
			}
		}
		near(t, "correlation ac", corr["ac"].R, 1)
		if len(rep.Distributions) != 1 || rep.Distributions[0].Key != "score" ||
			!slices.Equal(rep.Distributions[0].Values, []insight.ValueCount{{"1", 1}, {"3", 2}, {"4", 1}, {"5", 1}}) {
			t.Errorf("distributions %+v", rep.Distributions)
		}
		if len(rep.Meta) != 1 || rep.Meta[0].Key != "source" || rep.Meta[0].Distinct != 2 || rep.Meta[0].Truncated ||
			!slices.Equal(rep.Meta[0].Values, []insight.ValueCount{{"s1", 3}, {"s2", 2}}) {
			t.Errorf("meta %+v", rep.Meta)
		}
		if !slices.Equal(rep.Languages, []insight.ValueCount{{"en", 3}, {"", 1}, {"de", 1}}) {
			t.Errorf("languages %+v", rep.Languages)
		}
		if len(rep.Positions) != 0 || rep.Readiness.Ready || rep.Readiness.RatioMet != nil || rep.Readiness.SpreadMet != nil {
			t.Errorf("positions %+v, readiness %+v", rep.Positions, rep.Readiness)
		}
	})
}

func counts(h []insight.ScoreBin) []int64 {
	out := make([]int64, len(h))
	for i, b := range h {
		if b.Score != i {
			return nil
		}
		out[i] = b.Count
	}
	return out
}

// TestBalanceTargets: targets apply when the figures are read. Under a ratio of 0.7 a and b
// need one more No each (the fewest n with (2+n)/3 > 0.7), and under a spread of 2 the empty
// bin needs one item; with a ratio of 0.5 and a spread of 3 the project is ready.
func TestBalanceTargets(t *testing.T) {
	f := balanceFixture(t, openSQLite(t))
	setTargets := func(ratio float64, spread int64) *insight.BalanceReport {
		t.Helper()
		sp, err := f.st.Project(f.ctx, f.pid)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.proj.PatchProject(f.ctx, f.lead.ID, sp, store.RoleSet{store.RoleLead},
			projects.ProjectPatch{Balance: &workflow.BalanceTargets{Ratio: &ratio, Spread: &spread}}); err != nil {
			t.Fatal(err)
		}
		rep, err := f.in.Balance(f.ctx, f.project())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := setTargets(0.7, 2)
	r := rep.Readiness
	if r.Ready || r.RatioMet == nil || *r.RatioMet || r.SpreadMet == nil || *r.SpreadMet ||
		!slices.Equal(r.NeedMoreNo, []string{"a", "b"}) || !slices.Equal(r.BinsNeedItems, []int{2}) {
		t.Fatalf("readiness %+v", r)
	}
	for _, d := range rep.Binary.Dimensions {
		if wantNeed := map[string]int64{"a": 1, "b": 1, "c": 0}[d.Key]; *d.NeedsNo != wantNeed || *d.MeetsRatio != (wantNeed == 0) {
			t.Errorf("%s: meets %v, needs %d", d.Key, *d.MeetsRatio, *d.NeedsNo)
		}
	}
	for _, h := range rep.Binary.Histogram {
		if want := map[int]int64{2: 1}[h.Score]; h.Needs == nil || *h.Needs != want {
			t.Errorf("bin %d needs %v, want %d", h.Score, h.Needs, want)
		}
	}
	if rep.Targets.Ratio == nil || *rep.Targets.Ratio != 0.7 {
		t.Errorf("targets %+v", rep.Targets)
	}
	if r := setTargets(0.5, 3).Readiness; !r.Ready || !*r.RatioMet || !*r.SpreadMet || len(r.NeedMoreNo) != 0 || len(r.BinsNeedItems) != 0 {
		t.Fatalf("readiness with looser targets %+v", r)
	}
}

// TestBalancePositionBias: on a pairwise project whose annotators always pick the output shown
// first (and tie once), the position counts are theirs whatever the shuffle, and the output
// counts are the stored (canonical) answers; a project without binary questions has no
// binary balance.
func TestBalancePositionBias(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, projects.ProjectSpec{Template: "pairwise-preference", Workflow: policy(2)})
		people := f.annotators("Ann", "Ben")
		var lines []string
		for i := range 6 {
			lines = append(lines, fmt.Sprintf(`{"external_id": "p%d", "inputs": {"prompt": "Which is better?", "responses": `+
				`[{"id": "a%d", "type": "text", "value": "first"}, {"id": "b%d", "type": "text", "value": "second"}]}}`, i, i, i))
		}
		f.importItems(lines...)
		p := f.project()
		outputs := map[string]int64{}
		for k, u := range people {
			w := workflow.Worker{ID: u.ID, Roles: store.RoleSet{store.RoleAnnotator}}
			for n := 0; ; n++ {
				c, err := f.wf.Next(f.ctx, p, u, w.Roles, flow.StageLabel, false)
				if err != nil {
					t.Fatal(err)
				}
				if c == nil {
					break
				}
				pick := "A"
				if k == 1 && n == 0 {
					pick = "tie"
				}
				res, err := f.wf.Submit(f.ctx, p, w, c.Assignment.ID, workflow.Submission{Answers: answers("preference", pick)})
				if err != nil {
					t.Fatal(err)
				}
				var stored tasks.Answers
				json.Unmarshal(res.Assignment.Answers, &stored)
				var out string
				json.Unmarshal(stored["preference"], &out)
				outputs[out]++
			}
		}
		rep, err := f.in.Balance(f.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Binary != nil || len(rep.Positions) != 1 {
			t.Fatalf("binary %+v, positions %+v", rep.Binary, rep.Positions)
		}
		pb := rep.Positions[0]
		if pb.Key != "preference" || pb.Labels != 12 {
			t.Fatalf("position bias %+v", pb)
		}
		wantPos := []insight.ShareCount{{"A", 11, 11.0 / 12}, {"B", 0, 0}, {"tie", 1, 1.0 / 12}}
		if !slices.Equal(pb.Positions, wantPos) {
			t.Errorf("positions %+v, want %+v", pb.Positions, wantPos)
		}
		for i, v := range []string{"A", "B", "tie"} {
			if o := pb.Outputs[i]; o.Value != v || o.Count != outputs[v] || o.Share != float64(outputs[v])/12 {
				t.Errorf("output %+v, stored %d", o, outputs[v])
			}
		}
	})
}

// TestBalanceMetaCap: a metadata key with more than a hundred values (an id, say) is reported
// truncated, without its values; a number is counted by its JSON text.
func TestBalanceMetaCap(t *testing.T) {
	f := balanceFixture(t, openSQLite(t))
	var lines []string
	for i := range 101 {
		lines = append(lines, line(fmt.Sprintf("m%03d", i), fmt.Sprintf(`"meta": {"seq": "n%d", "kind": 7}`, i),
			`"ground_truth": {"provenance": "constructed", "answers": {"a": "yes", "b": "no", "c": "yes", "score": 2}}`))
	}
	f.importItems(lines...)
	rep, err := f.in.Balance(f.ctx, f.project())
	if err != nil {
		t.Fatal(err)
	}
	meta := map[string]insight.MetaCounts{}
	for _, m := range rep.Meta {
		meta[m.Key] = m
	}
	if m := meta["seq"]; !m.Truncated || m.Distinct != 101 || len(m.Values) != 0 {
		t.Errorf("seq %+v", m)
	}
	if m := meta["kind"]; m.Truncated || !slices.Equal(m.Values, []insight.ValueCount{{"7", 101}}) {
		t.Errorf("kind %+v", m)
	}
	if m := meta["source"]; !slices.Equal(m.Values, []insight.ValueCount{{"s1", 3}, {"s2", 2}}) {
		t.Errorf("source %+v", m)
	}
}

// TestBalanceChecklistAspects: each aspect of a checklist has its own distribution, named by
// the question and the aspect.
func TestBalanceChecklistAspects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		var s tasks.Schema
		if err := json.Unmarshal([]byte(`{"version": 1, "inputs": [{"name": "prompt", "type": "text"}],
 "questions": [{"key": "pa", "kind": "checklist", "label": "PA checklist", "items": [
  {"key": "agent", "label": "Agent consistency", "max": 2}, {"key": "scene", "label": "Scene consistency", "max": 2}]}]}`), &s); err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, st, projects.ProjectSpec{Schema: &s, Workflow: policy(1)})
		f.importItems(line("k1", `"ground_truth": {"provenance": "constructed", "answers": {"pa": {"agent": 2, "scene": 1}}}`))
		rep, err := f.in.Balance(f.ctx, f.project())
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, d := range rep.Distributions {
			labels = append(labels, d.Key+": "+d.Label)
		}
		if want := []string{"pa/agent: PA checklist · Agent consistency", "pa/scene: PA checklist · Scene consistency"}; !slices.Equal(labels, want) {
			t.Errorf("distributions %q, want %q", labels, want)
		}
	})
}
