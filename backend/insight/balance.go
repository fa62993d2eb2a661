package insight

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// CorrelationFlag is the |r| above which two binary questions are flagged as coupled
// (D3-Omni's gold-label correlation check).
const CorrelationFlag = 0.6

// metaValueCap bounds the distinct values counted per metadata key; a key with more (an id,
// say) is reported without its values.
const metaValueCap = 100

// ValueCount is how many items have one value.
type ValueCount struct {
	Value string `json:"value"`
	Count int64  `json:"count"`
}

// Distribution is one question's (or checklist sub-item's) ground-truth values and counts.
type Distribution struct {
	Key    string       `json:"key"`
	Label  string       `json:"label"`
	Kind   string       `json:"kind"`
	Values []ValueCount `json:"values"`
}

// DimensionBalance is one binary question's Yes (satisfied) and No counts after its polarity
// and N/A mapping, N/A answers the mapping leaves open, and the No/Yes ratio.
type DimensionBalance struct {
	Key   string   `json:"key"`
	Label string   `json:"label"`
	Yes   int64    `json:"yes"`
	No    int64    `json:"no"`
	Open  int64    `json:"open"`
	Ratio *float64 `json:"ratio"`
	// With targets: whether the ratio exceeds the target and how many more No items would.
	MeetsRatio *bool  `json:"meets_ratio,omitempty"`
	NeedsNo    *int64 `json:"needs_no,omitempty"`
}

// Correlation is the correlation of two binary questions over the items that resolve both.
type Correlation struct {
	A       string   `json:"a"`
	B       string   `json:"b"`
	R       *float64 `json:"r"`
	Flagged bool     `json:"flagged"`
}

// ScoreBin is the number of items with one total score (satisfied binary questions).
type ScoreBin struct {
	Score int   `json:"score"`
	Count int64 `json:"count"`
	// With a spread target: how many more items the bin needs for the spread to fall under it.
	Needs *int64 `json:"needs,omitempty"`
}

// BinaryBalance is the D3-Omni balance of a project's binary questions.
type BinaryBalance struct {
	Dimensions   []DimensionBalance `json:"dimensions"`
	Histogram    []ScoreBin         `json:"histogram"`
	Spread       int64              `json:"spread"`
	MinRatio     *float64           `json:"min_ratio"`
	Correlations []Correlation      `json:"correlations"`
}

// MetaCounts counts the items by one metadata key; Truncated when it has too many values.
type MetaCounts struct {
	Key       string       `json:"key"`
	Values    []ValueCount `json:"values"`
	Distinct  int          `json:"distinct"`
	Truncated bool         `json:"truncated"`
}

// Readiness says whether D3-Omni's stopping rule holds: every dimension's ratio above the
// target ratio and the spread under the target spread.
type Readiness struct {
	Ready         bool     `json:"ready"`
	RatioMet      *bool    `json:"ratio_met"`
	SpreadMet     *bool    `json:"spread_met"`
	NeedMoreNo    []string `json:"need_more_no"`
	BinsNeedItems []int    `json:"bins_need_items"`
}

// balanceFigures is what the job keeps; targets apply when the figures are read.
type balanceFigures struct {
	Items         int64          `json:"items"`
	Binary        *BinaryBalance `json:"binary"`
	Distributions []Distribution `json:"distributions"`
	Meta          []MetaCounts   `json:"meta"`
	// Languages counts the decided items by language ("" for items without one).
	Languages []ValueCount `json:"languages"`
	// Positions: the position bias of each pairwise question (none without one).
	Positions []PositionBias `json:"positions"`
}

// BalanceReport is a project's balance over its decided items, as GET .../balance answers it.
type BalanceReport struct {
	FiguresState
	Targets   workflow.BalanceTargets `json:"targets"`
	Readiness Readiness               `json:"readiness"`
	balanceFigures
}

// balanceTally counts the ground truth of decided items.
type balanceTally struct {
	schema  *tasks.Schema
	binary  []tasks.Question
	items   int64
	yes, no []int64
	open    []int64
	pairs   [][]pairTable // pairs[a][b], a < b: the 2×2 table over items resolving both
	hist    []int64
	dist    map[string]map[string]int64
	meta    map[string]map[string]int64
	over    map[string]bool
	langs   map[string]int64
}

func newBalanceTally(schema *tasks.Schema) *balanceTally {
	t := &balanceTally{schema: schema, dist: map[string]map[string]int64{}, meta: map[string]map[string]int64{}, over: map[string]bool{},
		langs: map[string]int64{}}
	for _, q := range schema.Questions {
		if q.Kind == tasks.KindBinary {
			t.binary = append(t.binary, q)
		}
	}
	d := len(t.binary)
	t.yes, t.no, t.open, t.hist = make([]int64, d), make([]int64, d), make([]int64, d), make([]int64, d+1)
	t.pairs = make([][]pairTable, d)
	for i := range d {
		t.pairs[i] = make([]pairTable, d)
	}
	return t
}

// add counts one decided item.
// add tallies n items with these answers and metadata.
func (t *balanceTally) add(answers map[string]json.RawMessage, meta map[string]json.RawMessage, n int64) {
	t.items += n
	sat := make([]int8, len(t.binary)) // 1 satisfied, -1 not, 0 open
	score := 0
	for i, q := range t.binary {
		var v string
		json.Unmarshal(answers[q.Key], &v)
		switch q.Satisfied(v) {
		case tasks.Satisfied:
			t.yes[i] += n
			sat[i] = 1
			score++
		case tasks.NotSatisfied:
			t.no[i] += n
			sat[i] = -1
		default:
			t.open[i] += n
		}
	}
	if len(t.binary) > 0 {
		t.hist[score] += n
	}
	for a := range sat {
		for b := a + 1; b < len(sat); b++ {
			if sat[a] != 0 && sat[b] != 0 {
				t.pairs[a][b][(1-sat[a])/2][(1-sat[b])/2] += n
			}
		}
	}
	for _, q := range t.schema.Questions {
		if q.Kind == tasks.KindBinary {
			continue
		}
		raw, ok := answers[q.Key]
		if !ok {
			continue
		}
		for _, r := range AnswerRatings(q, raw, false) {
			k := q.Key + r.UnitSuffix
			if t.dist[k] == nil {
				t.dist[k] = map[string]int64{}
			}
			t.dist[k][r.Value] += n
		}
	}
	for k, raw := range meta {
		if t.over[k] {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		m := t.meta[k]
		if m == nil {
			m = map[string]int64{}
			t.meta[k] = m
		}
		m[s] += n
		if len(m) > metaValueCap {
			t.over[k] = true
		}
	}
}

// distributionLabel names the distribution of key: the question's label, and for a sub-unit
// ("<question>/<item>", a checklist aspect or a ranked option) the item's label after it.
func distributionLabel(q tasks.Question, key string) string {
	sub, ok := strings.CutPrefix(key, q.Key+"/")
	if !ok {
		return q.Label
	}
	for _, it := range q.Items {
		if it.Key == sub && it.Label != "" {
			sub = it.Label
		}
	}
	return q.Label + " · " + sub
}

// figures turns the tally into the kept figures; every correlation is agreement's.
func (t *balanceTally) figures() *balanceFigures {
	f := &balanceFigures{Items: t.items, Distributions: []Distribution{}, Meta: []MetaCounts{}, Languages: sortedCounts(t.langs, false)}
	if len(t.binary) > 0 {
		b := &BinaryBalance{Dimensions: []DimensionBalance{}, Histogram: []ScoreBin{}, Correlations: []Correlation{}}
		for i, q := range t.binary {
			d := DimensionBalance{Key: q.Key, Label: q.Label, Yes: t.yes[i], No: t.no[i], Open: t.open[i]}
			if d.Yes > 0 {
				r := float64(d.No) / float64(d.Yes)
				d.Ratio = &r
				if b.MinRatio == nil || r < *b.MinRatio {
					b.MinRatio = &r
				}
			}
			b.Dimensions = append(b.Dimensions, d)
		}
		lo, hi := int64(math.MaxInt64), int64(0)
		for s, n := range t.hist {
			b.Histogram = append(b.Histogram, ScoreBin{Score: s, Count: n})
			lo, hi = min(lo, n), max(hi, n)
		}
		b.Spread = hi - lo
		for a := range t.binary {
			for c := a + 1; c < len(t.binary); c++ {
				pt := t.pairs[a][c]
				cr := Correlation{A: t.binary[a].Key, B: t.binary[c].Key}
				if r, err := agreement.BinaryCorrelation(pt[0][0], pt[0][1], pt[1][0], pt[1][1]); err == nil {
					cr.R, cr.Flagged = &r, math.Abs(r) > CorrelationFlag
				}
				b.Correlations = append(b.Correlations, cr)
			}
		}
		f.Binary = b
	}
	for _, q := range t.schema.Questions {
		keys := []string{}
		for k := range t.dist {
			if k == q.Key || strings.HasPrefix(k, q.Key+"/") {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			f.Distributions = append(f.Distributions, Distribution{Key: k, Label: distributionLabel(q, k), Kind: string(q.Kind), Values: sortedCounts(t.dist[k], scored(q))})
		}
	}
	keys := make([]string, 0, len(t.meta))
	for k := range t.meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		mc := MetaCounts{Key: k, Distinct: len(t.meta[k]), Truncated: t.over[k], Values: []ValueCount{}}
		if !mc.Truncated {
			mc.Values = sortedCounts(t.meta[k], false)
		}
		f.Meta = append(f.Meta, mc)
	}
	return f
}

// pairTable counts items by two binary questions: [0] satisfied, [1] not satisfied.
type pairTable [2][2]int64

// sortedCounts lists counts by value: numerically for scales, by count (then value) otherwise.
func sortedCounts(m map[string]int64, numeric bool) []ValueCount {
	out := make([]ValueCount, 0, len(m))
	for v, n := range m {
		out = append(out, ValueCount{v, n})
	}
	slices.SortFunc(out, func(a, b ValueCount) int {
		if numeric {
			x, y := parseNum(a.Value), parseNum(b.Value)
			if x != y {
				if x < y {
					return -1
				}
				return 1
			}
		} else if a.Count != b.Count {
			if a.Count > b.Count {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Value, b.Value)
	})
	return out
}

func parseNum(s string) float64 {
	var x float64
	if json.Unmarshal([]byte(s), &x) != nil {
		return math.Inf(1)
	}
	return x
}

// computeBalance tallies the ground truth of the project's done items (the job's work).
func (s *Service) computeBalance(ctx context.Context, p *workflow.Project) (*balanceFigures, error) {
	t := newBalanceTally(p.Schema)
	// note: the figures are counts over items, so items with the same answers, metadata and
	// language are tallied once with their number (a million items read in one grouped query)
	err := s.store.EachDoneTruthGroup(ctx, p.ID, func(g *store.TruthGroup) error {
		if len(g.Answers) == 0 {
			return nil
		}
		var answers, meta map[string]json.RawMessage
		json.Unmarshal(g.Answers, &answers)
		if len(g.Meta) > 0 {
			json.Unmarshal(g.Meta, &meta)
		}
		t.add(answers, meta, g.Items)
		t.langs[g.Language] += g.Items
		return nil
	})
	if err != nil {
		return nil, err
	}
	f := t.figures()
	if f.Positions, err = s.computePositions(ctx, p); err != nil {
		return nil, err
	}
	if f.Positions == nil {
		f.Positions = []PositionBias{}
	}
	return f, nil
}

// Balance answers a project's balance from what the job kept, with its targets applied.
func (s *Service) Balance(ctx context.Context, p *workflow.Project) (*BalanceReport, error) {
	rep := &BalanceReport{Readiness: Readiness{NeedMoreNo: []string{}, BinsNeedItems: []int{}},
		balanceFigures: balanceFigures{Distributions: []Distribution{}, Meta: []MetaCounts{}, Languages: []ValueCount{}, Positions: []PositionBias{}}}
	st, _, err := s.cachedFigures(ctx, p, flow.FiguresBalance, "", &rep.balanceFigures)
	if err != nil {
		return nil, err
	}
	rep.FiguresState = st
	if rep.Targets, err = workflow.ParseBalanceTargets(p.Balance); err != nil {
		return nil, err
	}
	rep.applyTargets()
	return rep, nil
}

// applyTargets marks what each target still needs. D3-Omni's stopping rule (Eq. 7): every
// dimension's No/Yes ratio above the target and the histogram's spread (largest bin minus
// smallest) under the target; ready only when both targets are set and met.
func (rep *BalanceReport) applyTargets() {
	b := rep.Binary
	if b == nil {
		return
	}
	if t := rep.Targets.Ratio; t != nil {
		met := true
		for i := range b.Dimensions {
			d := &b.Dimensions[i]
			ok := d.Ratio != nil && *d.Ratio > *t
			need := int64(0)
			if !ok {
				// note: the fewest No items n with (No+n)/Yes > target
				need = int64(math.Floor(*t*float64(d.Yes))) + 1 - d.No
				rep.Readiness.NeedMoreNo = append(rep.Readiness.NeedMoreNo, d.Key)
			}
			d.MeetsRatio, d.NeedsNo = &ok, &need
			met = met && ok
		}
		rep.Readiness.RatioMet = &met
	}
	if t := rep.Targets.Spread; t != nil {
		met := b.Spread < *t
		top := int64(0)
		for _, h := range b.Histogram {
			top = max(top, h.Count)
		}
		floor := top - *t + 1 // note: every bin at least this makes the spread fall under the target
		for i := range b.Histogram {
			h := &b.Histogram[i]
			need := max(floor-h.Count, 0)
			h.Needs = &need
			if need > 0 {
				rep.Readiness.BinsNeedItems = append(rep.Readiness.BinsNeedItems, h.Score)
			}
		}
		rep.Readiness.SpreadMet = &met
	}
	r, sp := rep.Readiness.RatioMet, rep.Readiness.SpreadMet
	rep.Readiness.Ready = r != nil && sp != nil && *r && *sp && rep.Items > 0
}

// scored reports whether a question's answers are scores, counted in numeric order.
func scored(q tasks.Question) bool {
	c := tasks.KindOf(q).Consensus()
	return c == tasks.ConsensusScore || c == tasks.ConsensusItemScores
}
