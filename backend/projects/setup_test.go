package projects

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestFeasibilityMessages: the warnings name what is missing with the numbers, in the
// singular for one person and the plural otherwise.
func TestFeasibilityMessages(t *testing.T) {
	ids := func(names ...string) []string { return names }
	tests := []struct {
		name            string
		pol             workflow.Policy
		ann, rev, adj   []string
		codes, messages []string
	}{
		{"overlap 1 with nobody", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateNever}, nil, nil, nil,
			[]string{"annotators"}, []string{"overlap 1 needs 1 annotator; the project has 0"}},
		{"overlap 3 with one annotator", workflow.Policy{Overlap: 3, Adjudication: workflow.AdjudicateNever}, ids("a"), nil, nil,
			[]string{"annotators"}, []string{"overlap 3 needs 3 annotators; the project has 1"}},
		{"criteria overlap 1", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateNever, CriteriaStage: &workflow.CriteriaStage{Overlap: 1}}, nil, nil, nil,
			[]string{"annotators", "criteria_authors"}, []string{"overlap 1 needs 1 annotator; the project has 0",
				"criteria overlap 1 needs 1 annotator to write criteria for each item; the project has 0"}},
		{"the one annotator is the one reviewer", workflow.Policy{Overlap: 1, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateNever}, ids("a"), ids("a"), nil,
			[]string{"reviewers"}, []string{"cross review needs a reviewer who has not worked on the item in another stage: with overlap 1 and 1 annotator, every reviewer labels every item"}},
		{"two annotators review each other's labels", workflow.Policy{Overlap: 2, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateNever}, ids("a", "b"), ids("a", "b"), nil,
			[]string{"reviewers"}, []string{"cross review needs a reviewer who has not worked on the item in another stage: with overlap 2 and 2 annotators, every reviewer labels every item"}},
		{"no adjudicator", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateAlways}, ids("a"), nil, nil,
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who has not worked on the item in another stage; the project has no adjudicator"}},
		{"the one adjudicator labels", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateAlways}, ids("a"), nil, ids("a"),
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who has not worked on the item in another stage; the project has 1 adjudicator and none is free"}},
		{"both adjudicators label", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateAlways}, ids("a", "b"), nil, ids("a", "b"),
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who has not worked on the item in another stage; the project has 2 adjudicators and none is free"}},
		{"enough people", workflow.Policy{Overlap: 1, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateAlways}, ids("a"), ids("r"), ids("j"), nil, nil},
	}
	for _, tc := range tests {
		var codes, messages []string
		for _, w := range feasibilityWarnings(tc.pol, tc.ann, tc.rev, tc.adj) {
			codes, messages = append(codes, w.Code), append(messages, w.Message)
		}
		if !reflect.DeepEqual(codes, tc.codes) || !reflect.DeepEqual(messages, tc.messages) {
			t.Errorf("%s:\n got %q %q\nwant %q %q", tc.name, codes, messages, tc.codes, tc.messages)
		}
	}
}

// TestCheckSetup: a setup is checked as a creation would check it, each problem at its path
// in field order, without a store; a schema that is not shaped like one is a problem too.
func TestCheckSetup(t *testing.T) {
	likert := `{"inputs":[{"name":"prompt","type":"text"}],"questions":[{"key":"q","kind":"likert","label":"How good?","min":1,"max":5}]}`
	tests := []struct {
		name  string
		draft SetupDraft
		want  []string // field=code of each problem, in order; nil when valid
	}{
		{"a template", SetupDraft{Template: "robojudge", Workflow: &workflow.Policy{Overlap: 2}}, nil},
		{"a schema and forms", SetupDraft{Schema: json.RawMessage(likert), Forms: json.RawMessage(`{"extra":{"version":1,` + likert[1:] + `}`)}, nil},
		{"nothing yet", SetupDraft{Schema: json.RawMessage(` null `)}, nil},
		{"an invalid policy", SetupDraft{Template: "robojudge", Workflow: &workflow.Policy{Overlap: 99}}, []string{"workflow.overlap=out_of_range"}},
		{"a template and a schema", SetupDraft{Template: "robojudge", Schema: json.RawMessage(likert)}, []string{"template=conflict"}},
		{"long texts", SetupDraft{Template: "robojudge", Description: strings.Repeat("d", 10_001), Guidelines: strings.Repeat("g", 200_001)},
			[]string{"description=too_long", "guidelines=too_long"}},
		{"an unknown key", SetupDraft{Schema: json.RawMessage(`{"inputs":[],"questoins":[]}`)}, []string{"schema=unknown_field"}},
		{"a list where an object belongs", SetupDraft{Schema: json.RawMessage(`{"inputs":[1]}`)}, []string{"schema.inputs=invalid_type"}},
		{"text where a list belongs", SetupDraft{Schema: json.RawMessage(`{"questions":"q"}`)}, []string{"schema.questions=invalid_type"}},
		{"a list of forms", SetupDraft{Schema: json.RawMessage(likert), Forms: json.RawMessage(`[]`)}, []string{"forms=invalid_type"}},
		{"not JSON", SetupDraft{Schema: json.RawMessage(`{`)}, []string{"schema=invalid_value"}},
		{"both wrong", SetupDraft{Schema: json.RawMessage(`{"title":1}`), Forms: json.RawMessage(`{"f":{"version":"x"}}`)},
			[]string{"forms.version=invalid_type", "schema.title=invalid_type"}},
	}
	for _, tc := range tests {
		got, err := (&Service{}).CheckSetup(tc.draft)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var problems []string
		for _, p := range got.Errors {
			problems = append(problems, p.Field+"="+p.Code)
			if p.Message == "" {
				t.Errorf("%s: %s has no message", tc.name, p.Field)
			}
		}
		if got.Valid != (tc.want == nil) || !reflect.DeepEqual(problems, tc.want) || got.Valid != (got.Workflow != nil) {
			t.Errorf("%s: valid %v, problems %v, want %v", tc.name, got.Valid, problems, tc.want)
		}
	}
}

// TestJSONKind: a value of the wrong type is named by the JSON value it should be.
func TestJSONKind(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{[]int{}, "a list"}, {[2]int{}, "a list"}, {map[string]int{}, "an object"}, {struct{}{}, "an object"}, {new(int), "an object"},
		{"", "a string"}, {true, "true or false"}, {int64(1), "a whole number"}, {uint8(1), "a whole number"},
		{1.5, "a number"}, {float32(1), "a number"}, {complex(1, 2), "complex128"},
	}
	for _, tc := range tests {
		if got := jsonKind(reflect.TypeOf(tc.v)); got != tc.want {
			t.Errorf("%T: %q, want %q", tc.v, got, tc.want)
		}
	}
	if counted(1, "adjudicator") != "1 adjudicator" || counted(0, "reviewer") != "0 reviewers" || article("annotator") != "an annotator" || article("reviewer") != "a reviewer" {
		t.Error("counted or article")
	}
}
