package insight_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestJudgeScoresAsRecords: on a Likert project (items whose ids do not follow their external
// ids, answers without a score, predictions missing), each model's report equals agreement's
// on judge records built the plain way (one string record per answer, external id order), and
// the scatter points and per-system means equal a count over those records.
func TestJudgeScoresAsRecords(t *testing.T) {
	ctx := context.Background()
	st, fl, pid, load := benchProject(t, "likert-rating")
	rng := rand.New(rand.NewPCG(7, 31))
	n := 240
	answer := func(x int) string {
		if x == 0 {
			return `{"quality": "na"}`
		}
		return fmt.Sprintf(`{"quality": %d}`, x)
	}
	truth := make([]int, n)
	preds := map[string][]int{"m1": make([]int, n), "m2": make([]int, n)}
	for i := range n {
		id, ext := fmt.Sprintf("item-%03d", n-i), fmt.Sprintf("ext-%03d", i)
		gen := fmt.Sprintf(`"g%d"`, i%5)
		if i%7 == 0 {
			gen = "3" // a number: its text is the system
		}
		exec(t, st, `INSERT INTO items (id, project_id, external_id, inputs, meta, stage, gt_revision, version, created_at, updated_at)
		 VALUES ($1, $2, $3, '{"prompt": "p"}', $4, 'done', 1, 1, now(), now())`, id, pid, ext,
			fmt.Sprintf(`{"source": "corpus-%d", "generator": %s}`, i%4, gen))
		truth[i] = rng.IntN(6)
		exec(t, st, `INSERT INTO ground_truth_revisions (item_id, revision, answers, provenance, created_at)
		 VALUES ($1, 1, $2, 'constructed', now())`, id, answer(truth[i]))
		for _, m := range []string{"m1", "m2"} {
			p := preds[m]
			p[i] = max(1, min(5, truth[i]+rng.IntN(3)-1))
			if m == "m2" {
				p[i] = 1 + rng.IntN(5)
			}
			if rng.IntN(9) == 0 {
				p[i] = -1 // no prediction
				continue
			}
			exec(t, st, `INSERT INTO predictions (item_id, model, project_id, answers, created_at) VALUES ($1, $2, $3, $4, now())`,
				id, m, pid, answer(p[i]))
		}
	}
	p := load()
	opts := insight.JudgeOptions{ClusterKey: "source", SystemKey: "generator"}
	if err := fl.RunFigures(ctx, p.ID, flow.FiguresJudges, opts.Params()); err != nil {
		t.Fatal(err)
	}
	board, err := fl.Judges(ctx, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Schema.Questions[slices.IndexFunc(p.Schema.Questions, func(q tasks.Question) bool { return q.Key == "quality" })]
	value := func(x int) (string, bool) { return insight.JudgeValue(q, json.RawMessage(fmt.Sprint(x))) }
	var ref []agreement.JudgeRecord
	var systems []string
	for i, x := range truth {
		if v, ok := value(x); ok && x > 0 {
			ref = append(ref, agreement.JudgeRecord{Unit: fmt.Sprintf("ext-%03d", i), Question: "quality", Value: v, Cluster: fmt.Sprint("corpus-", i%4)})
			systems = append(systems, map[bool]string{true: "3", false: fmt.Sprint("g", i%5)}[i%7 == 0])
		}
	}
	refData, _ := agreement.NewJudgeData(ref)
	predData := map[string]*agreement.JudgeData{}
	for m, p := range preds {
		var recs []agreement.JudgeRecord
		for i, x := range p {
			if x > 0 {
				v, _ := value(x)
				recs = append(recs, agreement.JudgeRecord{Unit: fmt.Sprintf("ext-%03d", i), Question: "quality", Value: v})
			}
		}
		predData[m], _ = agreement.NewJudgeData(recs)
	}
	g := board.Groups[slices.IndexFunc(board.Groups, func(g insight.JudgeGroup) bool { return g.Key == "quality" })]
	if g.Best == "" || len(g.Rows) != 2 {
		t.Fatalf("group %+v", g)
	}
	evalOpts := insight.EvalOptions(agreement.Score)
	for _, row := range g.Rows {
		want, err := agreement.EvaluateJudge(refData, predData[row.Model], nil, evalOpts)
		if err != nil {
			t.Fatal(err)
		}
		if row.Model != g.Best {
			want.Difference, _ = agreement.JudgeDifference(refData, predData[row.Model], predData[g.Best], evalOpts)
		}
		wj, _ := json.Marshal(want)
		if string(wj) != string(row.Report) {
			t.Fatalf("model %s: report\n%s\nfrom records\n%s", row.Model, row.Report, wj)
		}
		counts := map[[2]float64]int64{}
		type acc struct {
			n    int
			h, j float64
		}
		by := map[string]*acc{}
		for k, r := range ref {
			pr, ok := predData[row.Model].Lookup(r.Unit, r.Question)
			if !ok {
				continue
			}
			h, _ := strconv.ParseFloat(r.Value, 64)
			j, _ := strconv.ParseFloat(pr.Value, 64)
			counts[[2]float64{h, j}]++
			if by[systems[k]] == nil {
				by[systems[k]] = &acc{}
			}
			a := by[systems[k]]
			a.n, a.h, a.j = a.n+1, a.h+h, a.j+j
		}
		var total int64
		for _, pt := range row.Points {
			if counts[[2]float64{pt.Human, pt.Judge}] != pt.Count {
				t.Fatalf("model %s: point %+v, counted %d", row.Model, pt, counts[[2]float64{pt.Human, pt.Judge}])
			}
			total += pt.Count
		}
		if len(row.Points) != len(counts) || !slices.IsSortedFunc(row.Points, func(a, b insight.ScorePoint) int {
			if a.Human != b.Human {
				return cmp.Compare(a.Human, b.Human)
			}
			return cmp.Compare(a.Judge, b.Judge)
		}) {
			t.Fatalf("model %s: points %+v, counted %v", row.Model, row.Points, counts)
		}
		if row.System == nil || len(row.System.Systems) != len(by) {
			t.Fatalf("model %s: systems %+v", row.Model, row.System)
		}
		for _, m := range row.System.Systems {
			a := by[m.System]
			if a == nil || m.Items != a.n || m.Human != a.h/float64(a.n) || m.Judge != a.j/float64(a.n) {
				t.Fatalf("model %s: system %+v, counted %+v", row.Model, m, a)
			}
		}
	}
}
