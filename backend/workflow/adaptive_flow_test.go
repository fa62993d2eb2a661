package workflow_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// oneBinary is a form of one Yes/No question.
const oneBinary = `{"version": 1, "inputs": [{"name": "prompt", "type": "text", "label": "Prompt"}],
 "questions": [{"key": "correct", "kind": "binary", "label": "Correct?", "required": true}]}`

// TestAdaptiveOverlap: with adaptive overlap {min 2, max 4, confidence 0.9} and no reliability
// model yet (every annotator right at 0.8 by a uniform prior), two agreeing labels decide an
// item with the posterior in its provenance (0.94); a disagreement asks for one more label at a
// time, audited, until 3 against 1 decides it (0.94 again, the third label's 2 against 1 is
// 0.8); four labels that split evenly reach max without confidence and the item is dropped
// with the posterior as the reason (on_max drop). Nobody gets an item beyond its labels.
func TestAdaptiveOverlap(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		var schema tasks.Schema
		if err := json.Unmarshal([]byte(oneBinary), &schema); err != nil {
			t.Fatal(err)
		}
		pol := workflow.Policy{AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 4, Confidence: 0.9, OnMax: workflow.OnMaxDrop},
			Consensus: workflow.Consensus{Nominal: workflow.NominalMajority}, Adjudication: workflow.AdjudicateNever, OnNoConsensus: workflow.NoConsensusDrop}
		cases := []struct {
			name    string
			answers []string
			stages  []flow.Stage // the item's stage after each label
			truth   string       // "" when not decided
			prob    float64
		}{
			{"agree", []string{"yes", "yes"}, []flow.Stage{flow.StageLabel, flow.StageDone}, "yes", 0.64 / 0.68},
			{"one more at a time", []string{"yes", "no", "yes", "yes"},
				[]flow.Stage{flow.StageLabel, flow.StageLabel, flow.StageLabel, flow.StageDone}, "yes", 0.8 * 0.8 * 0.8 * 0.2 / (0.8*0.8*0.8*0.2 + 0.2*0.2*0.2*0.8)},
			{"max without confidence", []string{"yes", "no", "no", "yes"},
				[]flow.Stage{flow.StageLabel, flow.StageLabel, flow.StageLabel, flow.StageDropped}, "", 0},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := f.project(projects.ProjectSpec{Name: tc.name, Schema: &schema, Workflow: &pol})
				if p.Policy.Overlap != 2 {
					t.Fatalf("overlap %d, want min 2", p.Policy.Overlap)
				}
				f.importItems(p, `{"external_id": "x", "inputs": {"prompt": "x"}}`)
				for i, a := range tc.answers {
					who := f.member(p, store.RoleAnnotator)
					f.label(p, who, `{"correct": "`+a+`"}`)
					it := f.item(p, "x")
					if it.Stage != tc.stages[i] {
						t.Fatalf("after label %d the item is in %s, want %s", i+1, it.Stage, tc.stages[i])
					}
					// while it waits for more, the item has asked for one label beyond those it has
					if it.Stage == flow.StageLabel && it.ExtraLabels != i {
						t.Fatalf("after label %d: %d extra labels, want %d", i+1, it.ExtraLabels, i)
					}
				}
				if extra := f.member(p, store.RoleAnnotator); f.next(p, extra, flow.StageLabel) != nil {
					t.Fatal("a person got the item beyond its labels")
				}
				it := f.item(p, "x")
				if n := len(tc.answers); it.ExtraLabels != n-2 {
					t.Errorf("%d extra labels, want %d", it.ExtraLabels, n-2)
				}
				if (len(tc.answers) > 2) != f.audited(p, "item.more_labels") {
					t.Errorf("item.more_labels audited %v", f.audited(p, "item.more_labels"))
				}
				gt := f.truth(it)
				if tc.truth == "" {
					if gt != nil || it.DropReason == nil || !strings.Contains(*it.DropReason, "no answer reached confidence 0.9 after 4 labels: correct satisfied at 0.500") {
						t.Fatalf("ground truth %+v, drop reason %v", gt, it.DropReason)
					}
					return
				}
				if gt == nil || answersOf(t, gt.Answers)["correct"] != tc.truth {
					t.Fatalf("ground truth %+v, want %s", gt, tc.truth)
				}
				var details struct {
					Labels    int                 `json:"labels"`
					Posterior workflow.Posteriors `json:"posterior"`
				}
				if err := json.Unmarshal(gt.Details, &details); err != nil {
					t.Fatal(err)
				}
				if post := details.Posterior["correct"]; details.Labels != len(tc.answers) || post.Value != "satisfied" || post.Probability < tc.prob-1e-12 || post.Probability > tc.prob+1e-12 {
					t.Errorf("provenance details %+v, want %d labels and satisfied at %g", details, len(tc.answers), tc.prob)
				}
			})
		}
	})
}

// TestAdaptiveOverlapAtMax: by default an item that reaches max labels without confidence is
// decided by the consensus rule over its labels (2 against 1 by the majority, at 0.8), with the
// posterior in its provenance.
func TestAdaptiveOverlapAtMax(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		var schema tasks.Schema
		if err := json.Unmarshal([]byte(oneBinary), &schema); err != nil {
			t.Fatal(err)
		}
		pol := workflow.Policy{AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 3, Confidence: 0.9},
			Consensus: workflow.Consensus{Nominal: workflow.NominalMajority}, Adjudication: workflow.AdjudicateNever, OnNoConsensus: workflow.NoConsensusDrop}
		p := f.project(projects.ProjectSpec{Schema: &schema, Workflow: &pol})
		f.importItems(p, `{"external_id": "x", "inputs": {"prompt": "x"}}`)
		for _, a := range []string{"no", "yes", "no"} {
			f.label(p, f.member(p, store.RoleAnnotator), `{"correct": "`+a+`"}`)
		}
		it := f.item(p, "x")
		gt := f.truth(it)
		if it.Stage != flow.StageDone || gt == nil || answersOf(t, gt.Answers)["correct"] != "no" || gt.Provenance != flow.ProvenanceMajority {
			t.Fatalf("item in %s, ground truth %+v", it.Stage, gt)
		}
		var details struct {
			Posterior workflow.Posteriors `json:"posterior"`
		}
		if err := json.Unmarshal(gt.Details, &details); err != nil {
			t.Fatal(err)
		}
		if post := details.Posterior["correct"]; post.Value != "not_satisfied" || post.Probability < 0.8-1e-12 || post.Probability > 0.8+1e-12 {
			t.Errorf("posterior %+v, want not_satisfied at 0.8", details.Posterior)
		}
	})
}

// TestAdaptiveOverlapPolicy: min, max and confidence are checked, the overlap follows min, and
// a form whose passes are each their own queue is refused.
func TestAdaptiveOverlapPolicy(t *testing.T) {
	var schema tasks.Schema
	if err := json.Unmarshal([]byte(oneBinary), &schema); err != nil {
		t.Fatal(err)
	}
	ok := workflow.Policy{AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 5, Confidence: 0.9}}.Defaults()
	if ok.Overlap != 2 {
		t.Fatalf("overlap %d, want min", ok.Overlap)
	}
	if err := ok.Validate(&schema, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		a     workflow.AdaptiveOverlap
		field string
	}{
		{"min 0", workflow.AdaptiveOverlap{Min: 0, Max: 3, Confidence: 0.9}, "workflow.adaptive_overlap.min"},
		{"max under min", workflow.AdaptiveOverlap{Min: 3, Max: 2, Confidence: 0.9}, "workflow.adaptive_overlap.max"},
		{"confidence 1", workflow.AdaptiveOverlap{Min: 2, Max: 3, Confidence: 1}, "workflow.adaptive_overlap.confidence"},
		{"confidence a coin", workflow.AdaptiveOverlap{Min: 2, Max: 3, Confidence: 0.5}, "workflow.adaptive_overlap.confidence"},
	} {
		p := workflow.Policy{AdaptiveOverlap: &tc.a}.Defaults()
		wantField(t, p.Validate(&schema, nil), tc.field, "out_of_range")
	}
	if ok.AdaptiveOverlap.OnMax != workflow.OnMaxConsensus {
		t.Errorf("on_max %q, want consensus by default", ok.AdaptiveOverlap.OnMax)
	}
	bad := workflow.Policy{AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 3, Confidence: 0.9, OnMax: "toss"}}.Defaults()
	wantField(t, bad.Validate(&schema, nil), "workflow.adaptive_overlap.on_max", "invalid_value")
	never := workflow.Policy{Adjudication: workflow.AdjudicateNever, AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 3, Confidence: 0.9, OnMax: workflow.OnMaxAdjudicate}}.Defaults()
	wantField(t, never.Validate(&schema, nil), "workflow.adaptive_overlap.on_max", "invalid_value")
	p := workflow.Policy{Overlap: 3, AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 5, Confidence: 0.9}}.Defaults()
	wantField(t, p.Validate(&schema, nil), "workflow.overlap", "invalid_value")
}

// TestReliabilityConsensus: under the rule "reliability" an item's answer is the one with the
// highest posterior by the kept model: one reliable annotator's No outweighs two unreliable
// Yeses (provenance weighted, the posterior in the details); a question the model leaves out
// is decided by the majority.
func TestReliabilityConsensus(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		var schema tasks.Schema
		if err := json.Unmarshal([]byte(oneBinary), &schema); err != nil {
			t.Fatal(err)
		}
		pol := workflow.Policy{Overlap: 3, Consensus: workflow.Consensus{Nominal: workflow.NominalReliability},
			Adjudication: workflow.AdjudicateNever, OnNoConsensus: workflow.NoConsensusDrop}
		p := f.project(projects.ProjectSpec{Schema: &schema, Workflow: &pol})
		f.importItems(p, `{"external_id": "x", "inputs": {"prompt": "x"}}`)
		good, poor1, poor2 := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		// [true][given] over not_satisfied, satisfied
		model := workflow.ReliabilityModels{Labels: 300, Questions: map[string]*agreement.ReliabilityModel{"correct": {
			Values: []string{"not_satisfied", "satisfied"}, Prior: []float64{0.5, 0.5},
			Confusion: map[string][][]float64{good.ID: {{0.98, 0.02}, {0.02, 0.98}}, poor1.ID: {{0.4, 0.6}, {0.35, 0.65}}, poor2.ID: {{0.4, 0.6}, {0.35, 0.65}}},
			Weight:    map[string][]float64{good.ID: {96, 104}, poor1.ID: {46, 54}, poor2.ID: {46, 54}},
		}}}
		at := f.now
		if err := f.st.PutFiguresResult(f.ctx, &store.FiguresResult{ProjectID: p.ID, Kind: string(flow.FiguresReliability), DataKey: "test",
			Result: workflow.Encode(model), ComputedAt: &at}); err != nil {
			t.Fatal(err)
		}
		f.label(p, poor1, `{"correct": "yes"}`)
		f.label(p, good, `{"correct": "no"}`)
		f.label(p, poor2, `{"correct": "yes"}`)
		it := f.item(p, "x")
		gt := f.truth(it)
		if gt == nil || answersOf(t, gt.Answers)["correct"] != "no" || gt.Provenance != flow.ProvenanceWeighted {
			t.Fatalf("item in %s, ground truth %+v: want no, weighted", it.Stage, gt)
		}
		// each row shrunk towards 0.8 by 4 ratings: (weight·cell + 4·fallback cell) ÷ (weight + 4)
		cell := func(w, c, fb float64) float64 { return (w*c + 4*fb) / (w + 4) }
		no := 0.5 * cell(96, 0.98, 0.8) * cell(46, 0.6, 0.2) * cell(46, 0.6, 0.2)
		yes := 0.5 * cell(104, 0.02, 0.2) * cell(54, 0.65, 0.8) * cell(54, 0.65, 0.8)
		var details struct {
			Posterior workflow.Posteriors `json:"posterior"`
		}
		if err := json.Unmarshal(gt.Details, &details); err != nil {
			t.Fatal(err)
		}
		if post := details.Posterior["correct"]; post.Value != "not_satisfied" || post.Probability < no/(no+yes)-1e-12 || post.Probability > no/(no+yes)+1e-12 {
			t.Errorf("posterior %+v, want not_satisfied at %g", details.Posterior, no/(no+yes))
		}
	})
}
