package agreement

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapOptions controls a bootstrap: units (or clusters of units) are
// resampled with replacement, within strata when given, Replicates times
// from a generator seeded with Seed, so a seed always gives the same result.
type BootstrapOptions struct {
	Replicates int     // default 1000
	Seed       uint64  // seed of the PCG generator
	Confidence float64 // default 0.95
	Clusters   UnitGroups
	Strata     UnitGroups
}

// CI is a percentile bootstrap confidence interval.
type CI struct {
	Lower, Upper float64
	Replicates   int // replicates where the statistic was defined
	Failed       int // replicates where it was undefined (skipped)
}

// IndexStat computes a statistic over a resample given as item indexes
// (repeats allowed).
type IndexStat func(idx []int32) (float64, error)

// resampler draws bootstrap resamples of n items grouped in clusters and strata.
type resampler struct {
	clusters [][]int32 // cluster → item indexes
	strata   [][]int32 // stratum → clusters
	src      *rand.PCG // rng's source
	rng      *rand.Rand
	buf      []int32
	drawn    []int32
}

func newResampler(n int, opts BootstrapOptions) *resampler {
	r := &resampler{clusters: make([][]int32, 0, n)}
	own := make([]int32, n) // the first unit of each cluster, in place, so a cluster of one is no allocation
	// note: group codes are small numbers, so a cluster's position and a stratum's are
	// slices by code (the stratum's shifted by one for items without one), not maps
	stratumIdx := codeCache(int(maxCode(opts.Strata.Of)) + 2)
	clusterAt := codeCache(int(maxCode(opts.Clusters.Of)) + 1) // cluster key → cluster
	for i := range n {
		c := groupOf(opts.Clusters, i)
		if c >= 0 && clusterAt[c] >= 0 {
			at := clusterAt[c]
			r.clusters[at] = append(r.clusters[at], int32(i))
			continue
		}
		// note: a cluster stays in the stratum of its first unit.
		s := groupOf(opts.Strata, i) + 1
		si := int(stratumIdx[s])
		if si < 0 {
			si = len(r.strata)
			stratumIdx[s] = int32(si)
			r.strata = append(r.strata, nil)
		}
		at := int32(len(r.clusters))
		if c >= 0 {
			clusterAt[c] = at
		}
		own[i] = int32(i)
		r.clusters = append(r.clusters, own[i:i+1:i+1])
		r.strata[si] = append(r.strata[si], at)
	}
	r.src = rand.NewPCG(opts.Seed, opts.Seed^0x5851f42d4c957f2d)
	r.rng = rand.New(r.src)
	return r
}

// maxCode is the largest group code (-1 for none).
func maxCode(of []int32) int32 {
	m := int32(-1)
	for _, c := range of {
		m = max(m, c)
	}
	return m
}

// groupOf is unit i's group code; -1 (none) for a unit past the codes or with a negative code.
func groupOf(g UnitGroups, i int) int32 {
	if i < len(g.Of) && g.Of[i] >= 0 {
		return g.Of[i]
	}
	return -1
}

// drawClusters returns the clusters of one resample: in each stratum as many clusters as it
// has, drawn with replacement (the slice is reused by the next draw).
func (r *resampler) drawClusters() []int32 {
	r.drawn = r.drawn[:0]
	for _, clusters := range r.strata {
		for range clusters {
			r.drawn = append(r.drawn, clusters[r.rng.IntN(len(clusters))])
		}
	}
	return r.drawn
}

// draw returns one resample as item indexes (the slice is reused by the next draw).
func (r *resampler) draw() []int32 {
	r.buf = r.buf[:0]
	for _, c := range r.drawClusters() {
		r.buf = append(r.buf, r.clusters[c]...)
	}
	return r.buf
}

func (o BootstrapOptions) withDefaults() BootstrapOptions {
	if o.Replicates <= 0 {
		o.Replicates = 1000
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = 0.95
	}
	return o
}

// BootstrapIndex returns percentile intervals for several statistics over n
// items, all computed on the same resamples.
func BootstrapIndex(n int, stats []IndexStat, opts BootstrapOptions) ([]CI, error) {
	return bootstrapCore(n, len(stats), opts, func(idx []int32, i int) (float64, error) {
		return stats[i](idx)
	})
}

// Bootstrap returns percentile intervals for table metrics, resampling units
// (or clusters of units), each replicate table built once for all metrics.
func Bootstrap(t *Table, metrics []func(*Table) (float64, error), opts BootstrapOptions) ([]CI, error) {
	var scratch Table
	var cur *Table
	return bootstrapCore(t.NumUnits(), len(metrics), opts, func(idx []int32, i int) (float64, error) {
		if i == 0 {
			cur = t.resample(&scratch, idx)
		}
		return metrics[i](cur)
	})
}

// bootstrapCore draws the resamples and evaluates k statistics on each, in
// order 0..k-1 (so statistic 0 may prepare shared state).
func bootstrapCore(n, k int, opts BootstrapOptions, eval func(idx []int32, i int) (float64, error)) ([]CI, error) {
	if n == 0 {
		return nil, ErrNoData
	}
	opts = opts.withDefaults()
	rs := newResampler(n, opts)
	reps := make([][]float64, k)
	failed := make([]int, k)
	for range opts.Replicates {
		idx := rs.draw()
		for i := range k {
			if v, err := eval(idx, i); err == nil && !math.IsNaN(v) {
				reps[i] = append(reps[i], v)
			} else {
				failed[i]++
			}
		}
	}
	out := make([]CI, k)
	for i, r := range reps {
		out[i] = percentileInterval(r, opts.Confidence)
		out[i].Failed = failed[i]
	}
	return out, nil
}

// percentileInterval returns the (1±conf)/2 quantiles (linear interpolation,
// R type 7) of the replicates.
func percentileInterval(reps []float64, conf float64) CI {
	iv := CI{Replicates: len(reps)}
	if len(reps) == 0 {
		iv.Lower, iv.Upper = math.NaN(), math.NaN()
		return iv
	}
	slices.Sort(reps)
	a := (1 - conf) / 2
	iv.Lower, iv.Upper = quantile(reps, a), quantile(reps, 1-a)
	return iv
}

// quantile is the type-7 quantile of sorted xs.
func quantile(xs []float64, p float64) float64 {
	h := p * float64(len(xs)-1)
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[lo] + (h-float64(lo))*(xs[lo+1]-xs[lo])
}

// PairedDifference is the bootstrap distribution summary of stat A − stat B.
type PairedDifference struct {
	Estimate float64 // A − B on the full data
	Interval CI      // percentile interval of the replicate differences
	// PValue is the two-sided bootstrap p-value: twice the smaller share of
	// replicate differences at or beyond zero on either side, capped at 1.
	PValue float64
}

// PairedBootstrap resamples n items once per replicate and records the
// difference statA − statB, for two raters or two judges over the same units.
func PairedBootstrap(n int, statA, statB IndexStat, opts BootstrapOptions) (PairedDifference, error) {
	var res PairedDifference
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	a, errA := statA(all)
	b, errB := statB(all)
	if errA != nil || errB != nil {
		return res, fmt.Errorf("paired bootstrap: %w", firstErr(errA, errB))
	}
	res.Estimate = a - b
	diff := func(idx []int32) (float64, error) {
		x, err := statA(idx)
		if err != nil {
			return 0, err
		}
		y, err := statB(idx)
		return x - y, err
	}
	var reps []float64
	opts = opts.withDefaults()
	rs := newResampler(n, opts)
	failed := 0
	for range opts.Replicates {
		if d, err := diff(rs.draw()); err == nil && !math.IsNaN(d) {
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

func twoSidedP(reps []float64) float64 {
	if len(reps) == 0 {
		return math.NaN()
	}
	var le, ge int
	for _, d := range reps {
		if d <= 0 {
			le++
		}
		if d >= 0 {
			ge++
		}
	}
	p := 2 * float64(min(le, ge)) / float64(len(reps))
	return math.Min(1, p)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
