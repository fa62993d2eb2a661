package projects

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// crewMembers makes members of ids holding each role they are listed under; leads lists
// further members who lead.
func crewMembers(ann, rev, adj []string, leads ...string) []store.MemberView {
	var out []store.MemberView
	add := func(ids []string, role store.Role) {
		for _, id := range ids {
			i := slices.IndexFunc(out, func(m store.MemberView) bool { return m.UserID == id })
			if i < 0 {
				out, i = append(out, store.MemberView{UserID: id}), len(out)
			}
			out[i].Roles = append(out[i].Roles, role)
		}
	}
	add(leads, store.RoleLead)
	add(ann, store.RoleAnnotator)
	add(rev, store.RoleReviewer)
	add(adj, store.RoleAdjudicator)
	return out
}

// TestFeasibilityMessages: the warnings name what is missing with the numbers, in the
// singular for one person and the plural otherwise.
func TestFeasibilityMessages(t *testing.T) {
	ids := func(names ...string) []string { return names }
	criteria := func(authors int, authorsLabel bool) *workflow.CriteriaStage {
		return &workflow.CriteriaStage{Overlap: authors, AuthorsLabel: authorsLabel}
	}
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
		{"criteria overlap 1", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateNever, CriteriaStage: criteria(1, false)}, nil, nil, nil,
			[]string{"annotators", "criteria_authors"}, []string{"overlap 1 needs 2 annotators, one more than the labels of a unit since nobody labels a unit of their own criterion (criteria_stage.authors_label is off); the project has 0",
				"criteria overlap 1 needs 1 annotator to write criteria for each item; the project has 0"}},
		{"three authors who may not label their units", workflow.Policy{Overlap: 3, Adjudication: workflow.AdjudicateNever, CriteriaStage: criteria(3, false)}, ids("a", "b", "c"), nil, nil,
			[]string{"authors_label"}, []string{"overlap 3 needs 4 annotators with a criteria stage: the author of each unit's criterion may not label it (criteria_stage.authors_label is off), so with 3 annotators every unit stops at 2 of 3 labels; let authors label units of their own criteria, or add an annotator"}},
		{"three authors who label their units", workflow.Policy{Overlap: 3, Adjudication: workflow.AdjudicateNever, CriteriaStage: criteria(3, true)}, ids("a", "b", "c"), nil, nil, nil, nil},
		{"a fourth annotator labels what its author may not", workflow.Policy{Overlap: 3, Adjudication: workflow.AdjudicateNever, CriteriaStage: criteria(3, false)}, ids("a", "b", "c", "d"), nil, nil, nil, nil},
		{"authors review no unit of their criteria", workflow.Policy{Overlap: 2, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateNever, CriteriaStage: criteria(1, true)}, ids("a", "b", "c"), ids("a", "b", "c"), nil,
			[]string{"reviewers"}, []string{"cross review needs a reviewer who has not worked on the item in another stage: with overlap 2 and 3 annotators, every reviewer labels every item or wrote its criterion"}},
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
		{"disagreements dropped need no adjudicator", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateOnDisagreement, OnNoConsensus: workflow.NoConsensusDrop}, ids("a", "b"), nil, nil, nil, nil},
		{"disagreements adjudicated", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateOnDisagreement, OnNoConsensus: workflow.NoConsensusAdjudicate}, ids("a", "b"), nil, nil,
			[]string{"adjudicators"}, []string{"adjudication (on_disagreement) needs an adjudicator who has not worked on the item in another stage; the project has no adjudicator"}},
		{"a blind reviewer's dispute is adjudicated", workflow.Policy{Overlap: 1, Review: workflow.ReviewCross, BlindReview: true, Adjudication: workflow.AdjudicateNever}, ids("a"), ids("r"), nil,
			[]string{"adjudicators"}, []string{"a disputed blind review needs an adjudicator who has not worked on the item in another stage; the project has no adjudicator"}},
		{"the author of a unit's criterion does not adjudicate it", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateAlways, CriteriaStage: criteria(1, true)}, ids("a", "b", "c"), nil, ids("a", "b", "c"),
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who has not worked on the item in another stage; the project has 3 adjudicators and none is free"}},
		{"qualification", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateNever, RequireQualification: true}, ids("a", "b"), nil, nil,
			[]string{"qualified"}, []string{"require_qualification: overlap 2 needs 2 annotators who are qualified; 0 of 2 annotators are (by passing a calibration round, or by a lead)"}},
		{"enough people", workflow.Policy{Overlap: 1, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateAlways}, ids("a"), ids("r"), ids("j"), nil, nil},
	}
	for _, tc := range tests {
		var codes, messages []string
		for _, w := range feasibilityWarnings(tc.pol, shape{passes: 1}, crewMembers(tc.ann, tc.rev, tc.adj, "lead"), nil) {
			codes, messages = append(codes, w.Code), append(messages, w.Message)
		}
		if !reflect.DeepEqual(codes, tc.codes) || !reflect.DeepEqual(messages, tc.messages) {
			t.Errorf("%s:\n got %q %q\nwant %q %q", tc.name, codes, messages, tc.codes, tc.messages)
		}
	}
}

// TestFeasibilityShapes: passes that are each their own queue multiply the labels an item
// needs; each language is checked among its readers; criteria need someone else to mark them.
func TestFeasibilityShapes(t *testing.T) {
	never := workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateNever}
	check := func(name string, pol workflow.Policy, sh shape, ms []store.MemberView, langs []string, want ...string) {
		t.Helper()
		var got []string
		for _, w := range feasibilityWarnings(pol, sh, ms, langs) {
			got = append(got, fmt.Sprintf("%s %s %d/%d: %s", w.Code, w.Language, w.Have, w.Needed, w.Message))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
	check("three passes", never, shape{passes: 3}, crewMembers([]string{"a", "b", "c", "d"}, nil, nil, "lead"), nil,
		"annotators  4/6: overlap 2 in each of 3 passes, each its own queue (nobody labels two passes of an item), needs 6 annotators; the project has 4")
	ms := crewMembers([]string{"a", "b", "c"}, nil, nil, "lead")
	ms[1].Languages, ms[2].Languages = []string{"en"}, []string{"en"}
	check("one reader of zh", never, shape{passes: 1}, ms, []string{"en", "zh-Hans"},
		"annotators zh-Hans 1/2: items in zh-Hans: overlap 2 needs 2 annotators; the project has 1")
	ms[0].Languages = []string{"zh"}
	check("nobody reads en and zh", never, shape{passes: 1}, ms, []string{"en", "zh-Hans"},
		"annotators zh-Hans 1/2: items in zh-Hans: overlap 2 needs 2 annotators; the project has 1")
	check("too few for every language too", workflow.Policy{Overlap: 4, Adjudication: workflow.AdjudicateNever}, shape{passes: 1}, ms, []string{"en", "zh-Hans"},
		"annotators  3/4: overlap 4 needs 4 annotators; the project has 3")
	authors := workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateNever, CriteriaStage: &workflow.CriteriaStage{Overlap: 1, AuthorsLabel: true}}
	check("the only lead writes criteria", authors, shape{passes: 1}, crewMembers([]string{"lead", "b"}, nil, nil, "lead"), nil,
		"criteria_reviewers  1/2: criteria review needs a lead or reviewer who did not write the criterion; the project's only one is also an annotator, and nobody marks their own criteria")
	check("nobody marks criteria", authors, shape{passes: 1}, crewMembers([]string{"a"}, nil, nil), nil,
		"criteria_reviewers  0/1: criteria review needs a lead or reviewer who did not write the criterion; the project has none")
	check("a reviewer marks the lead's criteria", authors, shape{passes: 1}, crewMembers([]string{"lead", "b"}, []string{"r"}, nil, "lead"), nil)
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

// TestTemplatePolicies: a setup from a template without a policy gets the template's own, as
// its paper ran it, checked like any other; a policy given replaces it whole.
func TestTemplatePolicies(t *testing.T) {
	with := 0
	for _, tpl := range tasks.Templates() {
		got, err := (&Service{}).CheckSetup(SetupDraft{Template: tpl.ID})
		if err != nil || !got.Valid {
			t.Fatalf("%s: %v %+v", tpl.ID, err, got)
		}
		want := workflow.Policy{}
		if len(tpl.Workflow) > 0 {
			with++
			dec := json.NewDecoder(strings.NewReader(string(tpl.Workflow)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&want); err != nil {
				t.Fatalf("%s: %v", tpl.ID, err)
			}
		}
		if !reflect.DeepEqual(*got.Workflow, want.Defaults()) {
			t.Errorf("%s: policy %+v, want %+v", tpl.ID, *got.Workflow, want.Defaults())
		}
	}
	if with == 0 {
		t.Fatal("no template has a policy of its own")
	}
	got, err := (&Service{}).CheckSetup(SetupDraft{Template: "omnireward-pair", Workflow: &workflow.Policy{Overlap: 2}})
	if err != nil || !got.Valid || got.Workflow.Overlap != 2 || got.Workflow.CriteriaStage != nil || got.Workflow.Consensus.Nominal != workflow.NominalUnanimous {
		t.Fatalf("a policy given: %v %+v", err, got)
	}
}
