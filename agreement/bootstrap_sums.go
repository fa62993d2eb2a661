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

// pairedBootstrapSums is PairedBootstrap for two statistics of summed count vectors: each
// item counts in slots of one vector, statA and statB read their parts of it. Same draws and
// replicates as PairedBootstrap with the same options.
func pairedBootstrapSums(n, width int, slots func(i int32, out []int32) []int32, statA, statB SumStat, opts BootstrapOptions) (PairedDifference, error) {
	var res PairedDifference
	opts = opts.withDefaults()
	rs := newResampler(n, opts)
	cs := newClusterSums(rs, width, slots)
	sum := make([]int64, width)
	all := make([]int32, len(rs.clusters))
	for c := range all {
		all[c] = int32(c)
	}
	cs.replicate(all, sum)
	a, errA := statA(sum)
	b, errB := statB(sum)
	if errA != nil || errB != nil {
		return res, fmt.Errorf("paired bootstrap: %w", firstErr(errA, errB))
	}
	res.Estimate = a - b
	var reps []float64
	failed := 0
	for range opts.Replicates {
		cs.replicate(rs.drawClusters(), sum)
		x, errX := statA(sum)
		y, errY := statB(sum)
		if d := x - y; errX == nil && errY == nil && !math.IsNaN(d) {
			reps = append(reps, d)
		} else {
			failed++
		}
	}
	res.PValue = twoSidedP(reps)
	res.Interval = percentileInterval(reps, opts.Confidence)
	res.Interval.Failed = failed
	return res, nil
}
