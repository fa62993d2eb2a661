package projects

import (
	"reflect"
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
			[]string{"reviewers"}, []string{"cross review needs a reviewer who did not label the item: with overlap 1 and 1 annotator, every reviewer labels every item"}},
		{"two annotators review each other's labels", workflow.Policy{Overlap: 2, Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateNever}, ids("a", "b"), ids("a", "b"), nil,
			[]string{"reviewers"}, []string{"cross review needs a reviewer who did not label the item: with overlap 2 and 2 annotators, every reviewer labels every item"}},
		{"no adjudicator", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateAlways}, ids("a"), nil, nil,
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who did not label or review the item; the project has no adjudicator"}},
		{"the one adjudicator labels", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateAlways}, ids("a"), nil, ids("a"),
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who did not label or review the item; the project has 1 adjudicator and none is free"}},
		{"both adjudicators label", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateAlways}, ids("a", "b"), nil, ids("a", "b"),
			[]string{"adjudicators"}, []string{"adjudication (always) needs an adjudicator who did not label or review the item; the project has 2 adjudicators and none is free"}},
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
