package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow/flow"
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
func (s *Service) Judges(ctx context.Context, p *Project, o JudgeOptions) (*JudgeBoard, error) {
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
func (s *Service) missingMeta(ctx context.Context, p *Project, o JudgeOptions) (map[string]int64, error) {
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

// judgeGroupSpec is one group to evaluate and its reference records.
type judgeGroupSpec struct {
	group JudgeGroup
	kind  agreement.JudgeKind
	recs  []agreement.JudgeRecord
	sys   []string // the system of each record (score groups with a system key)
	items int      // decided items with a value in the group
}

// judgeTruth is the decided items' ground truth as columns, in external id order: item i's
// unit and metadata values (interned) and its value of question k as the code
// vals[i*len(qs)+k] (-1: none).
type judgeTruth struct {
	units, cluster, stratum, a, b, sys []string
	vals                               []int32
	codes                              *valueCodes
}

// fill sets the group's reference records from the truth columns, item by item in the
// order of the group's questions, at their exact number.
func (sp *judgeGroupSpec) fill(tr *judgeTruth, qs []tasks.Question, withSys bool) {
	nq := len(qs)
	ks := make([]int, len(sp.group.Questions))
	for j, key := range sp.group.Questions {
		ks[j] = slices.IndexFunc(qs, func(q tasks.Question) bool { return q.Key == key })
	}
	n := 0
	for i := range tr.units {
		had := false
		for _, k := range ks {
			if tr.vals[i*nq+k] >= 0 {
				n, had = n+1, true
			}
		}
		if had {
			sp.items++
		}
	}
	sp.recs = make([]agreement.JudgeRecord, 0, n)
	if withSys {
		sp.sys = make([]string, 0, n)
	}
	for i, unit := range tr.units {
		for j, k := range ks {
			c := tr.vals[i*nq+k]
			if c < 0 {
				continue
			}
			sp.recs = append(sp.recs, agreement.JudgeRecord{Unit: unit, Question: sp.group.Questions[j], Value: tr.codes.values[c],
				Cluster: tr.cluster[i], Stratum: tr.stratum[i], A: tr.a[i], B: tr.b[i]})
			if withSys {
				sp.sys = append(sp.sys, tr.sys[i])
			}
		}
	}
}

// valueCodes numbers the judge values of answers (each distinct value is kept once).
type valueCodes struct {
	code   map[string]int32
	values []string
}

func newValueCodes() *valueCodes { return &valueCodes{code: map[string]int32{}} }

// appendAnswers appends the codes of an answers document's judge values, one per question
// of qs (-1 where the answer gives none), decoding the document once.
func (vc *valueCodes) appendAnswers(dst []int32, qs []tasks.Question, doc []byte) []int32 {
	var answers map[string]json.RawMessage
	json.Unmarshal(doc, &answers)
	for _, q := range qs {
		v, ok := JudgeValue(q, answers[q.Key])
		if !ok {
			dst = append(dst, -1)
			continue
		}
		c, seen := vc.code[v]
		if !seen {
			c = int32(len(vc.values))
			vc.code[v], vc.values = c, append(vc.values, v)
		}
		dst = append(dst, c)
	}
	return dst
}

// intern returns s as kept in seen (adding it), so that equal metadata values share one string.
func intern(seen map[string]string, s string) string {
	if k, ok := seen[s]; ok {
		return k
	}
	seen[s] = s
	return s
}

// JudgeValue is an answer as a judge record's value: "yes"/"no" after a binary question's
// polarity and N/A mapping, the number of a Likert answer, A/B/tie of a pairwise one; ok is
// false for answers that give none (an open N/A, say). Release records and predictions
// read by `arbiter judge-eval` use the same values.
func JudgeValue(q tasks.Question, raw json.RawMessage) (string, bool) {
	rs := AnswerRatings(q, raw, false)
	if len(rs) != 1 || rs[0].UnitSuffix != "" {
		return "", false
	}
	switch q.Kind {
	case tasks.KindBinary:
		switch rs[0].Value {
		case "satisfied":
			return "yes", true
		case "not_satisfied":
			return "no", true
		}
		return "", true
	case tasks.KindLikert, tasks.KindPairwise:
		return rs[0].Value, true
	}
	return "", false
}

// judgeQuestions are the schema's questions a judge is evaluated on, in key order (the order
// of a release record's answers).
func judgeQuestions(schema *tasks.Schema) []tasks.Question {
	var qs []tasks.Question
	for _, q := range schema.Questions {
		if q.Kind == tasks.KindBinary || q.Kind == tasks.KindLikert || q.Kind == tasks.KindPairwise {
			qs = append(qs, q)
		}
	}
	slices.SortFunc(qs, func(a, b tasks.Question) int { return compareStrings(a.Key, b.Key) })
	return qs
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// computeJudges evaluates every model's predictions against the newest ground truth of the
// decided items (the job's work).
func (s *Service) computeJudges(ctx context.Context, p *Project, o JudgeOptions) (*judgeFigures, error) {
	qs := judgeQuestions(p.Schema)
	specs := judgeSpecs(p.Schema, qs)
	external := map[string]string{}
	keys := o.keys()
	missing := map[string]int64{}
	for field := range keys {
		missing[field] = 0
	}
	tr := &judgeTruth{codes: newValueCodes()}
	meta := map[string]string{}
	err := s.store.EachTruth(ctx, p.ID, func(r *store.TruthRow) error {
		if r.Stage != flow.StageDone || len(r.Answers) == 0 {
			return nil
		}
		external[r.ID] = r.ExternalID
		m := metaStrings(r.Meta)
		for field, key := range keys {
			if _, ok := m[key]; !ok {
				missing[field]++
			}
		}
		tr.units = append(tr.units, r.ExternalID)
		tr.cluster = append(tr.cluster, intern(meta, m[o.ClusterKey]))
		tr.stratum = append(tr.stratum, intern(meta, m[o.StrataKey]))
		tr.a, tr.b = append(tr.a, intern(meta, m["model_a"])), append(tr.b, intern(meta, m["model_b"]))
		if o.SystemKey != "" {
			tr.sys = append(tr.sys, intern(meta, m[o.SystemKey]))
		}
		// note: each answer's value once, though a binary question is in two groups
		tr.vals = tr.codes.appendAnswers(tr.vals, qs, r.Answers)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, sp := range specs {
		sp.fill(tr, qs, o.SystemKey != "")
	}
	preds, models, err := s.judgePredictions(ctx, p, qs, external, tr.codes)
	if err != nil {
		return nil, err
	}
	groups, err := evaluateGroups(specs, preds, models, o)
	if err != nil {
		return nil, err
	}
	return &judgeFigures{Models: models, Groups: groups, MissingMeta: missing}, nil
}

// evaluateGroups evaluates the groups concurrently, as many at a time as there are CPUs, and
// returns them in the order of specs.
func evaluateGroups(specs []*judgeGroupSpec, preds map[string]*agreement.JudgeData, models []string, o JudgeOptions) ([]JudgeGroup, error) {
	groups := make([]JudgeGroup, len(specs))
	errs := make([]error, len(specs))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, sp := range specs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			groups[i], errs[i] = evaluateGroup(sp, preds, models, o)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return groups, nil
}

// judgeSpecs lists the groups: all binary questions together (D3-Omni's answer vectors), then
// every question on its own.
func judgeSpecs(schema *tasks.Schema, qs []tasks.Question) []*judgeGroupSpec {
	var specs []*judgeGroupSpec
	var binary []string
	for _, q := range qs {
		if q.Kind == tasks.KindBinary {
			binary = append(binary, q.Key)
		}
	}
	if len(binary) > 1 {
		specs = append(specs, &judgeGroupSpec{group: JudgeGroup{Key: "binary", Label: "All binary questions", Kind: "binary", Questions: binary}, kind: agreement.Binary})
	}
	for _, q := range schema.Questions {
		if !slices.ContainsFunc(qs, func(x tasks.Question) bool { return x.Key == q.Key }) {
			continue
		}
		kind, name := agreement.Binary, "binary"
		switch q.Kind {
		case tasks.KindLikert:
			kind, name = agreement.Score, "score"
		case tasks.KindPairwise:
			kind, name = agreement.Pairwise, "pairwise"
		}
		specs = append(specs, &judgeGroupSpec{group: JudgeGroup{Key: q.Key, Label: q.Label, Kind: name, Questions: []string{q.Key}}, kind: kind})
	}
	return specs
}

// judgePredictions reads every model's predictions as judge records: first as value codes
// per model, then each model's records at their exact number.
func (s *Service) judgePredictions(ctx context.Context, p *Project, qs []tasks.Question, external map[string]string, codes *valueCodes) (map[string]*agreement.JudgeData, []string, error) {
	type modelRows struct {
		units []string
		vals  []int32 // len(qs) codes per unit
	}
	byModel := map[string]*modelRows{}
	err := s.store.EachPrediction(ctx, p.ID, func(pr *store.Prediction) error {
		rows := byModel[pr.Model]
		if rows == nil {
			rows = &modelRows{}
			byModel[pr.Model] = rows
		}
		unit, ok := external[pr.ItemID]
		if !ok {
			return nil
		}
		rows.units = append(rows.units, unit)
		rows.vals = codes.appendAnswers(rows.vals, qs, pr.Answers)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out := map[string]*agreement.JudgeData{}
	models := []string{}
	for m, rows := range byModel {
		n := 0
		for _, c := range rows.vals {
			n += int(c>>31 + 1) // 1 unless the code is -1
		}
		recs := make([]agreement.JudgeRecord, 0, n)
		for i, unit := range rows.units {
			for k, c := range rows.vals[i*len(qs) : (i+1)*len(qs)] {
				if c >= 0 {
					recs = append(recs, agreement.JudgeRecord{Unit: unit, Question: qs[k].Key, Value: codes.values[c]})
				}
			}
		}
		delete(byModel, m)
		jd, err := agreement.NewJudgeData(recs)
		if err != nil {
			return nil, nil, err
		}
		out[m] = jd
		models = append(models, m)
	}
	slices.Sort(models)
	return out, models, nil
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
func evaluateGroup(sp *judgeGroupSpec, preds map[string]*agreement.JudgeData, models []string, o JudgeOptions) (JudgeGroup, error) {
	g := sp.group
	g.Rows, g.Headline = []JudgeRow{}, headlineOf(sp.kind)
	g.Items = sp.items
	ref, err := agreement.NewJudgeData(sp.recs)
	if err != nil {
		return g, err
	}
	opts := EvalOptions(sp.kind)
	best, bestV := "", 0.0
	for _, m := range models {
		row := JudgeRow{Model: m, Points: []ScorePoint{}, Report: json.RawMessage("null")}
		if len(sp.recs) == 0 {
			row.Reason = "no decided item has ground truth for this group"
			g.Rows = append(g.Rows, row)
			continue
		}
		rep, err := agreement.EvaluateJudge(ref, preds[m], nil, opts)
		if err != nil {
			row.Reason = fmt.Sprintf("no item of the ground truth has a prediction of this model (%v)", err)
			g.Rows = append(g.Rows, row)
			continue
		}
		row.report = rep
		if sp.kind == agreement.Score {
			row.Points = scorePoints(sp.recs, preds[m])
			if o.SystemKey != "" {
				row.System = systemCorrelation(sp, preds[m])
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
			if d, err := agreement.JudgeDifference(ref, preds[row.Model], preds[best], opts); err == nil {
				row.report.Difference = d
			}
		}
		if row.Report, err = json.Marshal(row.report); err != nil {
			return g, err
		}
	}
	return g, nil
}

// scorePoints counts the (human, judge) pairs of a score group.
func scorePoints(recs []agreement.JudgeRecord, pred *agreement.JudgeData) []ScorePoint {
	counts := map[[2]float64]int64{}
	for _, r := range recs {
		p, ok := lookupRecord(pred, r)
		if !ok {
			continue
		}
		h, err1 := strconv.ParseFloat(r.Value, 64)
		j, err2 := strconv.ParseFloat(p.Value, 64)
		if err1 == nil && err2 == nil {
			counts[[2]float64{h, j}]++
		}
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

func lookupRecord(jd *agreement.JudgeData, r agreement.JudgeRecord) (agreement.JudgeRecord, bool) {
	return jd.Lookup(r.Unit, r.Question)
}

// systemCorrelation correlates per-system means of human and judge scores with agreement's
// Pearson, Spearman and Kendall, and Pearson leaving each system out.
func systemCorrelation(sp *judgeGroupSpec, pred *agreement.JudgeData) *SystemCorrelation {
	type acc struct {
		n    int
		h, j float64
	}
	by := map[string]*acc{}
	for i, r := range sp.recs {
		p, ok := lookupRecord(pred, r)
		h, err1 := strconv.ParseFloat(r.Value, 64)
		j, err2 := strconv.ParseFloat(p.Value, 64)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		a := by[sp.sys[i]]
		if a == nil {
			a = &acc{}
			by[sp.sys[i]] = a
		}
		a.n, a.h, a.j = a.n+1, a.h+h, a.j+j
	}
	sc := &SystemCorrelation{Systems: []SystemMean{}, LeaveOneOut: []LeftOut{}}
	for name, a := range by {
		sc.Systems = append(sc.Systems, SystemMean{System: name, Items: a.n, Human: a.h / float64(a.n), Judge: a.j / float64(a.n)})
	}
	slices.SortFunc(sc.Systems, func(a, b SystemMean) int { return compareStrings(a.System, b.System) })
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

// metaStrings reads an item's metadata values as strings (other JSON values as their text).
func metaStrings(raw store.JSON) map[string]string {
	out := map[string]string{}
	if len(raw) == 0 {
		return out
	}
	var m map[string]json.RawMessage
	json.Unmarshal(raw, &m)
	for k, v := range m {
		if string(v) == "null" {
			continue // note: as SQL's JSON extraction, a null value is no value
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		out[k] = s
	}
	return out
}
