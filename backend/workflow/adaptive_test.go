package workflow

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestPosteriors: an item's posterior per question comes from the kept model where there is
// one (each annotator's confusion matrix and the prior), and from a uniform prior with every
// annotator right at the fallback accuracy where there is none; free text is not modelled.
func TestPosteriors(t *testing.T) {
	var schema tasks.Schema
	if err := json.Unmarshal([]byte(`{"version": 1, "inputs": [{"name": "prompt", "type": "text"}], "questions": [
	  {"key": "ok", "kind": "binary", "label": "OK"},
	  {"key": "score", "kind": "likert", "label": "Score", "min": 1, "max": 3},
	  {"key": "notes", "kind": "text", "label": "Notes"}]}`), &schema); err != nil {
		t.Fatal(err)
	}
	label := func(by, ok string, score int) Label {
		b, _ := json.Marshal(score)
		return Label{By: by, Answers: tasks.Answers{"ok": json.RawMessage(`"` + ok + `"`), "score": b, "notes": json.RawMessage(`"fine"`)}}
	}
	models := map[string]*agreement.ReliabilityModel{"ok": {
		Values: []string{"not_satisfied", "satisfied"}, Prior: []float64{0.3, 0.7},
		Confusion: map[string][][]float64{"good": {{0.95, 0.05}, {0.1, 0.9}}, "poor": {{0.6, 0.4}, {0.4, 0.6}}},
		Weight:    map[string][]float64{"good": {40, 60}, "poor": {40, 60}},
	}}
	got := posteriors(&schema, models, []Label{label("good", "no", 2), label("poor", "yes", 2)})
	if len(got) != 2 {
		t.Fatalf("posteriors %+v, want ok and score", got)
	}
	// not satisfied: 0.3 × P(no | no) × P(yes | no), satisfied: 0.7 × P(no | yes) × P(yes | yes),
	// each cell shrunk towards 0.8 by 4 ratings: (weight·cell + 4·fallback cell) ÷ (weight + 4)
	cell := func(w, c, fb float64) float64 { return (w*c + 4*fb) / (w + 4) }
	no := 0.3 * cell(40, 0.95, 0.8) * cell(40, 0.4, 0.2)
	yes := 0.7 * cell(60, 0.1, 0.2) * cell(60, 0.6, 0.8)
	if p := got["ok"]; p.Value != "not_satisfied" || math.Abs(p.Probability-no/(no+yes)) > 1e-12 {
		t.Errorf("ok: %+v, want not_satisfied at %g", p, no/(no+yes))
	}
	// no model: two of two annotators at 0.8 agree on 2
	if p := got["score"]; p.Value != "2" || math.Abs(p.Probability-0.64/(0.64+0.04)) > 1e-12 {
		t.Errorf("score: %+v, want 2 at %g", p, 0.64/(0.64+0.04))
	}
	// the least sure question decides: ok at 0.70
	if got.confident(0.9) || !got.confident(0.65) {
		t.Errorf("%+v: confident at 0.9 %v, at 0.65 %v; want not, and yes", got, got.confident(0.9), got.confident(0.65))
	}
}
