package workflow

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func intp(n int) *int { return &n }

var testSchema = tasks.Schema{
	Inputs: []tasks.Input{{Name: "prompt", Type: tasks.InputText}},
	Questions: []tasks.Question{
		{Key: "noise", Kind: tasks.KindBinary, AllowNA: true, NAMeans: tasks.NASatisfied, YesMeans: tasks.YesMeansDefect},
		{Key: "score", Kind: tasks.KindLikert, Min: intp(1), Max: intp(5)},
		{Key: "pick", Kind: tasks.KindPairwise, AllowTie: true},
		{Key: "check", Kind: tasks.KindChecklist, Items: []tasks.ChecklistItem{{Key: "a", Max: 2}, {Key: "b", Max: 2}}},
		{Key: "why", Kind: tasks.KindText},
	},
}

func labels(rows ...string) []Label {
	out := make([]Label, len(rows))
	for i, r := range rows {
		var a tasks.Answers
		if err := json.Unmarshal([]byte(r), &a); err != nil {
			panic(err)
		}
		out[i] = Label{By: string(rune('a' + i)), Answers: a}
	}
	return out
}

func TestEvaluate(t *testing.T) {
	cases := []struct {
		name       string
		rule       Consensus
		labels     []Label
		agreed     bool
		provenance flow.Provenance
		want       map[string]string // question → expected answer JSON
		disagree   []string
	}{
		{"single label", Consensus{Nominal: "unanimous"}, labels(`{"noise":"no","score":4,"why":"fine"}`),
			true, flow.ProvenanceSingle, map[string]string{"noise": `"no"`, "score": `4`}, nil},
		{"unanimous", Consensus{Nominal: "unanimous"}, labels(`{"noise":"no","pick":"A"}`, `{"noise":"no","pick":"A"}`, `{"noise":"no","pick":"A","why":"x"}`),
			true, flow.ProvenanceUnanimous, map[string]string{"noise": `"no"`, "pick": `"A"`}, nil},
		{"N/A mapped to satisfied agrees with a defect-question no", Consensus{Nominal: "unanimous"}, labels(`{"noise":"no"}`, `{"noise":"na"}`, `{"noise":"no"}`),
			true, flow.ProvenanceUnanimous, map[string]string{"noise": `"no"`}, nil},
		{"unanimous rule refuses a 2-1 split", Consensus{Nominal: "unanimous"}, labels(`{"pick":"A"}`, `{"pick":"B"}`, `{"pick":"A"}`),
			false, "", nil, []string{"pick"}},
		{"majority rule takes a 2-1 split", Consensus{Nominal: "majority"}, labels(`{"pick":"A"}`, `{"pick":"B"}`, `{"pick":"A"}`),
			true, flow.ProvenanceMajority, map[string]string{"pick": `"A"`}, []string{"pick"}},
		{"majority needs more than half", Consensus{Nominal: "majority"}, labels(`{"pick":"A"}`, `{"pick":"B"}`, `{"pick":"tie"}`),
			false, "", nil, []string{"pick"}},
		{"ordinal within tolerance", Consensus{Nominal: "unanimous", OrdinalTolerance: 1}, labels(`{"score":3}`, `{"score":4}`, `{"score":4}`),
			true, flow.ProvenanceMajority, map[string]string{"score": `4`}, []string{"score"}},
		{"ordinal beyond tolerance", Consensus{Nominal: "unanimous", OrdinalTolerance: 1}, labels(`{"score":2}`, `{"score":4}`, `{"score":4}`),
			false, "", nil, []string{"score"}},
		{"ordinal majority cluster", Consensus{Nominal: "majority"}, labels(`{"score":2}`, `{"score":5}`, `{"score":5}`),
			true, flow.ProvenanceMajority, map[string]string{"score": `5`}, []string{"score"}},
		{"checklist per item", Consensus{Nominal: "unanimous", OrdinalTolerance: 1}, labels(`{"check":{"a":2,"b":0}}`, `{"check":{"a":1,"b":0}}`),
			true, flow.ProvenanceMajority, map[string]string{"check": `{"a":1,"b":0}`}, []string{"check"}},
		{"checklist item disagreement", Consensus{Nominal: "unanimous"}, labels(`{"check":{"a":2,"b":0}}`, `{"check":{"a":0,"b":0}}`),
			false, "", nil, []string{"check"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := Evaluate(&testSchema, tc.rule, tc.labels)
			if out.Agreed != tc.agreed || out.Provenance != tc.provenance {
				t.Fatalf("agreed %v provenance %q, want %v %q (%+v)", out.Agreed, out.Provenance, tc.agreed, tc.provenance, out)
			}
			for k, want := range tc.want {
				if got := string(out.Answers[k]); got != want {
					t.Errorf("%s = %s, want %s", k, got, want)
				}
			}
			if _, ok := out.Answers["why"]; ok {
				t.Error("free text became part of the consensus")
			}
			var got []string
			for _, d := range out.Disagreements {
				got = append(got, d.Question)
			}
			if len(got) != len(tc.disagree) {
				t.Fatalf("disagreements %v, want %v", got, tc.disagree)
			}
		})
	}
}

// TestEvaluateStates: every question gets a state saying how the rule settled it, and an
// answer only when it was settled.
func TestEvaluateStates(t *testing.T) {
	cases := []struct {
		name   string
		rule   Consensus
		labels []Label
		want   map[string]string // question → "state answer"
	}{
		{"unanimous, text and unanswered", Consensus{Nominal: "unanimous"}, labels(`{"noise":"no","why":"a"}`, `{"noise":"no","why":"b"}`),
			map[string]string{"noise": `unanimous "no"`, "why": "text ", "score": "unanswered ", "pick": "unanswered ", "check": "unanswered "}},
		{"tolerance and no consensus", Consensus{Nominal: "unanimous", OrdinalTolerance: 1}, labels(`{"score":3,"pick":"A"}`, `{"score":4,"pick":"B"}`),
			map[string]string{"score": "tolerance 3", "pick": "no_consensus "}},
		{"majority", Consensus{Nominal: "majority"}, labels(`{"score":2,"pick":"A"}`, `{"score":5,"pick":"A"}`, `{"score":5,"pick":"B"}`),
			map[string]string{"score": "majority 5", "pick": `majority "A"`}},
		{"checklist takes its weakest item", Consensus{Nominal: "unanimous", OrdinalTolerance: 1}, labels(`{"check":{"a":2,"b":0}}`, `{"check":{"a":1,"b":0}}`),
			map[string]string{"check": `tolerance {"a":1,"b":0}`}},
		{"missing", Consensus{Nominal: "unanimous"}, labels(`{"score":"missing"}`, `{"score":"missing"}`),
			map[string]string{"score": `missing "missing"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := Evaluate(&testSchema, tc.rule, tc.labels)
			if len(out.Questions) != len(testSchema.Questions) {
				t.Fatalf("%d question outcomes, want one per question", len(out.Questions))
			}
			for i, q := range out.Questions {
				if q.Question != testSchema.Questions[i].Key {
					t.Fatalf("outcome %d is %s, want schema order", i, q.Question)
				}
				if want, ok := tc.want[q.Question]; ok && string(q.State)+" "+string(q.Answer) != want {
					t.Errorf("%s: %s %s, want %s", q.Question, q.State, q.Answer, want)
				}
			}
		})
	}
}
