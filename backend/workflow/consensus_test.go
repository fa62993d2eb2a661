package workflow

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/exports"
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

var kindsSchema = tasks.Schema{
	Inputs: []tasks.Input{{Name: "steps", Type: tasks.InputJSON}},
	Questions: []tasks.Question{
		{Key: "safe", Kind: tasks.KindBinary},
		{Key: "colour", Kind: tasks.KindChoice, Options: []tasks.Option{{Key: "red"}, {Key: "blue"}}},
		{Key: "tags", Kind: tasks.KindMultiChoice, Options: []tasks.Option{{Key: "x"}, {Key: "y"}, {Key: "z"}}},
		{Key: "plan", Kind: tasks.KindListEdit, List: "steps"},
		{Key: "score", Kind: tasks.KindLikert, Min: intp(1), Max: intp(5), AllowNA: true},
	},
}

// TestEvaluateKinds: each kind of question has its own notion of the same answer: binary by the
// requirement it states, multi-choice as a set, a list edit by the list it leaves, scores with
// "na" among them as categories.
func TestEvaluateKinds(t *testing.T) {
	unanimous, majority := Consensus{Nominal: NominalUnanimous}, Consensus{Nominal: NominalMajority}
	cases := []struct {
		name   string
		rule   Consensus
		labels []Label
		key    string
		state  QuestionState
		answer string
	}{
		{"binary agrees", unanimous, labels(`{"safe":"yes"}`, `{"safe":"yes"}`), "safe", StateUnanimous, `"yes"`},
		{"binary disagrees", unanimous, labels(`{"safe":"yes"}`, `{"safe":"no"}`), "safe", StateNoConsensus, ""},
		{"choice majority", majority, labels(`{"colour":"red"}`, `{"colour":"blue"}`, `{"colour":"red"}`), "colour", StateMajority, `"red"`},
		{"choice even split", majority, labels(`{"colour":"red"}`, `{"colour":"blue"}`), "colour", StateNoConsensus, ""},
		{"multi-choice compares sets", unanimous, labels(`{"tags":["x","y"]}`, `{"tags":["y","x"]}`), "tags", StateUnanimous, `["x","y"]`},
		{"multi-choice differs", unanimous, labels(`{"tags":["x"]}`, `{"tags":["x","z"]}`), "tags", StateNoConsensus, ""},
		{"list edits that leave the same list", unanimous,
			labels(`{"plan":[{"op":"keep","from":0,"text":"Open the  door"},{"op":"drop","from":1,"text":"wave"}]}`,
				`{"plan":[{"op":"reword","from":0,"text":"open the door"},{"op":"drop","from":1,"text":"wave"}]}`),
			"plan", StateUnanimous, `[{"op":"keep","from":0,"text":"Open the  door"},{"op":"drop","from":1,"text":"wave"}]`},
		{"list edits that leave different lists", unanimous,
			labels(`{"plan":[{"op":"keep","from":0,"text":"open"}]}`, `{"plan":[{"op":"add","text":"close"}]}`), "plan", StateNoConsensus, ""},
		{"scores with na vote as categories", majority, labels(`{"score":"na"}`, `{"score":"na"}`, `{"score":4}`), "score", StateMajority, `"na"`},
		{"ordinal majority needs a cluster", majority, labels(`{"score":1}`, `{"score":3}`, `{"score":5}`), "score", StateNoConsensus, ""},
		{"null is no answer", unanimous, labels(`{"score":null}`, `{"score":2}`), "score", StateUnanimous, `2`},
		{"missing beside an answer is left out", unanimous, labels(`{"score":"missing"}`, `{"score":2}`), "score", StateUnanimous, `2`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := Evaluate(&kindsSchema, tc.rule, tc.labels)
			for _, q := range out.Questions {
				if q.Question != tc.key {
					continue
				}
				if q.State != tc.state || string(q.Answer) != tc.answer {
					t.Fatalf("%s: %s %s, want %s %s", tc.key, q.State, q.Answer, tc.state, tc.answer)
				}
				if q.State.Settled() != (tc.answer != "") {
					t.Fatalf("state %s settled %v with answer %q", q.State, q.State.Settled(), tc.answer)
				}
				return
			}
			t.Fatalf("no outcome for %s", tc.key)
		})
	}
}

// TestNoConsensusReason names the unsettled questions with their values, sorted.
func TestNoConsensusReason(t *testing.T) {
	out := Evaluate(&testSchema, Consensus{Nominal: NominalMajority}, labels(`{"pick":"B","score":1}`, `{"pick":"A","score":5}`, `{"pick":"A","score":3}`))
	if out.Agreed {
		t.Fatalf("agreed on %+v", out)
	}
	if got := noConsensusReason(out); got != "no consensus on score (1, 3, 5)" {
		t.Fatalf("reason %q", got)
	}
}

// TestLabelsOfItem: labels that count are the submitted ones, a reviewer's correction in place
// of the answers; pending labels wait and disputed ones count for the adjudicator.
func TestLabelsOfItem(t *testing.T) {
	as := []store.Assignment{
		{UserID: "u1", Status: flow.AssignSubmitted, ReviewStatus: flow.ReviewApproved, Answers: store.JSON(`{"score":4}`)},
		{UserID: "u2", Status: flow.AssignSubmitted, ReviewStatus: flow.ReviewCorrected, Answers: store.JSON(`{"score":1}`), Effective: store.JSON(`{"score":2}`), CorrectedBy: new("r1")},
		{UserID: "u3", Status: flow.AssignSubmitted, ReviewStatus: flow.ReviewPending, Answers: store.JSON(`{"score":5}`)},
		{UserID: "u4", Status: flow.AssignSubmitted, ReviewStatus: flow.ReviewDisputed, Answers: store.JSON(`{"score":3}`)},
		{UserID: "u5", Status: flow.AssignRejected, ReviewStatus: flow.ReviewRejected, Answers: store.JSON(`{"score":5}`)},
		{UserID: "u6", Status: flow.AssignActive},
	}
	accepted, pending, disputed := acceptedLabels(as)
	if pending != 1 || disputed != 1 || len(accepted) != 3 {
		t.Fatalf("accepted %d, pending %d, disputed %d", len(accepted), pending, disputed)
	}
	if l := accepted[1]; l.By != "u2" || !l.Corrected || l.CorrectedBy != "r1" || string(l.Answers["score"]) != "2" {
		t.Fatalf("a corrected label counts as %+v", l)
	}
	names := pseudonyms(append(as, store.Assignment{UserID: "r1", Stage: flow.StageReview}, store.Assignment{UserID: "u1", Stage: flow.StageReview}))
	if names["u1"] != "Annotator 1" || names["u6"] != "Annotator 6" || names["r1"] != "Reviewer 1" {
		t.Fatalf("pseudonyms %v", names)
	}
}

// TestTextsOf keeps the free text behind a decision, the adjudicator's first, by role; a
// corrected label's text is its reviewer's.
func TestTextsOf(t *testing.T) {
	ls := []Label{{By: "u1", Answers: ans(`{"why":"too dark"}`)}, {By: "u2", Answers: ans(`{"why":"  "}`)},
		{By: "u3", Answers: ans(`{"why":"fixed"}`), Corrected: true, CorrectedBy: "r3"}, {By: "u4", Answers: ans(`{"why":"missing"}`)}, {By: "u5", Answers: ans(`{"score":2}`)}}
	got := textsOf(&testSchema, &Label{By: "adj", Answers: ans(`{"why":"final"}`)}, ls)
	var roles []string
	for _, t := range got["why"] {
		roles = append(roles, t.Author+":"+t.Role+":"+t.Text)
	}
	if want := "[adj:adjudicator:final u1:annotator:too dark r3:corrected:fixed]"; fmt.Sprint(roles) != want {
		t.Fatalf("texts %v, want %s", roles, want)
	}
	if textsOf(&testSchema, nil, labels(`{"score":1}`)) != nil || encodeTexts(nil) != nil {
		t.Fatal("texts kept where nobody wrote any")
	}
}

func ans(s string) tasks.Answers {
	var a tasks.Answers
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		panic(err)
	}
	return a
}

// TestAggregate: a question aggregated by mean or median takes every evaluation, weighted
// equally, never keeps the item from being decided and keeps the spread; all keeps only the
// count; N/A is no score; an item whose every decided question is aggregated says so in its
// provenance; the questions under consensus still decide as before.
func TestAggregate(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	schema := &tasks.Schema{Questions: []tasks.Question{
		{Key: "a", Kind: tasks.KindLikert, Min: intp(1), Max: intp(10), AllowNA: true},
		{Key: "b", Kind: tasks.KindLikert, Min: intp(1), Max: intp(10)},
		{Key: "pick", Kind: tasks.KindPairwise},
		{Key: "why", Kind: tasks.KindText},
	}}
	cases := []struct {
		name   string
		agg    Aggregation
		labels []Label
		agreed bool
		prov   flow.Provenance
		want   map[string]exports.Aggregate
	}{
		{"mean of scores far apart", Aggregation{Default: AggregateMean, Questions: map[string]AggregateRule{"pick": AggregateAll}},
			labels(`{"a":2,"b":5,"pick":"A","why":"x"}`, `{"a":9,"b":6,"pick":"B"}`), true, flow.ProvenanceAggregated,
			map[string]exports.Aggregate{
				"a":    {Rule: "mean", N: 2, Value: f(5.5), Min: f(2), Max: f(9), SD: f(4.949747468305833)},
				"b":    {Rule: "mean", N: 2, Value: f(5.5), Min: f(5), Max: f(6), SD: f(0.7071067811865476)},
				"pick": {Rule: "all", N: 2}}},
		{"median of an even count, N/A left out", Aggregation{Questions: map[string]AggregateRule{"a": AggregateMedian, "b": AggregateMedian}},
			labels(`{"a":1,"b":3,"pick":"A"}`, `{"a":"na","b":4,"pick":"A"}`, `{"a":7,"b":8,"pick":"A"}`), true, flow.ProvenanceUnanimous,
			map[string]exports.Aggregate{
				"a": {Rule: "median", N: 2, Value: f(4), Min: f(1), Max: f(7), SD: f(4.242640687119285)},
				"b": {Rule: "median", N: 3, Value: f(4), Min: f(3), Max: f(8), SD: f(2.6457513110645907)}}},
		{"consensus questions still decide", Aggregation{Questions: map[string]AggregateRule{"a": AggregateMean}},
			labels(`{"a":1,"b":3,"pick":"A"}`, `{"a":3,"b":4,"pick":"B"}`), false, "",
			map[string]exports.Aggregate{"a": {Rule: "mean", N: 2, Value: f(2), Min: f(1), Max: f(3), SD: f(1.4142135623730951)}}},
		{"one evaluation", Aggregation{Default: AggregateMean, Questions: map[string]AggregateRule{"pick": AggregateConsensus}},
			labels(`{"a":4,"b":4,"pick":"A"}`), true, flow.ProvenanceSingle,
			map[string]exports.Aggregate{"a": {Rule: "mean", N: 1, Value: f(4), Min: f(4), Max: f(4)}, "b": {Rule: "mean", N: 1, Value: f(4), Min: f(4), Max: f(4)}}},
	}
	for _, c := range cases {
		out := Aggregate(schema, Consensus{Nominal: NominalUnanimous}, c.agg, c.labels)
		if out.Agreed != c.agreed || out.Provenance != c.prov {
			t.Errorf("%s: agreed %v provenance %q, want %v %q", c.name, out.Agreed, out.Provenance, c.agreed, c.prov)
		}
		got, _ := json.Marshal(out.Aggregates)
		want, _ := json.Marshal(c.want)
		if string(got) != string(want) {
			t.Errorf("%s: aggregates\n got %s\nwant %s", c.name, got, want)
		}
		for _, k := range []string{"a", "b"} {
			if _, ok := out.Answers[k]; ok && c.agg.Of(k) != AggregateConsensus {
				t.Errorf("%s: the aggregated %s is among the decided answers", c.name, k)
			}
		}
	}
}
