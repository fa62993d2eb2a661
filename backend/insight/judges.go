package insight

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The judge figures' bootstrap: replicates of each judge's intervals and of the paired
// differences, with a fixed seed so that the same data give the same intervals; Elo with K=32.
const (
	JudgeReplicates = 1000
	JudgeSeed       = 20260311
	JudgeEloK       = 32
)

// JudgeOptions name the item metadata keys the judge figures use: clusters and strata of the
// bootstrap, and the system (generator) whose mean scores are correlated with the humans'.
type JudgeOptions struct {
	ClusterKey string
	StrataKey  string
	SystemKey  string
}

// Params encodes the options canonically (the kept figures' name).
func (o JudgeOptions) Params() string {
	v := url.Values{}
	for k, x := range map[string]string{"cluster_key": o.ClusterKey, "strata_key": o.StrataKey, "system_key": o.SystemKey} {
		if x != "" {
			v.Set(k, x)
		}
	}
	return v.Encode()
}

// ParseJudgeOptions reads options encoded by Params.
func ParseJudgeOptions(params string) JudgeOptions {
	v, _ := url.ParseQuery(params)
	return JudgeOptions{ClusterKey: v.Get("cluster_key"), StrataKey: v.Get("strata_key"), SystemKey: v.Get("system_key")}
}

// EvalOptions are the agreement options every judge is evaluated with; `arbiter judge-eval
// --intervals 1000 --seed 20260311` uses the same.
func EvalOptions(kind agreement.JudgeKind) agreement.JudgeOptions {
	return agreement.JudgeOptions{Kind: kind, Bootstrap: JudgeReplicates, Seed: JudgeSeed, Intervals: JudgeReplicates,
		Elo: agreement.EloOptions{K: JudgeEloK, Tie: 0.5}}
}

// JudgeRow is one model's figures on one question group: agreement's judge report, the paired
// difference to the group's best model, and, for scores, the system-level correlations. A
// model without any prediction on the group's ground truth has an empty row with the reason.
type JudgeRow struct {
	Model  string          `json:"model"`
	Reason string          `json:"reason,omitempty"`
	Report json.RawMessage `json:"report"` // agreement's judge report, as judge-eval writes it
	report *agreement.JudgeReport
	System *SystemCorrelation `json:"system"`
	Points []ScorePoint       `json:"points"`
}

// ScorePoint counts the items with one (human, judge) pair of scores: the scatter of a model.
type ScorePoint struct {
	Human float64 `json:"human"`
	Judge float64 `json:"judge"`
	Count int64   `json:"count"`
}

// SystemCorrelation correlates the systems' mean judge scores with their mean human scores
// (StoryBench Table 21), and Pearson's r leaving each system out.
type SystemCorrelation struct {
	Systems     []SystemMean `json:"systems"`
	Pearson     *float64     `json:"pearson"`
	Spearman    *float64     `json:"spearman"`
	KendallTauB *float64     `json:"kendall_tau_b"`
	LeaveOneOut []LeftOut    `json:"leave_one_out"`
}

// SystemMean is one system's mean scores over the items the judge answered.
type SystemMean struct {
	System string  `json:"system"`
	Items  int     `json:"items"`
	Human  float64 `json:"human"`
	Judge  float64 `json:"judge"`
}

// LeftOut is Pearson's r of the system means without one system.
type LeftOut struct {
	System  string   `json:"system"`
	Pearson *float64 `json:"pearson"`
}

// JudgeGroup is one leaderboard: all binary questions as answer vectors, or one question.
type JudgeGroup struct {
	Key       string     `json:"key"`
	Label     string     `json:"label"`
	Kind      string     `json:"kind"`
	Questions []string   `json:"questions"`
	Items     int        `json:"items"`
	Headline  string     `json:"headline"`
	Best      string     `json:"best"`
	Rows      []JudgeRow `json:"rows"`
}

// judgeFigures is what the job keeps.
type judgeFigures struct {
	Models []string     `json:"models"`
	Groups []JudgeGroup `json:"groups"`
	// MissingMeta counts, per option (cluster_key, …), the decided items whose metadata lacks
	// its key, as the job found them; kept for the answer's check, not part of the answer.
	MissingMeta map[string]int64 `json:"missing_meta,omitempty"`
}

// JudgeBoard is a project's judge leaderboard, as GET .../judges answers it.
type JudgeBoard struct {
	FiguresState
	ClusterKey string `json:"cluster_key"`
	StrataKey  string `json:"strata_key"`
	SystemKey  string `json:"system_key"`
	judgeFigures
}

// Judges answers the judge leaderboard from what the job kept for these options. A metadata
// key that some decided items lack is refused, naming the option.
func (s *Service) Judges(ctx context.Context, p *workflow.Project, o JudgeOptions) (*JudgeBoard, error) {
	missing, err := s.missingMeta(ctx, p, o)
	if err != nil {
		return nil, err
	}
	fe := tasks.FieldErrors{}
	for field, key := range o.keys() {
		if n := missing[field]; n > 0 {
			fe.Add(field, "missing_meta", "%d decided items have no metadata key %q", n, key)
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	b := &JudgeBoard{ClusterKey: o.ClusterKey, StrataKey: o.StrataKey, SystemKey: o.SystemKey,
		judgeFigures: judgeFigures{Models: []string{}, Groups: []JudgeGroup{}}}
	st, _, err := s.cachedFigures(ctx, p, flow.FiguresJudges, o.Params(), &b.judgeFigures)
	b.FiguresState, b.MissingMeta = st, nil
	return b, err
}

// keys returns the options' metadata keys that are set, by option name.
func (o JudgeOptions) keys() map[string]string {
	out := map[string]string{}
	for field, key := range map[string]string{"cluster_key": o.ClusterKey, "strata_key": o.StrataKey, "system_key": o.SystemKey} {
		if key != "" {
			out[field] = key
		}
	}
	return out
}

// missingMeta counts, per option, the decided items whose metadata lacks its key: from the
// kept figures when they are current (the job counted them in its pass over the items; a count
// in SQL reads every item's metadata, seconds at a million items), else in SQL.
func (s *Service) missingMeta(ctx context.Context, p *workflow.Project, o JudgeOptions) (map[string]int64, error) {
	keys := o.keys()
	if len(keys) == 0 {
		return nil, nil
	}
	if row, err := s.store.FiguresResult(ctx, p.ID, figuresName(flow.FiguresJudges, o.Params())); err == nil && row.ComputedAt != nil {
		key, err := s.figuresKey(ctx, p)
		if err != nil {
			return nil, err
		}
		var kept judgeFigures
		if row.DataKey == key && json.Unmarshal(row.Result, &kept) == nil && kept.MissingMeta != nil {
			return kept.MissingMeta, nil
		}
	}
	out := map[string]int64{}
	for field, key := range keys {
		n, err := s.store.DoneItemsWithoutMeta(ctx, p.ID, key)
		if err != nil {
			return nil, err
		}
		out[field] = n
	}
	return out, nil
}

// judgeGroupSpec is one group to evaluate and its reference, as numbered columns.
type judgeGroupSpec struct {
	group JudgeGroup
	kind  agreement.JudgeKind
	ks    []int32 // the group's questions, as numbers of the judged questions
	ref   agreement.JudgeColumns
	items int // decided items with a value in the group
}

// fill sets the group's reference columns from the truth columns, item by item in the
// order of the group's questions, at their exact number. A metadata column with no name
// for any item is left out (nil: "" for every record).
func (sp *judgeGroupSpec) fill(tr *judgeTruth, nq int) {
	n := 0
	for i := range tr.keys.Units {
		had := false
		for _, k := range sp.ks {
			if tr.vals[i*nq+int(k)] >= 0 {
				n, had = n+1, true
			}
		}
		if had {
			sp.items++
		}
	}
	c := agreement.JudgeColumns{Keys: &tr.keys, Unit: make([]int32, 0, n), Question: make([]int32, 0, n), Value: make([]int32, 0, n),
		Names: tr.names}
	meta := [][]int32{tr.cluster, tr.stratum, tr.a, tr.b}
	cols := make([][]int32, len(meta))
	for m, col := range meta {
		if slices.ContainsFunc(col, func(x int32) bool { return x != 0 }) {
			cols[m] = make([]int32, 0, n)
		}
	}
	for i := range tr.keys.Units {
		for _, k := range sp.ks {
			v := tr.vals[i*nq+int(k)]
			if v < 0 {
				continue
			}
			c.Unit, c.Question, c.Value = append(c.Unit, int32(i)), append(c.Question, k), append(c.Value, v)
			for m, col := range cols {
				if col != nil {
					cols[m] = append(col, meta[m][i])
				}
			}
		}
	}
	c.Cluster, c.Stratum, c.A, c.B = cols[0], cols[1], cols[2], cols[3]
	sp.ref = c
}

// JudgeValue is an answer as a judge record's value: "yes"/"no" after a binary question's
// polarity and N/A mapping, the number of a Likert answer, A/B/tie of a pairwise one; ok is
// false for answers that give none (an open N/A, say). Release records and predictions
// read by `arbiter judge-eval` use the same values.
func JudgeValue(q tasks.Question, raw json.RawMessage) (string, bool) {
	return tasks.KindOf(q).JudgeValue(raw)
}

// judgeQuestions are the schema's questions a judge is evaluated on, in key order (the order
// of a release record's answers).
func judgeQuestions(schema *tasks.Schema) []tasks.Question {
	var qs []tasks.Question
	for _, q := range schema.Questions {
		if tasks.KindOf(q).Judge() != tasks.JudgeNone {
			qs = append(qs, q)
		}
	}
	slices.SortFunc(qs, func(a, b tasks.Question) int { return strings.Compare(a.Key, b.Key) })
	return qs
}

// computeJudges evaluates every model's predictions against the newest ground truth of the
// decided items (the job's work).
func (s *Service) computeJudges(ctx context.Context, p *workflow.Project, o JudgeOptions) (*judgeFigures, error) {
	qs := judgeQuestions(p.Schema)
	specs := judgeSpecs(p.Schema, qs)
	tr, index, missing, err := s.judgeTruth(ctx, p, qs, o)
	if err != nil {
		return nil, err
	}
	preds, models, err := s.judgePredictions(ctx, p, qs, index, tr.codes)
	if err != nil {
		return nil, err
	}
	tr.codes.forget()
	tr.keys.Questions = make([]string, len(qs))
	for k, q := range qs {
		tr.keys.Questions[k] = q.Key
	}
	for _, m := range models {
		if err := preds[m].build(&tr.keys, tr.codes.names); err != nil {
			return nil, err
		}
	}
	for _, sp := range specs {
		sp.fill(tr, len(qs))
		sp.ref.Values = tr.codes.names
	}
	groups, err := evaluateGroups(specs, tr, preds, models, o)
	if err != nil {
		return nil, err
	}
	return &judgeFigures{Models: models, Groups: groups, MissingMeta: missing}, nil
}

// evaluateGroups evaluates the groups concurrently, as many at a time as there are CPUs, and
// returns them in the order of specs.
func evaluateGroups(specs []*judgeGroupSpec, tr *judgeTruth, preds map[string]*judgePred, models []string, o JudgeOptions) ([]JudgeGroup, error) {
	groups := make([]JudgeGroup, len(specs))
	errs := make([]error, len(specs))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, sp := range specs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			groups[i], errs[i] = evaluateGroup(sp, tr, preds, models, o)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return groups, nil
}

// judgeKinds is how agreement evaluates a judge of each kind.
var judgeKinds = map[tasks.JudgeKind]agreement.JudgeKind{
	tasks.JudgeBinary:   agreement.Binary,
	tasks.JudgeScore:    agreement.Score,
	tasks.JudgePairwise: agreement.Pairwise,
}

// judgeSpecs lists the groups: all binary questions together (D3-Omni's answer vectors), then
// every question on its own.
func judgeSpecs(schema *tasks.Schema, qs []tasks.Question) []*judgeGroupSpec {
	var specs []*judgeGroupSpec
	var binary []string
	for _, q := range qs {
		if tasks.KindOf(q).Judge() == tasks.JudgeBinary {
			binary = append(binary, q.Key)
		}
	}
	if len(binary) > 1 {
		sp := &judgeGroupSpec{group: JudgeGroup{Key: "binary", Label: "All binary questions", Kind: "binary", Questions: binary}, kind: agreement.Binary}
		for _, key := range binary {
			sp.ks = append(sp.ks, int32(slices.IndexFunc(qs, func(q tasks.Question) bool { return q.Key == key })))
		}
		specs = append(specs, sp)
	}
	for _, q := range schema.Questions {
		if !slices.ContainsFunc(qs, func(x tasks.Question) bool { return x.Key == q.Key }) {
			continue
		}
		name := tasks.KindOf(q).Judge()
		kind := judgeKinds[name]
		k := int32(slices.IndexFunc(qs, func(x tasks.Question) bool { return x.Key == q.Key }))
		specs = append(specs, &judgeGroupSpec{group: JudgeGroup{Key: q.Key, Label: q.Label, Kind: string(name), Questions: []string{q.Key}}, kind: kind, ks: []int32{k}})
	}
	return specs
}

// headlineOf is the figure a group ranks its models by (higher is better).
func headlineOf(kind agreement.JudgeKind) string {
	if kind == agreement.Score {
		return "pearson"
	}
	return "accuracy"
}

func headlineValue(r *agreement.JudgeReport, name string) (float64, bool) {
	e := r.Accuracy
	if name == "pearson" {
		e = r.Pearson
	}
	if e == nil || !e.Defined {
		return 0, false
	}
	return e.Value, true
}

// evaluateGroup evaluates every model on a group, ranks them by the headline figure and adds
// each one's paired difference to the best.
func evaluateGroup(sp *judgeGroupSpec, tr *judgeTruth, preds map[string]*judgePred, models []string, o JudgeOptions) (JudgeGroup, error) {
	g := sp.group
	g.Rows, g.Headline = []JudgeRow{}, headlineOf(sp.kind)
	g.Items = sp.items
	ref, err := agreement.NewJudgeColumns(sp.ref)
	if err != nil {
		return g, err
	}
	opts := EvalOptions(sp.kind)
	best, bestV := "", 0.0
	for _, m := range models {
		row := JudgeRow{Model: m, Points: []ScorePoint{}, Report: json.RawMessage("null")}
		if ref.Len() == 0 {
			row.Reason = "no decided item has ground truth for this group"
			g.Rows = append(g.Rows, row)
			continue
		}
		rep, err := agreement.EvaluateJudge(ref, preds[m].data, nil, opts)
		if err != nil {
			row.Reason = fmt.Sprintf("no item of the ground truth has a prediction of this model (%v)", err)
			g.Rows = append(g.Rows, row)
			continue
		}
		row.report = rep
		if sp.kind == agreement.Score {
			pairs := scorePairs(sp, tr, preds[m])
			row.Points = scorePoints(pairs)
			if o.SystemKey != "" {
				row.System = systemCorrelation(pairs, tr)
			}
		}
		if v, ok := headlineValue(rep, g.Headline); ok && (best == "" || v > bestV) {
			best, bestV = m, v
		}
		g.Rows = append(g.Rows, row)
	}
	g.Best = best
	for i := range g.Rows {
		row := &g.Rows[i]
		if row.report == nil {
			row.Report = json.RawMessage("null")
			continue
		}
		if best != "" && row.Model != best {
			if d, err := agreement.JudgeDifference(ref, preds[row.Model].data, preds[best].data, opts); err == nil {
				row.report.Difference = d
			}
		}
		if row.Report, err = json.Marshal(row.report); err != nil {
			return g, err
		}
	}
	return g, nil
}

// scorePair is an item's human and judge scores on a score group's question.
type scorePair struct {
	item     int32
	human, j float64
}

// scorePairs lists, in item order, the items of a score group whose ground truth and
// prediction are both numbers.
func scorePairs(sp *judgeGroupSpec, tr *judgeTruth, pred *judgePred) []scorePair {
	nq, k := len(tr.keys.Questions), int(sp.ks[0])
	type number struct {
		x  float64
		ok bool
	}
	nums := make([]*number, len(tr.codes.names))
	parse := func(c int32) (float64, bool) {
		if nums[c] == nil {
			x, err := strconv.ParseFloat(tr.codes.names[c], 64)
			nums[c] = &number{x, err == nil}
		}
		return nums[c].x, nums[c].ok
	}
	var out []scorePair
	for i := range tr.keys.Units {
		h, p := tr.vals[i*nq+k], pred.vals[i*nq+k]
		if h < 0 || p < 0 {
			continue
		}
		hx, ok1 := parse(h)
		px, ok2 := parse(p)
		if ok1 && ok2 {
			out = append(out, scorePair{int32(i), hx, px})
		}
	}
	return out
}

// scorePoints counts the (human, judge) pairs of a score group.
func scorePoints(pairs []scorePair) []ScorePoint {
	counts := map[[2]float64]int64{}
	for _, sp := range pairs {
		counts[[2]float64{sp.human, sp.j}]++
	}
	out := make([]ScorePoint, 0, len(counts))
	for k, n := range counts {
		out = append(out, ScorePoint{k[0], k[1], n})
	}
	slices.SortFunc(out, func(a, b ScorePoint) int {
		if a.Human != b.Human {
			return compareFloat(a.Human, b.Human)
		}
		return compareFloat(a.Judge, b.Judge)
	})
	return out
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// systemCorrelation correlates per-system means of human and judge scores with agreement's
// Pearson, Spearman and Kendall, and Pearson leaving each system out.
func systemCorrelation(pairs []scorePair, tr *judgeTruth) *SystemCorrelation {
	type acc struct {
		n    int
		h, j float64
	}
	by := map[string]*acc{}
	for _, sp := range pairs {
		name := tr.names[tr.sys[sp.item]]
		a := by[name]
		if a == nil {
			a = &acc{}
			by[name] = a
		}
		a.n, a.h, a.j = a.n+1, a.h+sp.human, a.j+sp.j
	}
	sc := &SystemCorrelation{Systems: []SystemMean{}, LeaveOneOut: []LeftOut{}}
	for name, a := range by {
		sc.Systems = append(sc.Systems, SystemMean{System: name, Items: a.n, Human: a.h / float64(a.n), Judge: a.j / float64(a.n)})
	}
	slices.SortFunc(sc.Systems, func(a, b SystemMean) int { return strings.Compare(a.System, b.System) })
	hs, js := make([]float64, len(sc.Systems)), make([]float64, len(sc.Systems))
	for i, m := range sc.Systems {
		hs[i], js[i] = m.Human, m.Judge
	}
	sc.Pearson, sc.Spearman, sc.KendallTauB = defined(agreement.Pearson(hs, js)), defined(agreement.Spearman(hs, js)), defined(agreement.KendallTauB(hs, js))
	for i, m := range sc.Systems {
		h := slices.Delete(slices.Clone(hs), i, i+1)
		j := slices.Delete(slices.Clone(js), i, i+1)
		sc.LeaveOneOut = append(sc.LeaveOneOut, LeftOut{System: m.System, Pearson: defined(agreement.Pearson(h, j))})
	}
	return sc
}
