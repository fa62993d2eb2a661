package insight_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// judgeTruths are six decided items of balanceSchema (c never answered): a, b, score, source,
// generator.
var judgeTruths = []struct {
	ext, a, b      string
	score          int
	source, system string
}{
	{"j1", "yes", "no", 5, "s1", "g1"}, {"j2", "no", "no", 4, "s1", "g1"}, {"j3", "yes", "yes", 2, "s2", "g2"},
	{"j4", "yes", "no", 3, "s2", "g2"}, {"j5", "no", "yes", 1, "s1", "g2"}, {"j6", "yes", "no", 4, "s2", "g1"},
}

// judgeFixture imports judgeTruths (j6 alone with a batch key) and three models' predictions:
// m1 agrees everywhere but on j5's score (2), m2 answers a Yes, b Yes (a defect) and 3
// everywhere, m3 answers only a, on j1..j3 (yes, no, no).
func judgeFixture(t *testing.T, st *store.Store) *fixture {
	t.Helper()
	var s tasks.Schema
	if err := json.Unmarshal([]byte(balanceSchema), &s); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, st, projects.ProjectSpec{Schema: &s, Workflow: policy(1)})
	var lines, preds []string
	for i, j := range judgeTruths {
		meta := fmt.Sprintf(`"meta": {"source": %q, "generator": %q}`, j.source, j.system)
		if j.ext == "j6" {
			meta = fmt.Sprintf(`"meta": {"source": %q, "generator": %q, "batch": "b1"}`, j.source, j.system)
		}
		lines = append(lines, line(j.ext, meta,
			fmt.Sprintf(`"ground_truth": {"provenance": "constructed", "answers": {"a": %q, "b": %q, "score": %d}}`, j.a, j.b, j.score)))
		score := j.score
		if j.ext == "j5" {
			score = 2
		}
		preds = append(preds, prediction(j.ext, "m1", "a", j.a, "b", j.b, "score", score),
			prediction(j.ext, "m2", "a", "yes", "b", "yes", "score", 3))
		if i < 3 {
			preds = append(preds, prediction(j.ext, "m3", "a", []string{"yes", "no", "no"}[i]))
		}
	}
	f.importItems(lines...)
	f.importPredictions(preds...)
	return f
}

// judgeFigures is what a test reads of a row's report.
type judgeFigures struct {
	N          int                        `json:"n"`
	NMissing   int                        `json:"n_missing"`
	Accuracy   *float64                   `json:"accuracy"`
	Pearson    *float64                   `json:"pearson"`
	Difference map[string]json.RawMessage `json:"difference"`
}

func rowFigures(t *testing.T, r insight.JudgeRow) judgeFigures {
	t.Helper()
	var out judgeFigures
	if err := json.Unmarshal(r.Report, &out); err != nil {
		t.Fatalf("report of %s: %v", r.Model, err)
	}
	return out
}

// TestJudgeBoard: the leaderboard of three models counted by hand: one group of all binary
// questions and one per question, each ranked by its headline (accuracy, or Pearson for
// scores), the paired difference to the best, rows with the reason they are empty, the scatter
// of the scores and the per-system means.
func TestJudgeBoard(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := judgeFixture(t, st)
		opts := insight.JudgeOptions{ClusterKey: "source", SystemKey: "generator"}
		b, err := f.in.Judges(f.ctx, f.project(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if b.Status != insight.AgreementReady || b.ClusterKey != "source" || b.SystemKey != "generator" || b.MissingMeta != nil ||
			!slices.Equal(b.Models, []string{"m1", "m2", "m3"}) {
			t.Fatalf("board %+v", b)
		}
		groups := map[string]insight.JudgeGroup{}
		var keys []string
		for _, g := range b.Groups {
			groups[g.Key], keys = g, append(keys, g.Key)
		}
		if !slices.Equal(keys, []string{"binary", "a", "b", "c", "score"}) || !slices.Equal(groups["binary"].Questions, []string{"a", "b", "c"}) {
			t.Fatalf("groups %v", keys)
		}
		for _, r := range groups["c"].Rows {
			if !strings.Contains(r.Reason, "no decided item has ground truth") || string(r.Report) != "null" {
				t.Errorf("group c, %s: %+v", r.Model, r)
			}
		}
		// a: m1 6 of 6, m2 4 of 6 (j2 and j5 are No), m3 2 of 3 (j2 right, j3 wrong)
		a := groups["a"]
		if a.Best != "m1" || a.Headline != "accuracy" || a.Items != 6 || a.Kind != "binary" {
			t.Fatalf("group a %+v", a)
		}
		want := map[string][2]float64{"m1": {1, 6}, "m2": {4.0 / 6, 6}, "m3": {2.0 / 3, 3}}
		for _, r := range a.Rows {
			fig := rowFigures(t, r)
			near(t, "a accuracy of "+r.Model, fig.Accuracy, want[r.Model][0])
			if float64(fig.N) != want[r.Model][1] || (r.Model == "m1") != (fig.Difference == nil) {
				t.Errorf("a, %s: n %d, difference %v", r.Model, fig.N, fig.Difference)
			}
		}
		// b is a defect question: m2's Yes is "not satisfied", right on j3 and j5 only
		bq := groups["b"]
		near(t, "b accuracy of m2", rowFigures(t, bq.Rows[1]).Accuracy, 2.0/6)
		if bq.Best != "m1" || !strings.Contains(bq.Rows[2].Reason, "no item of the ground truth has a prediction") {
			t.Errorf("group b %+v", bq)
		}
		checkScoreGroup(t, groups["score"])
		if g := groups["binary"]; g.Best != "m1" || g.Items != 6 || g.Kind != "binary" {
			t.Errorf("binary group %+v", g)
		}
	})
}

// checkScoreGroup: m1 alone has a Pearson (m2 answers 3 everywhere, m3 no score); its scatter
// and its systems' means are those of the six items.
func checkScoreGroup(t *testing.T, g insight.JudgeGroup) {
	t.Helper()
	if g.Headline != "pearson" || g.Kind != "score" || g.Best != "m1" || len(g.Rows) != 3 {
		t.Fatalf("score group %+v", g)
	}
	m1, m2, m3 := g.Rows[0], g.Rows[1], g.Rows[2]
	r, _ := agreement.Pearson([]float64{5, 4, 2, 3, 1, 4}, []float64{5, 4, 2, 3, 2, 4})
	near(t, "m1 pearson", rowFigures(t, m1).Pearson, r)
	if fig := rowFigures(t, m2); fig.Pearson != nil || fig.N != 6 {
		t.Errorf("m2 with a constant score: %+v", fig)
	}
	if m3.Reason == "" || len(m3.Points) != 0 || m3.System != nil {
		t.Errorf("m3 without scores: %+v", m3)
	}
	wantPoints := []insight.ScorePoint{{1, 2, 1}, {2, 2, 1}, {3, 3, 1}, {4, 4, 2}, {5, 5, 1}}
	if !slices.Equal(m1.Points, wantPoints) {
		t.Errorf("m1 points %+v", m1.Points)
	}
	if len(m2.Points) != 5 || m2.Points[0] != (insight.ScorePoint{1, 3, 1}) {
		t.Errorf("m2 points %+v", m2.Points)
	}
	sc := m1.System
	wantSys := []insight.SystemMean{{"g1", 3, 13.0 / 3, 13.0 / 3}, {"g2", 3, 2, 7.0 / 3}}
	if sc == nil || len(sc.Systems) != 2 {
		t.Fatalf("m1 systems %+v", sc)
	}
	for i, w := range wantSys {
		s := sc.Systems[i]
		if s.System != w.System || s.Items != w.Items {
			t.Errorf("system %+v, want %+v", s, w)
		}
		near(t, s.System+" human mean", &s.Human, w.Human)
		near(t, s.System+" judge mean", &s.Judge, w.Judge)
	}
	near(t, "system pearson", sc.Pearson, 1)
	near(t, "system spearman", sc.Spearman, 1)
	if len(sc.LeaveOneOut) != 2 || sc.LeaveOneOut[0].System != "g1" || sc.LeaveOneOut[0].Pearson != nil {
		t.Errorf("leave one out %+v", sc.LeaveOneOut)
	}
}

// TestJudgesMissingMeta: an option naming a metadata key some decided items lack is refused
// on that option with their number, before anything is computed.
func TestJudgesMissingMeta(t *testing.T) {
	f := judgeFixture(t, openSQLite(t))
	q := &queue{}
	f.in.UseJobs(q)
	_, err := f.in.Judges(f.ctx, f.project(), insight.JudgeOptions{ClusterKey: "source", StrataKey: "batch", SystemKey: "nope"})
	if fieldCode(err, "strata_key") != "missing_meta" || fieldCode(err, "system_key") != "missing_meta" || fieldCode(err, "cluster_key") != "" ||
		!strings.Contains(err.Error(), `5 decided items have no metadata key "batch"`) {
		t.Fatalf("refusal: %v", err)
	}
	if len(q.figures) != 0 {
		t.Fatalf("figures queued for refused options: %v", q.figures)
	}
}

// TestJudgeOptionsParams: the options' canonical encoding reads back to the same options.
func TestJudgeOptionsParams(t *testing.T) {
	for _, c := range []struct {
		o      insight.JudgeOptions
		params string
	}{
		{insight.JudgeOptions{}, ""},
		{insight.JudgeOptions{ClusterKey: "source"}, "cluster_key=source"},
		{insight.JudgeOptions{SystemKey: "gen erator", StrataKey: "lang", ClusterKey: "a&b"}, "cluster_key=a%26b&strata_key=lang&system_key=gen+erator"},
	} {
		if got := c.o.Params(); got != c.params {
			t.Errorf("%+v.Params() = %q, want %q", c.o, got, c.params)
		}
		if back := insight.ParseJudgeOptions(c.params); back != c.o {
			t.Errorf("ParseJudgeOptions(%q) = %+v", c.params, back)
		}
	}
	if o := insight.EvalOptions(agreement.Pairwise); o.Kind != agreement.Pairwise || o.Seed != insight.JudgeSeed || o.Intervals != insight.JudgeReplicates || o.Elo.K != insight.JudgeEloK {
		t.Errorf("eval options %+v", o)
	}
}
