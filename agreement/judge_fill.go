package agreement

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

func (rep *JudgeReport) fill(v *judgeView, opts JudgeOptions) error {
	switch v.kind {
	case Score:
		return rep.fillScores(v)
	case Pairwise:
		if v.scalar {
			best, err := BestTieThreshold(v.ref, v.predX, "a", "b", "tie")
			if err != nil {
				return err
			}
			rep.BestThreeClass = &best
			v.pred = thresholdLabels(v.predX, best.Threshold)
			rep.Notes = append(rep.Notes, fmt.Sprintf("predictions are scalar (A minus B): labels use the best tie threshold %g", best.Threshold))
		}
		if err := rep.fillClasses(v, "tie"); err != nil {
			return err
		}
		return rep.fillElo(v, opts.Elo)
	}
	if err := rep.fillClasses(v, ""); err != nil {
		return err
	}
	if v.hasQuestions {
		return rep.fillVectors(v)
	}
	return nil
}

func thresholdLabels(d []float64, t float64) []string {
	out := make([]string, len(d))
	for i, x := range d {
		switch {
		case math.Abs(x) <= t:
			out[i] = "tie"
		case x > 0:
			out[i] = "a"
		default:
			out[i] = "b"
		}
	}
	return out
}

func ptr(e Estimate) *Estimate { return &e }

func (rep *JudgeReport) fillClasses(v *judgeView, tie string) error {
	c, err := v.classify(tie)
	if err != nil {
		return err
	}
	rep.Accuracy = ptr(Estimate{c.Accuracy, true})
	rep.PerClassRecall = c.Recall
	rep.BalancedAccuracy = ptr(Estimate{c.BalancedAccuracy, true})
	rep.MCC = ptr(c.MCC)
	if !c.MCC.Defined {
		rep.Notes = append(rep.Notes, "mcc: undefined because the reference or the judge uses a single label")
	}
	if tie != "" {
		rep.AccuracyWithoutTies = ptr(c.AccuracyNoTies)
	}
	if v.kind == Binary {
		yes, okY := c.Recall["yes"]
		no, okN := c.Recall["no"]
		rep.YesAccuracy, rep.NoAccuracy = ptr(Estimate{yes, okY}), ptr(Estimate{no, okN})
	}
	return nil
}

// fillVectors groups binary answers by unit into answer vectors, kept as one byte column per
// question (the bits coupleColumns reads) rather than a map per unit: units are numbered in
// the order they first occur, questions in the order of their names.
func (rep *JudgeReport) fillVectors(v *judgeView) error {
	src := v.src
	qpos := codeCache(len(src.Keys.Questions))
	var qcodes []int32
	for _, i := range v.items {
		if q := src.Question[i]; qpos[q] < 0 {
			qpos[q] = 0
			qcodes = append(qcodes, q)
		}
	}
	slices.SortFunc(qcodes, func(a, b int32) int { return cmp.Compare(src.Keys.Questions[a], src.Keys.Questions[b]) })
	qs := make([]string, len(qcodes))
	for k, q := range qcodes {
		qpos[q], qs[k] = int32(k), src.Keys.Questions[q]
	}
	pos := codeCache(len(src.Keys.Units))
	unit := make([]int32, v.n)
	n := int32(0)
	for k, i := range v.items {
		u := src.Unit[i]
		if pos[u] < 0 {
			pos[u] = n
			n++
		}
		unit[k] = pos[u]
	}
	cols := make([][]byte, len(qs))
	for k := range cols {
		cols[k] = make([]byte, n)
	}
	for k, i := range v.items {
		cols[qpos[src.Question[i]]][unit[k]] = 5 | byte(b2i(v.refLabel(k) == "yes"))<<1 | byte(b2i(v.predLabel(k) == "yes"))<<3
	}
	va, err := compareColumns(cols, int(n))
	if err != nil {
		return err
	}
	rep.ExactMatch = ptr(Estimate{va.ExactMatch, true})
	rep.SegmentAccuracy = va.Segments
	rep.TotalScoreDeviation = &TotalDeviation{MeanAbs: va.MeanAbsDev, MeanSigned: va.MeanDev, ShareEqual: va.TotalMatches}
	if len(qs) > 1 {
		rep.Coupling = coupleColumns(qs, cols)
	}
	return nil
}

func (rep *JudgeReport) fillScores(v *judgeView) error {
	s, err := CompareScores(v.refX, v.predX)
	if err != nil {
		return err
	}
	rep.Pearson, rep.Spearman, rep.KendallTauB = ptr(s.Pearson), ptr(s.Spearman), ptr(s.KendallTauB)
	rep.MSE, rep.MAE = ptr(Estimate{s.MSE, true}), ptr(Estimate{s.MAE, true})
	rep.ShareOver, rep.ShareUnder = ptr(Estimate{s.ShareOver, true}), ptr(Estimate{s.ShareUnder, true})
	if !s.Pearson.Defined {
		rep.Notes = append(rep.Notes, "pearson, spearman, kendall_tau_b: undefined because one side has no variation")
	}
	return nil
}

// fillElo rates players from reference outcomes and from the judge's labels
// when the reference rows name the players a and b.
func (rep *JudgeReport) fillElo(v *judgeView, opts EloOptions) error {
	if opts.Tie == 0 {
		opts.Tie = 0.5
	}
	var refM, judgeM []Match
	for i := range v.n {
		a, b := v.a(i), v.b(i)
		if a == "" || b == "" {
			continue
		}
		if s, ok := outcomeScore(v.refLabel(i), opts.Tie); ok {
			refM = append(refM, Match{a, b, s})
		}
		if s, ok := outcomeScore(v.predLabel(i), opts.Tie); ok {
			judgeM = append(judgeM, Match{a, b, s})
		}
	}
	if len(refM) == 0 {
		return nil
	}
	re, err := Elo(refM, opts)
	if err != nil {
		return err
	}
	je, err := Elo(judgeM, opts)
	if err != nil {
		return err
	}
	rep.Elo = &EloReport{Reference: re, Judge: je}
	return nil
}

func outcomeScore(label string, tie float64) (float64, bool) {
	switch label {
	case "a":
		return 1, true
	case "b":
		return 0, true
	case "tie":
		return tie, true
	}
	return 0, false
}

// headline returns the metrics compared between two judges.
func headline(v *judgeView) map[string]func(*judgeView) (float64, error) {
	classify := func(tie string, pick func(Classification) (float64, error)) func(*judgeView) (float64, error) {
		return func(s *judgeView) (float64, error) {
			c, err := Classify(s.ref, s.pred, tie)
			if err != nil {
				return 0, err
			}
			return pick(c)
		}
	}
	acc := func(c Classification) (float64, error) { return c.Accuracy, nil }
	switch {
	case v.kind == Score:
		return map[string]func(*judgeView) (float64, error){
			"pearson":  func(s *judgeView) (float64, error) { return Pearson(s.refX, s.predX) },
			"spearman": func(s *judgeView) (float64, error) { return Spearman(s.refX, s.predX) },
			"mae": func(s *judgeView) (float64, error) {
				c, err := CompareScores(s.refX, s.predX)
				return c.MAE, err
			},
		}
	case v.scalar:
		return map[string]func(*judgeView) (float64, error){
			"best_three_class_accuracy": func(s *judgeView) (float64, error) {
				b, err := BestTieThreshold(s.ref, s.predX, "a", "b", "tie")
				return b.Accuracy, err
			},
		}
	case v.kind == Pairwise:
		return map[string]func(*judgeView) (float64, error){
			"accuracy": classify("tie", acc),
			"accuracy_without_ties": classify("tie", func(c Classification) (float64, error) {
				if !c.AccuracyNoTies.Defined {
					return 0, errNoDecided
				}
				return c.AccuracyNoTies.Value, nil
			}),
		}
	}
	return map[string]func(*judgeView) (float64, error){
		"accuracy":          classify("", acc),
		"balanced_accuracy": classify("", func(c Classification) (float64, error) { return c.BalancedAccuracy, nil }),
	}
}

// compare runs the paired (cluster) bootstrap of pred − second.
// items are the reference records both answered, at and atSecond their positions in pred
// and second.
func (rep *JudgeReport) compare(ref, pred, second *JudgeData, items []int, at, atSecond []int32, opts JudgeOptions) error {
	va, err := viewAt(ref, pred, items, at, opts.Kind)
	if err != nil {
		return err
	}
	vb, err := viewAt(ref, second, items, atSecond, opts.Kind)
	if err != nil {
		return err
	}
	rep.Difference = map[string]DifferenceReport{}
	if va.labelled() != vb.labelled() {
		// note: a scalar pairwise judge has no labels to compare before its tie threshold is
		// chosen, so a difference with a labelled one would compare against nothing
		rep.Notes = append(rep.Notes, "difference: one judge answers with labels and the other with scores; they are not compared")
		return nil
	}
	bo := BootstrapOptions{Replicates: opts.Bootstrap, Seed: opts.Seed, Clusters: itemClusters(va)}
	var diffs map[string]pairedResult
	if va.labelled() && vb.labelled() {
		diffs = compareCounts(va, vb, bo)
	} else {
		diffs = compareIndex(va, vb, bo)
	}
	for name, d := range diffs {
		if d.err != nil {
			rep.Notes = append(rep.Notes, "difference "+name+": "+d.err.Error())
			continue
		}
		rep.Difference[name] = DifferenceReport{Estimate: d.Estimate, CI95: d.Interval, PValue: Estimate{d.PValue, !math.IsNaN(d.PValue)}}
	}
	return nil
}

type pairedResult struct {
	PairedDifference
	err error
}

// compareIndex runs the paired bootstrap of each headline metric on the resampled records.
func compareIndex(va, vb *judgeView, bo BootstrapOptions) map[string]pairedResult {
	out := map[string]pairedResult{}
	var sa, sb judgeView
	for name, f := range headline(va) {
		statA := func(idx []int32) (float64, error) { return f(va.subsetInto(&sa, idx)) }
		statB := func(idx []int32) (float64, error) { return f(vb.subsetInto(&sb, idx)) }
		d, err := PairedBootstrap(va.n, statA, statB, bo)
		out[name] = pairedResult{d, err}
	}
	return out
}

// compareCounts runs the paired bootstrap of each headline metric from the two judges'
// confusion counts: each record counts once in each judge's matrix, side by side in one
// vector, and a replicate sums the drawn clusters' vectors (pairedBootstrapSums).
func compareCounts(va, vb *judgeView, bo BootstrapOptions) map[string]pairedResult {
	classes, of := viewClasses(va, vb)
	q, ma, mb := int32(len(classes)), of[0], of[1]
	slots := func(i int32, out []int32) []int32 {
		r := ma[va.refL[i]]
		return append(out, r*q+ma[va.predL[i]], q*q+r*q+mb[vb.predL[i]])
	}
	var names []string
	var pairs []sumPair
	for name, m := range countHeadline(va, classes) {
		statA := func(sum []int64) (float64, error) { return m(sum[:q*q]) }
		statB := func(sum []int64) (float64, error) { return m(sum[q*q:]) }
		names, pairs = append(names, name), append(pairs, sumPair{statA, statB})
	}
	ds, errs := pairedBootstrapSums(va.n, int(2*q*q), slots, pairs, bo)
	out := map[string]pairedResult{}
	for k, name := range names {
		out[name] = pairedResult{ds[k], errs[k]}
	}
	return out
}

// itemClusters groups items by the reference cluster field, else by unit
// when items are questions of a unit.
func itemClusters(v *judgeView) UnitGroups {
	return v.groups(v.src.Cluster, v.hasQuestions)
}

// groups numbers the items' names in col (a column of the reference's names), in the order
// they first occur; with byUnit, an item without a name is grouped by its unit's name, the
// two kinds of names numbered together. Each distinct name is interned once.
func (v *judgeView) groups(col []int32, byUnit bool) UnitGroups {
	var in interner
	src := v.src
	byName := codeCache(len(src.Names))
	var unitOf []int32
	if byUnit {
		unitOf = codeCache(len(src.Keys.Units))
	}
	of := make([]int32, v.n)
	any := false
	for k, i := range v.items {
		of[k] = -1
		if col != nil {
			if c := col[i]; src.Names[c] != "" {
				if byName[c] < 0 {
					byName[c] = in.code(src.Names[c])
				}
				of[k], any = byName[c], true
				continue
			}
		}
		if byUnit {
			if u := src.Unit[i]; src.Keys.Units[u] != "" {
				if unitOf[u] < 0 {
					unitOf[u] = in.code(src.Keys.Units[u])
				}
				of[k], any = unitOf[u], true
			}
		}
	}
	if !any {
		return UnitGroups{}
	}
	return UnitGroups{Names: in.names, Of: of}
}

// codeCache is n codes not yet known (-1).
func codeCache(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = -1
	}
	return out
}
