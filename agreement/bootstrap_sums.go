package agreement

import (
	"fmt"
	"math"
)

// clusterSums holds, for every cluster of a resampler, the sum of its items' count vectors,
// sparse: cluster c adds val[e] to slot at[e] for e in [off[c], off[c+1]).
type clusterSums struct {
	width int
	off   []int32
	at    []int32
	val   []int64
}

// newClusterSums sums the count vectors of each cluster's items once. slots appends the
// slots item i counts one in (a slot may appear more than once).
func newClusterSums(rs *resampler, width int, slots func(i int32, out []int32) []int32) *clusterSums {
	cs := &clusterSums{width: width, off: make([]int32, 1, len(rs.clusters)+1)}
	dense := make([]int64, width)
	var touched, out []int32
	for _, items := range rs.clusters {
		touched = touched[:0]
		for _, i := range items {
			out = slots(i, out[:0])
			for _, s := range out {
				if dense[s] == 0 {
					touched = append(touched, s)
				}
				dense[s]++
			}
		}
		for _, s := range touched {
			cs.at, cs.val = append(cs.at, s), append(cs.val, dense[s])
			dense[s] = 0
		}
		cs.off = append(cs.off, int32(len(cs.at)))
	}
	return cs
}

// replicate sets sum to the count vector of the drawn clusters (repeats counted each time).
func (cs *clusterSums) replicate(drawn []int32, sum []int64) {
	clear(sum)
	for _, c := range drawn {
		for e := cs.off[c]; e < cs.off[c+1]; e++ {
			sum[cs.at[e]] += cs.val[e]
		}
	}
}

// SumStat computes a statistic from the summed count vector of a resample.
type SumStat func(sum []int64) (float64, error)

// bootstrapSums is BootstrapIndex for statistics that depend on a resample only through the
// sum of its items' count vectors (confusion counts and the like). The vectors are summed
// once per cluster, and a replicate adds up the drawn clusters' sums, so its cost does not
// depend on the number of items. The draws are BootstrapIndex's with the same options, so
// the replicates, and the intervals, are the same as computing each statistic on the
// resampled items.
func bootstrapSums(n, width int, slots func(i int32, out []int32) []int32, stats []SumStat, opts BootstrapOptions) ([]CI, error) {
	if n == 0 {
		return nil, ErrNoData
	}
	opts = opts.withDefaults()
	rs := newResampler(n, opts)
	cs := newClusterSums(rs, width, slots)
	sum := make([]int64, width)
	reps := make([][]float64, len(stats))
	failed := make([]int, len(stats))
	for range opts.Replicates {
		cs.replicate(rs.drawClusters(), sum)
		for k, f := range stats {
			if v, err := f(sum); err == nil && !math.IsNaN(v) {
				reps[k] = append(reps[k], v)
			} else {
				failed[k]++
			}
		}
	}
	out := make([]CI, len(stats))
	for k, r := range reps {
		out[k] = percentileInterval(r, opts.Confidence)
		out[k].Failed = failed[k]
	}
	return out, nil
}

// sumPair is two statistics of the same summed count vector whose difference is bootstrapped.
type sumPair struct{ a, b SumStat }

// pairedBootstrapSums is PairedBootstrap for pairs of statistics of summed count vectors:
// each item counts in slots of one vector, a pair's a and b read their parts of it. Each
// pair gets the draws and replicates of PairedBootstrap with the same options (the draws do
// not depend on the statistics, so all pairs share one pass over them); a pair whose
// estimate fails has that error and no replicates.
func pairedBootstrapSums(n, width int, slots func(i int32, out []int32) []int32, pairs []sumPair, opts BootstrapOptions) ([]PairedDifference, []error) {
	res, errs := make([]PairedDifference, len(pairs)), make([]error, len(pairs))
	opts = opts.withDefaults()
	rs := newResampler(n, opts)
	cs := newClusterSums(rs, width, slots)
	sum := make([]int64, width)
	all := make([]int32, len(rs.clusters))
	for c := range all {
		all[c] = int32(c)
	}
	cs.replicate(all, sum)
	for k, p := range pairs {
		a, errA := p.a(sum)
		b, errB := p.b(sum)
		if errA != nil || errB != nil {
			errs[k] = fmt.Errorf("paired bootstrap: %w", firstErr(errA, errB))
			continue
		}
		res[k].Estimate = a - b
	}
	reps := make([][]float64, len(pairs))
	failed := make([]int, len(pairs))
	for range opts.Replicates {
		cs.replicate(rs.drawClusters(), sum)
		for k, p := range pairs {
			if errs[k] != nil {
				continue
			}
			x, errX := p.a(sum)
			y, errY := p.b(sum)
			if d := x - y; errX == nil && errY == nil && !math.IsNaN(d) {
				reps[k] = append(reps[k], d)
			} else {
				failed[k]++
			}
		}
	}
	for k := range pairs {
		if errs[k] != nil {
			continue
		}
		res[k].PValue = twoSidedP(reps[k])
		res[k].Interval = percentileInterval(reps[k], opts.Confidence)
		res[k].Interval.Failed = failed[k]
	}
	return res, errs
}
