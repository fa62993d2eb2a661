package agreement

import (
	"fmt"
	"math"
)

// intervals fills the judge's own percentile intervals of its headline metrics: items are
// resampled by the records' clusters (by unit when records are questions of a unit) within
// their strata, each metric with the same seed (so on the same resamples).
func (rep *JudgeReport) intervals(v *judgeView, opts JudgeOptions) {
	bo := BootstrapOptions{Replicates: opts.Intervals, Seed: opts.Seed, Clusters: itemClusters(v), Strata: itemStrata(v)}
	rep.CI95 = map[string]*CI{}
	keep := func(name string, cis []CI, err error) {
		if err != nil || len(cis) != 1 || cis[0].Replicates == 0 {
			return
		}
		ci := cis[0]
		rep.CI95[name] = &ci
	}
	if v.labelled() {
		// note: each record is one count of the confusion matrix, so a replicate is the sum
		// of the drawn clusters' matrices (bootstrapSums), not a classification of its records.
		classes, of := viewClasses(v)
		q, m := int32(len(classes)), of[0]
		slot := func(i int32, out []int32) []int32 { return append(out, m[v.refL[i]]*q+m[v.predL[i]]) }
		// note: every metric's replicates come from the same draws (same seed), so all are
		// computed in one pass over the draws, as many passes would give them
		var names []string
		var stats []SumStat
		for name, m := range countHeadline(v, classes) {
			names, stats = append(names, name), append(stats, SumStat(m))
		}
		cis, err := bootstrapSums(v.n, int(q*q), slot, stats, bo)
		for k, name := range names {
			if err == nil {
				keep(name, cis[k:k+1], nil)
			}
		}
		return
	}
	var scratch judgeView
	for name, f := range headline(v) {
		stat := func(idx []int32) (float64, error) { return f(v.subsetInto(&scratch, idx)) }
		cis, err := BootstrapIndex(v.n, []IndexStat{stat}, bo)
		keep(name, cis, err)
	}
}

// itemStrata groups items by the reference records' stratum field.
func itemStrata(v *judgeView) UnitGroups {
	return v.groups(v.src.Stratum, false)
}

// BinaryCorrelation is Pearson's r of two 0/1 variables given their 2×2 table of counts
// (n11: both 1, n10: first 1 and second 0, …), the phi coefficient: the same value Pearson
// gives on the expanded vectors, from counts, so that a million items need no vectors.
// Undefined (ErrNoVariation) when either variable is constant.
func BinaryCorrelation(n11, n10, n01, n00 int64) (float64, error) {
	a, b, c, d := float64(n11), float64(n10), float64(n01), float64(n00)
	den := math.Sqrt(a+b) * math.Sqrt(c+d) * math.Sqrt(a+c) * math.Sqrt(b+d)
	if !(den > 0) {
		return 0, fmt.Errorf("binary correlation: %w", ErrNoVariation)
	}
	return math.Max(-1, math.Min(1, (a*d-b*c)/den)), nil
}
