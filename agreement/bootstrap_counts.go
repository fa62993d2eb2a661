package agreement

import (
	"encoding/binary"
	"math"
	"slices"
)

// BootstrapCounts is Bootstrap for metrics that read a table only through its counts per unit
// size (the memo behind them): Alpha, AlphaLevel, AlphaDistance, PercentAgreement, FleissKappa,
// FleissKappaWeighted, GwetAC1, GwetAC2, BrennanPrediger and BrennanPredigerWeighted. Every unit's
// counts are worked out once, the clusters with the same counts share one pattern, and a
// replicate is the drawn patterns' counts added up, so a replicate costs a draw per cluster
// instead of copying and tallying the resampled table. The draws are Bootstrap's with the same
// options and the counts are the same integers, so the replicates and intervals are Bootstrap's.
// A table whose coincidences are too many for a dense table (more than 256 values) goes
// through Bootstrap. A metric that reads the ratings themselves must use Bootstrap: a
// replicate table here has counts and no ratings.
func BootstrapCounts(t *Table, metrics []func(*Table) (float64, error), opts BootstrapOptions) ([]CI, error) {
	cis, errs := BootstrapCountsEach([]*Table{t}, [][]func(*Table) (float64, error){metrics}, opts)
	return cis[0], errs[0]
}

// BootstrapCountsEach is BootstrapCounts of each table with its metrics (metrics[i] for
// ts[i]) and the same options, with the error of each. Tables with as many units draw the
// same resamples, so they share one pass of draws: a draw counts a pattern of the patterns
// of every such table.
func BootstrapCountsEach(ts []*Table, metrics [][]func(*Table) (float64, error), opts BootstrapOptions) ([][]CI, []error) {
	out, errs := make([][]CI, len(ts)), make([]error, len(ts))
	opts = opts.withDefaults()
	byUnits := map[int][]int{}
	var sizes []int
	for i, t := range ts {
		switch n := t.NumUnits(); {
		case n == 0:
			errs[i] = ErrNoData
		case t.stats().coin == nil:
			out[i], errs[i] = Bootstrap(t, metrics[i], opts)
		default:
			if byUnits[n] == nil {
				sizes = append(sizes, n)
			}
			byUnits[n] = append(byUnits[n], i)
		}
	}
	for _, n := range sizes {
		group := byUnits[n]
		tabs, ms := make([]*Table, len(group)), make([][]func(*Table) (float64, error), len(group))
		for k, i := range group {
			tabs[k], ms[k] = ts[i], metrics[i]
		}
		for k, cis := range bootstrapCountsOf(tabs, ms, opts) {
			out[group[k]] = cis
		}
	}
	return out, errs
}

// bootstrapCountsOf bootstraps tables with the same number of units over one pass of draws.
func bootstrapCountsOf(ts []*Table, metrics [][]func(*Table) (float64, error), opts BootstrapOptions) [][]CI {
	rs := newResampler(ts[0].NumUnits(), opts)
	lays, pats := make([]*countLayout, len(ts)), make([]*countPatterns, len(ts))
	for k, t := range ts {
		lays[k] = newCountLayout(t)
		pats[k] = newCountPatterns(t, lays[k], rs)
	}
	joint := newJointPatterns(pats, len(rs.clusters))
	hist := make([]int64, len(joint.of))
	tally := patternTally[int32](rs, joint.clusters)
	if len(hist) <= math.MaxUint8+1 {
		tally = patternTally[uint8](rs, joint.clusters)
	}
	sums, hists, reps := make([][]int64, len(ts)), make([][]int64, len(ts)), make([]*replicates, len(ts))
	for k := range ts {
		sums[k], hists[k] = make([]int64, lays[k].width), make([]int64, len(pats[k].off)-1)
		reps[k] = newReplicates(len(metrics[k]))
	}
	var names []string
	for range opts.Replicates {
		tally(hist)
		for k, t := range ts {
			joint.marginal(k, hist, hists[k])
			pats[k].replicate(hists[k], sums[k])
			rt := lays[k].table(t, sums[k], &names)
			for i, f := range metrics[k] {
				v, err := f(rt)
				reps[k].add(i, v, err)
			}
		}
	}
	out := make([][]CI, len(ts))
	for k := range ts {
		out[k] = reps[k].intervals(opts.Confidence)
	}
	return out
}

// jointPatterns is the patterns of several tables over the same clusters taken together:
// clusters[c] is cluster c's joint pattern, of[j] the tables' patterns of joint pattern j.
type jointPatterns struct {
	clusters []int32
	of       [][]int32
}

func newJointPatterns(pats []*countPatterns, n int) *jointPatterns {
	j := &jointPatterns{clusters: make([]int32, n)}
	index := map[string]int32{}
	key := make([]byte, 4*len(pats))
	for c := range n {
		for k, p := range pats {
			binary.LittleEndian.PutUint32(key[4*k:], uint32(p.of[c]))
		}
		id, ok := index[string(key)]
		if !ok {
			id = int32(len(j.of))
			index[string(key)] = id
			of := make([]int32, len(pats))
			for k, p := range pats {
				of[k] = p.of[c]
			}
			j.of = append(j.of, of)
		}
		j.clusters[c] = id
	}
	return j
}

// marginal sets hist to how many times table k's patterns were drawn, from the joint
// patterns' counts.
func (j *jointPatterns) marginal(k int, joint, hist []int64) {
	clear(hist)
	for id, h := range joint {
		hist[j.of[id][k]] += h
	}
}

// patternTally returns a function that draws one resample and counts, in hist, how many times
// each pattern was drawn: the clusters of drawClusters, in the same order from the same
// generator, each counted by its pattern (patternOf[c] for cluster c).
//
// note: the strata are kept as their clusters' patterns, in the narrowest type that holds
// them, so a draw reads one byte of an array that stays in the cache instead of a cluster
// index and then its pattern from two arrays of four bytes a unit.
func patternTally[T uint8 | int32](r *resampler, patternOf []int32) func(hist []int64) {
	strata := make([][]T, len(r.strata))
	for s, clusters := range r.strata {
		strata[s] = make([]T, len(clusters))
		for i, c := range clusters {
			strata[s][i] = T(patternOf[c])
		}
	}
	return func(hist []int64) {
		clear(hist)
		if is32bit {
			for _, pats := range strata {
				for range pats {
					hist[pats[r.rng.IntN(len(pats))]]++
				}
			}
			return
		}
		p := streamOf(r.src)
		for _, pats := range strata {
			tallyDraws(&p, pats, hist)
		}
		p.store(r.src)
	}
}

// countLayout places a table's counts per unit size in one vector: the units of each size
// 0..maxSize, their agreeing ordered pairs, then for each size the table has its category
// counts and (from size two) its q×q coincidences, as the memo keeps them.
type countLayout struct {
	q, maxSize int
	cat, coin  []int // offset of a size's categories and coincidences; -1 when there are none
	width      int
}

func newCountLayout(t *Table) *countLayout {
	st := t.stats()
	q, maxSize := len(t.values), len(st.unitsBySize)-1
	l := &countLayout{q: q, maxSize: maxSize, cat: make([]int, maxSize+1), coin: make([]int, maxSize+1), width: 2 * (maxSize + 1)}
	for m := range l.cat {
		l.cat[m], l.coin[m] = -1, -1
		if st.unitsBySize[m] == 0 {
			continue
		}
		l.cat[m], l.width = l.width, l.width+q
		if m >= 2 {
			l.coin[m], l.width = l.width, l.width+q*q
		}
	}
	return l
}

// unit appends the slots and counts of one unit of size m (cnt[v] ratings of value v for v
// in distinct) to at and val.
func (l *countLayout) unit(m int, distinct, cnt []int32, at []int32, val []int64) ([]int32, []int64) {
	var agree int64
	for _, v := range distinct {
		c := int64(cnt[v])
		agree += c * (c - 1)
		at, val = append(at, int32(l.cat[m]+int(v))), append(val, c)
	}
	at, val = append(at, int32(m)), append(val, 1)
	if agree != 0 {
		at, val = append(at, int32(l.maxSize+1+m)), append(val, agree)
	}
	for i, a := range distinct {
		for _, b := range distinct[i+1:] {
			lo, hi := min(a, b), max(a, b)
			at = append(at, int32(l.coin[m]+int(lo)*l.q+int(hi)))
			val = append(val, int64(cnt[a])*int64(cnt[b]))
		}
	}
	return at, val
}

// table returns a replicate table whose memo reads its counts from sum (the vector stays
// sum's: the table is good until sum changes). names is scratch for the unit names, which
// the metrics count but never read.
func (l *countLayout) table(t *Table, sum []int64, names *[]string) *Table {
	m := &memo{unitsBySize: sum[:l.maxSize+1], agreeBySize: sum[l.maxSize+1 : 2*(l.maxSize+1)],
		catBySize: make([][]int64, l.maxSize+1), coin: make([][]int64, l.maxSize+1), pooled: make([]int64, l.q)}
	units := 0
	for s := range l.cat {
		units += int(m.unitsBySize[s])
		if at := l.cat[s]; at >= 0 {
			m.catBySize[s] = sum[at : at+l.q]
		}
		if at := l.coin[s]; at >= 0 {
			m.coin[s] = sum[at : at+l.q*l.q]
		}
	}
	m.pool()
	m.once.Do(func() {})
	if len(*names) < units {
		*names = make([]string, units)
	}
	return &Table{level: t.level, raters: t.raters, values: t.values, numbers: t.numbers, units: (*names)[:units], memo: m}
}

// countPatterns holds the distinct count vectors of a resampler's clusters, sparse: pattern p
// adds val[e] to slot at[e] for e in [off[p], off[p+1]); of[c] is cluster c's pattern.
type countPatterns struct {
	of  []int32
	off []int32
	at  []int32
	val []int64
}

func newCountPatterns(t *Table, l *countLayout, rs *resampler) *countPatterns {
	p := &countPatterns{of: make([]int32, len(rs.clusters)), off: []int32{0}}
	index := map[string]int32{}
	dense, cnt := make([]int64, l.width), make([]int32, l.q)
	var touched, distinct, at []int32
	var val []int64
	var key []byte
	for c, items := range rs.clusters {
		touched = touched[:0]
		for _, u := range items {
			_, vs := t.UnitRatings(int(u))
			distinct = distinct[:0]
			for _, v := range vs {
				if cnt[v] == 0 {
					distinct = append(distinct, v)
				}
				cnt[v]++
			}
			at, val = l.unit(len(vs), distinct, cnt, at[:0], val[:0])
			for e, s := range at {
				if dense[s] == 0 {
					touched = append(touched, s)
				}
				dense[s] += val[e]
			}
			for _, v := range distinct {
				cnt[v] = 0
			}
		}
		slices.Sort(touched) // the same counts make the same key in any order of the ratings
		key = key[:0]
		for _, s := range touched {
			key = binary.AppendUvarint(binary.AppendUvarint(key, uint64(s)), uint64(dense[s]))
		}
		id, ok := index[string(key)]
		if !ok {
			id = int32(len(p.off) - 1)
			index[string(key)] = id
			for _, s := range touched {
				p.at, p.val = append(p.at, s), append(p.val, dense[s])
			}
			p.off = append(p.off, int32(len(p.at)))
		}
		for _, s := range touched {
			dense[s] = 0
		}
		p.of[c] = id
	}
	return p
}

// replicate sets sum to the counts of a resample that drew pattern p hist[p] times.
func (p *countPatterns) replicate(hist, sum []int64) {
	clear(sum)
	for k, h := range hist {
		if h == 0 {
			continue
		}
		for e := p.off[k]; e < p.off[k+1]; e++ {
			sum[p.at[e]] += h * p.val[e]
		}
	}
}

// replicates collects the defined values of k statistics over the replicates.
type replicates struct {
	reps   [][]float64
	failed []int
}

func newReplicates(k int) *replicates {
	return &replicates{reps: make([][]float64, k), failed: make([]int, k)}
}

// add records statistic i's value in one replicate; an error or NaN counts as failed.
func (r *replicates) add(i int, v float64, err error) {
	if err == nil && !math.IsNaN(v) {
		r.reps[i] = append(r.reps[i], v)
	} else {
		r.failed[i]++
	}
}

// intervals returns each statistic's percentile interval.
func (r *replicates) intervals(conf float64) []CI {
	out := make([]CI, len(r.reps))
	for i, xs := range r.reps {
		out[i] = percentileInterval(xs, conf)
		out[i].Failed = r.failed[i]
	}
	return out
}
