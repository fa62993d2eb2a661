package calibration

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

var rulesSchema = &tasks.Schema{Questions: []tasks.Question{
	{Key: "score", Kind: tasks.KindLikert}, {Key: "ok", Kind: tasks.KindBinary}, {Key: "notes", Kind: tasks.KindText}}}

// twoRaters is a round of three items where A answers score 4, 2, 5 and ok yes, no, yes, and
// B score 3, 2, 3 and ok yes, yes, no (B only u1 and u2 when short); gold: u1 score 4 and Yes,
// u2 score 2.
func twoRaters(pass PassRule, short bool) *roundData {
	d := &roundData{pass: pass, work: map[string]map[string]store.Assignment{},
		items:  []store.RoundItem{{ItemID: "u1"}, {ItemID: "u2", Position: 1}, {ItemID: "u3", Position: 2}},
		people: []store.RoundPerson{{UserID: "A", Name: "A"}, {UserID: "B", Name: "B"}},
		gold:   map[string]tasks.Answers{"u1": {"score": json.RawMessage("4"), "ok": json.RawMessage(`"yes"`)}, "u2": {"score": json.RawMessage("2")}}}
	say := map[string][3][2]string{"A": {{"4", "yes"}, {"2", "no"}, {"5", "yes"}}, "B": {{"3", "yes"}, {"2", "yes"}, {"3", "no"}}}
	for who, rows := range say {
		d.work[who] = map[string]store.Assignment{}
		for i, row := range rows {
			if short && who == "B" && i == 2 {
				continue
			}
			item := d.items[i].ItemID
			d.work[who][item] = store.Assignment{UserID: who, ItemID: item, TimeSpentMS: int64(1000 * (i + 1)),
				Answers: store.JSON(`{"score": ` + row[0] + `, "ok": "` + row[1] + `"}`)}
		}
	}
	return d
}

func alphaOf(level agreement.Level, a, b [3]string) float64 {
	bl := agreement.NewBuilder(level, 0)
	for i := range a {
		bl.Add(string(rune('1'+i)), "A", a[i])
		bl.Add(string(rune('1'+i)), "B", b[i])
	}
	t, _ := bl.Build()
	v, err := agreement.Alpha(t)
	if err != nil {
		return math.NaN()
	}
	return v
}

// TestPassRule: each metric's score averaged over the rule's questions, the threshold met at
// or above it, and nobody passing who left an item undone or has no score.
func TestPassRule(t *testing.T) {
	alpha := (alphaOf(agreement.Ordinal, [3]string{"4", "2", "5"}, [3]string{"3", "2", "3"}) +
		alphaOf(agreement.Nominal, [3]string{"yes", "no", "yes"}, [3]string{"yes", "yes", "no"})) / 2
	both := []string{"score", "ok"}
	for _, c := range []struct {
		name       string
		pass       PassRule
		short      bool
		scoreA     float64 // NaN: no score
		scoreB     float64
		passA, pas bool
	}{
		{"exact met", PassRule{flow.PassExactWithPeers, 0.3, []string{"score"}}, false, 1.0 / 3, 1.0 / 3, true, true},
		{"exact missed", PassRule{flow.PassExactWithPeers, 0.34, []string{"score"}}, false, 1.0 / 3, 1.0 / 3, false, false},
		{"within one at the threshold", PassRule{flow.PassWithinOneWithPeers, 2.0 / 3, []string{"score"}}, false, 2.0 / 3, 2.0 / 3, true, true},
		{"alpha over both questions", PassRule{flow.PassAlphaWithPeers, -1, both}, false, alpha, alpha, true, true},
		{"accuracy", PassRule{flow.PassAccuracyVsGold, 0.75, both}, false, 1, 0.75, true, true},
		{"accuracy missed", PassRule{flow.PassAccuracyVsGold, 0.8, both}, false, 1, 0.75, true, false},
		{"an item left undone", PassRule{flow.PassExactWithPeers, 0, []string{"score"}}, true, 1.0 / 2, 1.0 / 2, true, false},
		{"no gold on the question", PassRule{flow.PassAccuracyVsGold, 0, []string{"notes"}}, false, math.NaN(), math.NaN(), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := twoRaters(c.pass, c.short)
			for i, want := range []struct {
				score  float64
				passed bool
			}{{c.scoreA, c.passA}, {c.scoreB, c.pas}} {
				a := d.annotator(rulesSchema, d.people[i])
				switch {
				case math.IsNaN(want.score) && a.Score != nil:
					t.Errorf("%s: score %v, want none", a.UserID, *a.Score)
				case !math.IsNaN(want.score) && (a.Score == nil || math.Abs(*a.Score-want.score) > 1e-9):
					t.Errorf("%s: score %v, want %v", a.UserID, a.Score, want.score)
				}
				if a.Passed != want.passed {
					t.Errorf("%s: passed %v, want %v", a.UserID, a.Passed, want.passed)
				}
			}
		})
	}
	if a := twoRaters(PassRule{flow.PassExactWithPeers, 0, []string{"score"}}, false).annotator(rulesSchema, store.RoundPerson{UserID: "A"}); a.ItemsDone != 3 || *a.MedianSeconds != 2 {
		t.Errorf("A's items %d, median %v", a.ItemsDone, a.MedianSeconds)
	}
	empty := &roundData{pass: PassRule{flow.PassExactWithPeers, 0, []string{"score"}}, people: []store.RoundPerson{{UserID: "A"}}}
	if a := empty.annotator(rulesSchema, empty.people[0]); a.Passed || a.Score != nil || a.MedianSeconds != nil {
		t.Errorf("a round without items: %+v", a)
	}
}

// TestCalibrationRatings: answers as the report compares them: binary as given, Likert N/A a
// category of its own, checklist items and ranked options as sub-units, sets in any order;
// what does not decode gives nothing.
func TestCalibrationRatings(t *testing.T) {
	q := func(k tasks.Kind) tasks.Question { return tasks.Question{Kind: k} }
	for _, c := range []struct {
		q    tasks.Question
		raw  string
		want map[string]string
	}{
		{q(tasks.KindBinary), `"na"`, map[string]string{"": "na"}},
		{q(tasks.KindBinary), `1`, nil},
		{q(tasks.KindLikert), `4`, map[string]string{"": "4"}},
		{q(tasks.KindLikert), `"na"`, map[string]string{"": "na"}},
		{q(tasks.KindLikert), `true`, nil},
		{q(tasks.KindChecklist), `{"x": 2, "y": 0}`, map[string]string{"/x": "2", "/y": "0"}},
		{q(tasks.KindChecklist), `"x"`, nil},
		{q(tasks.KindRanking), `["B", "A"]`, map[string]string{"/B": "1", "/A": "2"}},
		{q(tasks.KindRanking), `{}`, nil},
		{q(tasks.KindMultiChoice), `["c", "a"]`, map[string]string{"": "a" + tasks.SetSeparator + "c"}},
		{q(tasks.KindMultiChoice), `"a"`, nil},
		{q(tasks.KindPairwise), `"missing"`, nil},
		{q(tasks.KindPairwise), ``, nil},
	} {
		if got := calibrationRatings(c.q, json.RawMessage(c.raw)); !maps.Equal(got, c.want) {
			t.Errorf("%s %s: %v, want %v", c.q.Kind, c.raw, got, c.want)
		}
	}
	if reportLevel(q(tasks.KindChecklist)) != tasks.LevelOrdinal || reportLevel(q(tasks.KindBinary)) != tasks.LevelNominal ||
		levelOf(q(tasks.KindText)) != agreement.Nominal || levelOf(q(tasks.KindLikert)) != agreement.Ordinal {
		t.Error("levels")
	}
	if meanDefined([]*float64{nil, nil}) != nil || canonicalJSON(json.RawMessage(`{"b": 1, "a": [1, 2]}`)) != `{"a":[1,2],"b":1}` ||
		canonicalJSON(json.RawMessage(`not json`)) != "not json" {
		t.Error("helpers")
	}
}

// TestPooledScoresOf: the Likert questions pool when there are two or more on one scale.
func TestPooledScoresOf(t *testing.T) {
	n := func(v int) *int { return &v }
	lik := func(key string, lo, hi int) tasks.Question {
		return tasks.Question{Key: key, Kind: tasks.KindLikert, Min: n(lo), Max: n(hi)}
	}
	for _, c := range []struct {
		name string
		qs   []tasks.Question
		want []string
	}{
		{"PA and IA", []tasks.Question{lik("pa", 1, 5), {Key: "pc", Kind: tasks.KindChecklist}, lik("ia", 1, 5)}, []string{"pa", "ia"}},
		{"one score", []tasks.Question{lik("pa", 1, 5), {Key: "ok", Kind: tasks.KindBinary}}, nil},
		{"two scales", []tasks.Question{lik("pa", 1, 5), lik("story", 1, 10)}, nil},
	} {
		var got []string
		for _, q := range pooledScores(&tasks.Schema{Questions: c.qs}) {
			got = append(got, q.Key)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
