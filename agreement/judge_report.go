package agreement

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// JudgeOptions controls EvaluateJudge.
type JudgeOptions struct {
	Kind      JudgeKind
	Bootstrap int // replicates of the paired bootstrap against a second judge (default 1000)
	Seed      uint64
	Elo       EloOptions
	// Intervals is the number of bootstrap replicates of the judge's own 95 % intervals of the
	// headline metrics (0: none), resampling clusters within strata as the records name them.
	Intervals int
}

// TotalDeviation summarizes judge total scores minus reference totals.
type TotalDeviation struct {
	MeanAbs    float64 `json:"mean_abs"`
	MeanSigned float64 `json:"mean_signed"`
	ShareEqual float64 `json:"share_equal"`
}

// EloReport holds Elo ratings from the reference outcomes and the judge's.
type EloReport struct {
	Reference []EloRating `json:"reference"`
	Judge     []EloRating `json:"judge"`
}

// DifferenceReport is the paired bootstrap of judge − second judge.
type DifferenceReport struct {
	Estimate float64  `json:"estimate"`
	CI95     CI       `json:"ci95"`
	PValue   Estimate `json:"p_value"`
}

// JudgeReport is the output of `arbiter judge-eval`; keys that do not
// apply to the kind are omitted.
type JudgeReport struct {
	Kind                string                      `json:"kind"`
	N                   int                         `json:"n"`
	NMissing            int                         `json:"n_missing"`
	Accuracy            *Estimate                   `json:"accuracy,omitempty"`
	AccuracyWithoutTies *Estimate                   `json:"accuracy_without_ties,omitempty"`
	PerClassRecall      map[string]float64          `json:"per_class_recall,omitempty"`
	YesAccuracy         *Estimate                   `json:"yes_accuracy,omitempty"`
	NoAccuracy          *Estimate                   `json:"no_accuracy,omitempty"`
	BalancedAccuracy    *Estimate                   `json:"balanced_accuracy,omitempty"`
	MCC                 *Estimate                   `json:"mcc,omitempty"`
	ExactMatch          *Estimate                   `json:"exact_match,omitempty"`
	SegmentAccuracy     []SegmentResult             `json:"segment_accuracy,omitempty"`
	TotalScoreDeviation *TotalDeviation             `json:"total_score_deviation,omitempty"`
	Coupling            *Coupling                   `json:"coupling,omitempty"`
	BestThreeClass      *ThresholdAccuracy          `json:"best_three_class,omitempty"`
	Elo                 *EloReport                  `json:"elo,omitempty"`
	Pearson             *Estimate                   `json:"pearson,omitempty"`
	Spearman            *Estimate                   `json:"spearman,omitempty"`
	KendallTauB         *Estimate                   `json:"kendall_tau_b,omitempty"`
	MSE                 *Estimate                   `json:"mse,omitempty"`
	MAE                 *Estimate                   `json:"mae,omitempty"`
	ShareOver           *Estimate                   `json:"share_over,omitempty"`
	ShareUnder          *Estimate                   `json:"share_under,omitempty"`
	Difference          map[string]DifferenceReport `json:"difference,omitempty"`
	CI95                map[string]*CI              `json:"ci95,omitempty"`
	Notes               []string                    `json:"notes"`
}

// MarshalJSON encodes a ThresholdAccuracy as {accuracy, threshold}.
func (t ThresholdAccuracy) MarshalJSON() ([]byte, error) {
	b := []byte(`{"accuracy":`)
	b = strconv.AppendFloat(b, t.Accuracy, 'g', -1, 64)
	b = append(b, `,"threshold":`...)
	b = strconv.AppendFloat(b, t.Threshold, 'g', -1, 64)
	return append(b, '}'), nil
}

// judgeView is the matched (reference, prediction) items of one judge: item k is the
// reference's record items[k], read from its columns. Labels are numbers (refL, predL)
// rather than strings: ref and pred are set only for a scalar judge, and by labelStrings.
type judgeView struct {
	kind        JudgeKind
	ref, pred   []string
	refX, predX []float64 // numbers (score kind, or a scalar pairwise judge)
	scalar      bool      // pairwise judge with numeric outputs
	// labels are the distinct labels of ref and pred, in the order first seen, and refL and
	// predL each item's labels as numbers of labels (nil for a scalar judge or scores).
	labels       []string
	refL, predL  []int32
	n            int
	src          *judgeCols     // the reference's columns
	items        []int          // into src
	recs         []*JudgeRecord // into the reference's records, when it holds records
	hasQuestions bool
}

// EvaluateJudge scores pred against ref. With second != nil it also runs the
// paired bootstrap of the headline metrics, pred minus second, over the
// items both judges answered, clustered by the reference's cluster field
// (or by unit when items have questions).
func EvaluateJudge(ref, pred, second *JudgeData, opts JudgeOptions) (*JudgeReport, error) {
	items, at, atSecond, missing := matchPositions(ref, pred, second)
	v, err := viewAt(ref, pred, items, at, opts.Kind)
	if err != nil {
		return nil, err
	}
	rep := &JudgeReport{Kind: [...]string{"binary", "pairwise", "score"}[opts.Kind], N: len(items), NMissing: missing, Notes: []string{}}
	if missing > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d reference items have no prediction and were left out", missing))
	}
	if err := rep.fill(v, opts); err != nil {
		return nil, err
	}
	if opts.Intervals > 0 {
		rep.intervals(v, opts)
	}
	if second != nil {
		if err := rep.compare(ref, pred, second, items, at, atSecond, opts); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// JudgeDifference is EvaluateJudge's paired bootstrap alone: the headline metrics of pred
// minus second over the items both answered, as EvaluateJudge(ref, pred, second,
// opts).Difference, without the rest of the report.
func JudgeDifference(ref, pred, second *JudgeData, opts JudgeOptions) (map[string]DifferenceReport, error) {
	items, at, atSecond, _ := matchPositions(ref, pred, second)
	rep := &JudgeReport{}
	if err := rep.compare(ref, pred, second, items, at, atSecond, opts); err != nil {
		return nil, err
	}
	return rep.Difference, nil
}

// matchItems returns the indexes of reference records answered by pred (and
// by second, when given) and the number left out.
func matchItems(ref, pred, second *JudgeData) ([]int, int) {
	items, _, _, missing := matchPositions(ref, pred, second)
	return items, missing
}

// matchPositions is matchItems with the position of each matched record in pred and in
// second (nil without second), so that views are built without looking them up again.
func matchPositions(ref, pred, second *JudgeData) (items []int, at, atSecond []int32, missing int) {
	n := ref.Len()
	items, at = make([]int, 0, n), make([]int32, 0, n)
	if second != nil {
		atSecond = make([]int32, 0, n)
	}
	sp, ss := newSeeker(ref, pred), newSeeker(ref, second)
	for i := range n {
		p, ok := sp.find(i)
		q := 0
		if ok && second != nil {
			q, ok = ss.find(i)
		}
		if ok {
			items, at = append(items, i), append(at, int32(p))
			if second != nil {
				atSecond = append(atSecond, int32(q))
			}
		}
	}
	return items, at, atSecond, n - len(items)
}

// seeker finds the records of a JudgeData that match the reference's records. Data on the
// reference's keys (NewJudgeColumns) is found by its numbers. Otherwise a record is looked
// for first at the positions that follow the last one found (the next record, then as far
// again as the last step), and only then in the index: judges whose records are listed in
// the reference's order are matched without hashing. A record found at a guessed position
// is the one the index names, since a JudgeData holds each (unit, question) once.
type seeker struct {
	ref, jd    *judgeCols
	data       *JudgeData
	sameKeys   bool
	last, step int
}

func newSeeker(ref, jd *JudgeData) seeker {
	s := seeker{ref: ref.cols, data: jd, last: -1, step: 1}
	if jd != nil {
		s.jd, s.sameKeys = jd.cols, jd.cols.Keys == ref.cols.Keys
	}
	return s
}

// find returns the position of the record matching the reference's record i.
func (s *seeker) find(i int) (int, bool) {
	if s.sameKeys {
		return s.jd.at(s.ref.Unit[i], s.ref.Question[i])
	}
	unit, question := s.ref.unitName(i), s.ref.questionName(i)
	for _, p := range [2]int{s.last + 1, s.last + s.step} {
		if p >= 0 && p < s.jd.len() {
			if s.jd.unitName(p) == unit && s.jd.questionName(p) == question {
				s.last, s.step = p, p-s.last
				return p, true
			}
		}
	}
	p, ok := s.data.find(unit, question)
	if ok {
		s.last, s.step = p, p-s.last
	}
	return p, ok
}

func newJudgeView(ref, pred *JudgeData, items []int, kind JudgeKind) (*judgeView, error) {
	at := make([]int32, len(items))
	s := newSeeker(ref, pred)
	for k, i := range items {
		p, _ := s.find(i)
		at[k] = int32(p)
	}
	v, err := viewAt(ref, pred, items, at, kind)
	if err == nil {
		v.labelStrings()
	}
	return v, err
}

// viewAt is the view of reference records items against pred's records at.
func viewAt(ref, pred *JudgeData, items []int, at []int32, kind JudgeKind) (*judgeView, error) {
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: no reference item has a prediction", ErrMismatch)
	}
	v := &judgeView{kind: kind, n: len(items), src: ref.cols, items: items}
	if ref.Records != nil {
		v.recs = make([]*JudgeRecord, len(items))
		for k, i := range items {
			v.recs[k] = &ref.Records[i]
		}
	}
	qs := ref.cols.Keys.Questions
	for _, i := range items {
		if qs[ref.cols.Question[i]] != "" {
			v.hasQuestions = true
			break
		}
	}
	return v, v.decode(pred.cols, at)
}

// valueCache is a column's values decoded once per value number.
type valueCache[T any] struct {
	values []string
	done   []bool
	out    []T
	err    []error
	f      func(string) (T, error)
}

func newValueCache[T any](values []string, f func(string) (T, error)) *valueCache[T] {
	return &valueCache[T]{values: values, done: make([]bool, len(values)), out: make([]T, len(values)), err: make([]error, len(values)), f: f}
}

func (c *valueCache[T]) get(code int32) (T, error) {
	if !c.done[code] {
		c.out[code], c.err[code] = c.f(c.values[code])
		c.done[code] = true
	}
	return c.out[code], c.err[code]
}

// decode normalizes labels or parses numbers for the view's kind, each distinct value once;
// the prediction of item k is pred's record at[k].
func (v *judgeView) decode(pred *judgeCols, at []int32) error {
	n, src := v.n, v.src
	refNum, predNum := newValueCache(src.Values, parseNumber), newValueCache(pred.Values, parseNumber)
	switch v.kind {
	case Score:
		v.refX, v.predX = make([]float64, n), make([]float64, n)
		for k, i := range v.items {
			var err error
			if v.refX[k], err = refNum.get(src.Value[i]); err != nil {
				return err
			}
			if v.predX[k], err = predNum.get(pred.Value[at[k]]); err != nil {
				return err
			}
		}
		return nil
	case Pairwise:
		v.scalar = true
		for _, p := range at {
			if _, err := predNum.get(pred.Value[p]); err != nil {
				v.scalar = false
				break
			}
		}
	}
	norm := normalizeBinary
	if v.kind == Pairwise {
		norm = normalizePairwise
	}
	// note: a value's label and its number are found once per distinct value, so that the
	// classes and the confusion counts are read from numbers
	label := map[string]int32{}
	labelOf := func(s string) int32 {
		s = norm(s)
		c, ok := label[s]
		if !ok {
			c = int32(len(v.labels))
			label[s], v.labels = c, append(v.labels, s)
		}
		return c
	}
	refLabel, predLabel := codeCache(len(src.Values)), codeCache(len(pred.Values))
	if v.scalar {
		v.ref, v.pred, v.predX = make([]string, n), make([]string, n), make([]float64, 0, n)
		for k, i := range v.items {
			c := src.Value[i]
			if refLabel[c] < 0 {
				refLabel[c] = labelOf(src.Values[c])
			}
			v.ref[k] = v.labels[refLabel[c]]
			x, _ := predNum.get(pred.Value[at[k]])
			v.predX = append(v.predX, x)
		}
		return nil
	}
	v.refL, v.predL = make([]int32, n), make([]int32, n)
	for k, i := range v.items {
		rc, pc := src.Value[i], pred.Value[at[k]]
		r, p := refLabel[rc], predLabel[pc]
		if r < 0 {
			r = labelOf(src.Values[rc])
			refLabel[rc] = r
		}
		if p < 0 {
			p = labelOf(pred.Values[pc])
			predLabel[pc] = p
		}
		v.refL[k], v.predL[k] = r, p
	}
	return nil
}

// refLabel and predLabel are item k's labels: from the label numbers, or from ref and pred
// where the view has them as strings (a scalar judge's reference and its tie-threshold labels).
func (v *judgeView) refLabel(k int) string {
	if v.ref != nil {
		return v.ref[k]
	}
	return v.labels[v.refL[k]]
}

func (v *judgeView) predLabel(k int) string {
	if v.pred != nil {
		return v.pred[k]
	}
	return v.labels[v.predL[k]]
}

// labelStrings sets ref and pred to the items' labels as strings, where the view only has
// their numbers.
func (v *judgeView) labelStrings() {
	if v.refL == nil || v.ref != nil {
		return
	}
	v.ref, v.pred = make([]string, v.n), make([]string, v.n)
	for k := range v.n {
		v.ref[k], v.pred[k] = v.labels[v.refL[k]], v.labels[v.predL[k]]
	}
}

// viewClasses numbers the sorted union of the labels of labelled views (as labelCodes
// numbers the labels of their items: every label of a view is some item's), and returns,
// for each view, the class of each of its label numbers.
func viewClasses(vs ...*judgeView) (classes []string, of [][]int32) {
	idx := map[string]int32{}
	for _, v := range vs {
		for _, l := range v.labels {
			if _, ok := idx[l]; !ok {
				idx[l] = 0
				classes = append(classes, l)
			}
		}
	}
	slices.Sort(classes)
	for i, c := range classes {
		idx[c] = int32(i)
	}
	for _, v := range vs {
		m := make([]int32, len(v.labels))
		for i, l := range v.labels {
			m[i] = idx[l]
		}
		of = append(of, m)
	}
	return classes, of
}

// unitName, questionName, cluster, stratum, a and b are the reference's fields of item k.
func (v *judgeView) unitName(k int) string     { return v.src.unitName(v.items[k]) }
func (v *judgeView) questionName(k int) string { return v.src.questionName(v.items[k]) }
func (v *judgeView) a(k int) string            { return v.src.name(v.src.A, v.items[k]) }
func (v *judgeView) b(k int) string            { return v.src.name(v.src.B, v.items[k]) }

func parseNumber(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || x != x || x-x != 0 {
		return 0, fmt.Errorf("%w: %q", ErrNotNumeric, s)
	}
	return x, nil
}

// subsetInto sets s to the view restricted to items idx (repeats allowed), reusing s's
// slices, and returns s.
func (v *judgeView) subsetInto(s *judgeView, idx []int32) *judgeView {
	*s = judgeView{kind: v.kind, scalar: v.scalar, hasQuestions: v.hasQuestions, n: len(idx),
		ref: gather(s.ref, v.ref, idx), pred: gather(s.pred, v.pred, idx),
		refX: gather(s.refX, v.refX, idx), predX: gather(s.predX, v.predX, idx)}
	return s
}

// gather sets dst to src[idx…] (nil when src is nil).
func gather[T any](dst, src []T, idx []int32) []T {
	if src == nil {
		return nil
	}
	dst = dst[:0]
	for _, i := range idx {
		dst = append(dst, src[i])
	}
	return dst
}
