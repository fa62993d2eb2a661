package insight_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestQualityReliabilityRanksSpammers: eight annotators label 90 items at overlap 3 in random
// turns, six of them right with probability 0.8–0.92 and two answering at random; a few gold
// items are mixed in. The quality report's reliability ranks the two who answer at random last
// and flags them; every other annotator is unflagged; each question's estimate equals the
// model fitted directly on the same ratings, and the pooled figure is the questions' sum.
func TestQualityReliabilityRanksSpammers(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		pol := policy(3)
		pol.GoldRate = 0.05
		f := newFixture(t, st, projects.ProjectSpec{Workflow: pol})
		names := []string{"A1", "A2", "A3", "A4", "A5", "A6", "S1", "S2"}
		accuracy := []float64{0.92, 0.9, 0.88, 0.85, 0.82, 0.8, 0.5, 0.5}
		people := f.annotators(names...)
		rng := rand.New(rand.NewPCG(7, 11))
		truthOK, truthScore := map[string]string{}, map[string]int{}
		var lines []string
		for i := range 90 {
			ext := fmt.Sprintf("i%02d", i)
			truthOK[ext], truthScore[ext] = []string{"yes", "no"}[rng.IntN(2)], 1+rng.IntN(5)
			lines = append(lines, line(ext))
		}
		for i := range 6 {
			ext := fmt.Sprintf("g%d", i)
			truthOK[ext], truthScore[ext] = []string{"yes", "no"}[i%2], 1+i%5
			lines = append(lines, line(ext, `"gold": true`, fmt.Sprintf(`"ground_truth": {"answers": {"ok": %q, "score": %d}}`, truthOK[ext], truthScore[ext])))
		}
		f.importItems(lines...)
		answer := func(k int, ext string) tasks.Answers {
			ok, score := truthOK[ext], truthScore[ext]
			if rng.Float64() >= accuracy[k] {
				ok = map[string]string{"yes": "no", "no": "yes"}[ok]
			}
			if rng.Float64() >= accuracy[k] {
				score = 1 + (score+rng.IntN(4))%5 // any other score
			}
			return answers("ok", ok, "score", score)
		}
		p := f.project()
		open := slices.Clone([]int{0, 1, 2, 3, 4, 5, 6, 7})
		for len(open) > 0 {
			i := rng.IntN(len(open))
			k := open[i]
			w := workflow.Worker{ID: people[k].ID, Roles: store.RoleSet{store.RoleAnnotator}}
			c, err := f.wf.Next(f.ctx, p, people[k], w.Roles, flow.StageLabel, false)
			if err != nil {
				t.Fatal(err)
			}
			if c == nil {
				open = slices.Delete(open, i, i+1)
				continue
			}
			f.submit(p, w, c.Assignment, workflow.Submission{Answers: answer(k, f.extOf(c.Assignment.ItemID)), TimeSpentMS: 5000})
		}
		rep, err := f.in.Quality(f.ctx, f.project())
		if err != nil {
			t.Fatal(err)
		}
		q := byUser(t, rep)
		order := slices.Clone(rep.Annotators)
		for _, a := range order {
			if a.Reliability == nil {
				t.Fatalf("%s has no reliability", a.Name)
			}
		}
		slices.SortFunc(order, func(a, b insight.AnnotatorQuality) int {
			return cmp.Compare(b.Reliability.Accuracy, a.Reliability.Accuracy)
		})
		for _, a := range order {
			r := a.Reliability
			t.Logf("%s: %d labels, reliability %.3f [%.3f, %.3f] over %d answers (ok %.3f, score %.3f), flags %v",
				a.Name, a.Labels, r.Accuracy, r.Low, r.High, r.Ratings, r.Questions["ok"].Accuracy, r.Questions["score"].Accuracy, a.Flags)
		}
		if last := []string{order[6].Name, order[7].Name}; !slices.Contains(last, "S1") || !slices.Contains(last, "S2") {
			t.Errorf("lowest reliability: %v, want S1 and S2", last)
		}
		for _, a := range rep.Annotators {
			flagged := slices.ContainsFunc(a.Flags, func(fl insight.QualityFlag) bool { return fl.Code == insight.FlagLowReliability })
			if flagged != (a.Name[0] == 'S') {
				t.Errorf("%s: flagged low_reliability %v, flags %+v", a.Name, flagged, a.Flags)
			}
		}

		// the "ok" estimate is the model fitted directly on the same ratings, gold pinned (to
		// 1e-12: the ratings are summed in another order)
		b := agreement.NewBuilder(agreement.Nominal, 0)
		gold := map[string]string{}
		labels, err := st.GoldLabels(f.ctx, f.pid)
		if err != nil {
			t.Fatal(err)
		}
		if len(labels) == 0 {
			t.Fatal("no gold labels: the test does not exercise gold")
		}
		polar := map[string]string{`"yes"`: "satisfied", `"no"`: "not_satisfied"}
		for _, l := range labels {
			ans, g := workflow.DecodeAnswers(l.Answers), workflow.DecodeAnswers(l.Gold)
			b.Add(l.ItemID, l.UserID, polar[string(ans["ok"])])
			gold[l.ItemID] = polar[string(g["ok"])]
		}
		if err := st.EachProductionLabel(f.ctx, f.pid, false, func(r *store.LabelRow) error {
			b.Add(r.ItemID, r.UserID, polar[string(workflow.DecodeAnswers(r.Answers)["ok"])])
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		tab, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		fit, err := agreement.EstimateReliability(tab, agreement.ReliabilityOptions{Gold: gold})
		if err != nil {
			t.Fatal(err)
		}
		// the reliability job keeps the same model
		if err := f.in.RunFigures(f.ctx, f.pid, flow.FiguresReliability, ""); err != nil {
			t.Fatal(err)
		}
		row, err := st.FiguresResult(f.ctx, f.pid, string(flow.FiguresReliability))
		if err != nil {
			t.Fatal(err)
		}
		var kept workflow.ReliabilityModels
		if err := json.Unmarshal(row.Result, &kept); err != nil {
			t.Fatal(err)
		}
		model := kept.Questions["ok"]
		if model == nil || kept.Questions["score"] == nil || kept.Questions["notes"] != nil || kept.Labels != int64(tab.NumRatings()-len(labels)) {
			t.Fatalf("kept model: %d labels, questions %v", kept.Labels, slices.Collect(maps.Keys(kept.Questions)))
		}
		for r := 0; r < tab.NumRaters(); r++ {
			for k, row := range fit.Confusion[r] {
				for l, x := range row {
					if y := model.Confusion[tab.Rater(r)][k][l]; !near12(x, y) {
						t.Fatalf("%s: kept confusion[%d][%d] = %g, fitted directly %g", tab.Rater(r), k, l, y, x)
					}
				}
			}
		}
		for r := 0; r < tab.NumRaters(); r++ {
			got, want := q[tab.Rater(r)].Reliability.Questions["ok"], fit.Raters[r]
			if got.Ratings != want.Ratings || !near12(got.Accuracy, want.Accuracy) || !near12(got.Low, want.Low) || !near12(got.High, want.High) {
				t.Errorf("%s: ok %+v, fitted directly %+v", tab.Rater(r), got, want)
			}
			pooled := q[tab.Rater(r)].Reliability
			sc := pooled.Questions["score"]
			if n := got.Ratings + sc.Ratings; pooled.Ratings != n {
				t.Errorf("%s: pooled over %d answers, questions hold %d", tab.Rater(r), pooled.Ratings, n)
			}
			if acc := (got.Accuracy*float64(got.Ratings) + sc.Accuracy*float64(sc.Ratings)) / float64(pooled.Ratings); !near12(pooled.Accuracy, acc) {
				t.Errorf("%s: pooled accuracy %.15g, from the questions %.15g", tab.Rater(r), pooled.Accuracy, acc)
			}
		}
	})
}

func near12(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
