package insight_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestAnswerRatings: each kind of answer as agreement values, the way agreement, balance and
// the judges read it.
func TestAnswerRatings(t *testing.T) {
	binary := tasks.Question{Key: "q", Kind: tasks.KindBinary, AllowNA: true}
	naYes := tasks.Question{Key: "q", Kind: tasks.KindBinary, AllowNA: true, NAMeans: tasks.NASatisfied}
	defect := tasks.Question{Key: "q", Kind: tasks.KindBinary, YesMeans: tasks.YesMeansDefect}
	sep := insight.SetSeparator
	for _, c := range []struct {
		name string
		q    tasks.Question
		raw  string
		raw2 bool
		want []insight.Rating
	}{
		{"binary yes", binary, `"yes"`, false, []insight.Rating{{UnitSuffix: "", Value: "satisfied"}}},
		{"binary no", binary, `"no"`, false, []insight.Rating{{UnitSuffix: "", Value: "not_satisfied"}}},
		{"binary open N/A", binary, `"na"`, false, nil},
		{"binary N/A mapped", naYes, `"na"`, false, []insight.Rating{{UnitSuffix: "", Value: "satisfied"}}},
		{"binary raw N/A", binary, `"na"`, true, []insight.Rating{{UnitSuffix: "", Value: "na"}}},
		{"defect yes", defect, `"yes"`, false, []insight.Rating{{UnitSuffix: "", Value: "not_satisfied"}}},
		{"defect raw", defect, `"yes"`, true, []insight.Rating{{UnitSuffix: "", Value: "yes"}}},
		{"binary not a string", binary, `3`, false, nil},
		{"missing", binary, `"missing"`, false, nil},
		{"likert", tasks.Question{Kind: tasks.KindLikert}, `4`, false, []insight.Rating{{UnitSuffix: "", Value: "4"}}},
		{"likert N/A", tasks.Question{Kind: tasks.KindLikert, AllowNA: true}, `"na"`, false, nil},
		{"pairwise", tasks.Question{Kind: tasks.KindPairwise}, `"B"`, false, []insight.Rating{{UnitSuffix: "", Value: "B"}}},
		{"choice", tasks.Question{Kind: tasks.KindChoice}, `"red"`, false, []insight.Rating{{UnitSuffix: "", Value: "red"}}},
		{"multi choice, any order", tasks.Question{Kind: tasks.KindMultiChoice}, `["c", "a"]`, false, []insight.Rating{{UnitSuffix: "", Value: "a" + sep + "c"}}},
		{"multi choice not a list", tasks.Question{Kind: tasks.KindMultiChoice}, `"a"`, false, nil},
		{"checklist", tasks.Question{Kind: tasks.KindChecklist}, `{"x": 2, "y": 0}`, false, []insight.Rating{{UnitSuffix: "/x", Value: "2"}, {UnitSuffix: "/y", Value: "0"}}},
		{"ranking", tasks.Question{Kind: tasks.KindRanking}, `["B", "A"]`, false, []insight.Rating{{UnitSuffix: "/A", Value: "2"}, {UnitSuffix: "/B", Value: "1"}}},
		{"list edit", tasks.Question{Kind: tasks.KindListEdit},
			`[{"op": "keep", "from": 0, "text": "one"}, {"op": "drop", "from": 1}, {"op": "add", "text": " three "}]`, false,
			[]insight.Rating{{UnitSuffix: "", Value: `["one","three"]`}}},
		{"list edit not a list", tasks.Question{Kind: tasks.KindListEdit}, `"x"`, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := insight.AnswerRatings(c.q, json.RawMessage(c.raw), c.raw2)
			slices.SortFunc(got, func(a, b insight.Rating) int { return strings.Compare(a.UnitSuffix, b.UnitSuffix) })
			if !slices.Equal(got, c.want) {
				t.Fatalf("AnswerRatings(%s) = %q, want %q", c.raw, got, c.want)
			}
		})
	}
}

// TestJudgeValue: judge values are Yes/No after the mapping (an open N/A gives none),
// the number of a Likert answer and the slot of a pairwise one; other kinds and sub-units give
// none.
func TestJudgeValue(t *testing.T) {
	defect := tasks.Question{Kind: tasks.KindBinary, YesMeans: tasks.YesMeansDefect, AllowNA: true}
	for _, c := range []struct {
		q    tasks.Question
		raw  string
		want string
		ok   bool
	}{
		{defect, `"yes"`, "no", true},
		{defect, `"no"`, "yes", true},
		{defect, `"na"`, "", false},
		{tasks.Question{Kind: tasks.KindLikert}, `5`, "5", true},
		{tasks.Question{Kind: tasks.KindPairwise, AllowTie: true}, `"tie"`, "tie", true},
		{tasks.Question{Kind: tasks.KindChoice}, `"red"`, "", false},
		{tasks.Question{Kind: tasks.KindChecklist}, `{"x": 1}`, "", false},
	} {
		if got, ok := insight.JudgeValue(c.q, json.RawMessage(c.raw)); got != c.want || ok != c.ok {
			t.Errorf("JudgeValue(%s %s) = %q, %v; want %q, %v", c.q.Kind, c.raw, got, ok, c.want, c.ok)
		}
	}
}
