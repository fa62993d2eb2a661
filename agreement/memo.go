package agreement

import "sync"

// memo holds per-table quantities that several metrics share, computed in
// one pass over the units on first use.
type memo struct {
	once sync.Once
	// agreeBySize[m] is Σ_k r_ik(r_ik−1) over units of size m; unitsBySize[m]
	// the number of such units.
	agreeBySize, unitsBySize []int64
	// catBySize[m][k] counts ratings of category k in units of size m.
	catBySize [][]int64
	// coin[m][c*q+k] (c < k) counts pairs of ratings with values c and k in
	// units of size m: the integer coincidences behind alpha and weighted
	// agreement. nil when q is too large for a dense table.
	coin [][]int64
	// pooled counts categories over pairable units; nPooled is their total.
	pooled  []int64
	nPooled int64

	ordOnce sync.Once
	ord     OrdinalPairwise
	ordErr  error
}

// stats returns the table's memo, computing it on first use.
func (t *Table) stats() *memo {
	if t.memo == nil {
		t.memo = &memo{}
	}
	m := t.memo
	m.once.Do(func() { m.compute(t) })
	return m
}

// maxCoincidence bounds the dense coincidence table (q² cells per unit size).
const maxCoincidence = 1 << 16

func (m *memo) compute(t *Table) {
	q := len(t.values)
	m.pooled = make([]int64, q)
	if q <= fewCategories {
		m.countFew(t, q)
	} else {
		m.countDistinct(t, q)
	}
	m.pool()
}

// pool sums the categories of the pairable units.
func (m *memo) pool() {
	for size := 2; size < len(m.catBySize); size++ {
		for k, c := range m.catBySize[size] {
			m.pooled[k] += c
			m.nPooled += c
		}
	}
}

// recode returns the memo of counts m made with provisional value codes
// 0..stride-1, in the final codes 0..q-1: remap[p] is the final code of
// provisional code p < q. m must not be pooled yet.
func (m *memo) recode(remap []int32, stride int) *memo {
	q := len(remap)
	f := &memo{agreeBySize: m.agreeBySize, unitsBySize: m.unitsBySize, pooled: make([]int64, q),
		catBySize: make([][]int64, len(m.catBySize)), coin: make([][]int64, len(m.coin))}
	for size, cats := range m.catBySize {
		if cats != nil {
			f.catBySize[size] = make([]int64, q)
			for p, k := range remap {
				f.catBySize[size][k] = cats[p]
			}
		}
	}
	for size, row := range m.coin {
		if row == nil {
			continue
		}
		f.coin[size] = make([]int64, q*q)
		for a := range q {
			for b := a + 1; b < q; b++ {
				lo, hi := min(remap[a], remap[b]), max(remap[a], remap[b])
				f.coin[size][int(lo)*q+int(hi)] += row[a*stride+b]
			}
		}
	}
	f.pool()
	return f
}

// fewCategories is the number of categories up to which countFew is used.
const fewCategories = 16

// countFew is the pass over the units for a few categories: a unit's
// counts go to a fixed array and every category is visited.
//
// note: visiting the q categories costs fewer mispredicted branches than
// tracking which values a unit has (countDistinct); this pass is the cost
// of every nominal metric.
func (m *memo) countFew(t *Table, q int) {
	var cnt [fewCategories]int64
	for u := range t.units {
		a, b := t.unitStart[u], t.unitStart[u+1]
		for _, v := range t.value[a:b] {
			cnt[v]++
		}
		m.addUnit(int(b-a), cnt[:q], q)
		clear(cnt[:q])
	}
}

// addUnit adds a unit of size ratings, cnt[k] of them with value code k,
// to the counts of a memo with room for stride ≥ len(cnt) codes.
func (m *memo) addUnit(size int, cnt []int64, stride int) {
	m.grow(size, stride)
	m.unitsBySize[size]++
	cats := m.catBySize[size][:len(cnt)]
	var agree int64
	for k, c := range cnt {
		cats[k] += c
		agree += c * (c - 1)
	}
	m.agreeBySize[size] += agree
	if agree < int64(size*(size-1)) { // more than one value
		row := m.coinRow(size, stride)
		for c, x := range cnt {
			if x == 0 {
				continue
			}
			for k := c + 1; k < len(cnt); k++ {
				row[c*stride+k] += x * cnt[k]
			}
		}
	}
}

// countDistinct is the pass over the units for many categories.
func (m *memo) countDistinct(t *Table, q int) {
	dense := q*q <= maxCoincidence
	cnt := make([]int32, q)
	distinct := make([]int32, 0, 16)
	for u := range t.units {
		a, b := t.unitStart[u], t.unitStart[u+1]
		size := int(b - a)
		m.grow(size, q)
		distinct = distinct[:0]
		for _, v := range t.value[a:b] {
			if cnt[v] == 0 {
				distinct = append(distinct, v)
			}
			cnt[v]++
		}
		m.unitsBySize[size]++
		cats := m.catBySize[size]
		var agree int64
		for _, v := range distinct {
			c := int64(cnt[v])
			cats[v] += c
			agree += c * (c - 1)
		}
		m.agreeBySize[size] += agree
		if dense && len(distinct) > 1 {
			m.addCoincidences(size, q, distinct, cnt)
		}
		for _, v := range distinct {
			cnt[v] = 0
		}
	}
	if !dense {
		m.coin = nil
	}
}

// grow makes room for units of the given size.
func (m *memo) grow(size, q int) {
	for size >= len(m.unitsBySize) {
		m.unitsBySize = append(m.unitsBySize, 0)
		m.agreeBySize = append(m.agreeBySize, 0)
		m.catBySize = append(m.catBySize, nil)
		m.coin = append(m.coin, nil)
	}
	if m.catBySize[size] == nil {
		m.catBySize[size] = make([]int64, q)
	}
}

// coinRow returns the coincidences of units of the given size.
func (m *memo) coinRow(size, q int) []int64 {
	if m.coin[size] == nil {
		m.coin[size] = make([]int64, q*q)
	}
	return m.coin[size]
}

func (m *memo) addCoincidences(size, q int, distinct, cnt []int32) {
	row := m.coinRow(size, q)
	for i, a := range distinct {
		for _, b := range distinct[i+1:] {
			lo, hi := min(a, b), max(a, b)
			row[int(lo)*q+int(hi)] += int64(cnt[a]) * int64(cnt[b])
		}
	}
}

// observed returns Σ_m Σ_{c<k} 2·coin_m[c,k]·δ²(c,k) / (m−1), or ok=false
// without a dense coincidence table.
func (m *memo) observed(q int, d Distance) (float64, bool) {
	if m.coin == nil {
		return 0, false
	}
	var total accumulator
	for size, row := range m.coin {
		if row == nil || size < 2 {
			continue
		}
		var s accumulator
		for c := range q {
			for k := c + 1; k < q; k++ {
				if x := row[c*q+k]; x != 0 {
					s.Add(2 * float64(x) * d(c, k))
				}
			}
		}
		total.Add(s.Value() / float64(size-1))
	}
	return total.Value(), true
}

// weightedAgreement returns Gwet's weighted percent agreement from the
// coincidences, or ok=false without a dense table.
func (m *memo) weightedAgreement(q int, w Weights) (float64, bool, error) {
	if m.coin == nil {
		return 0, false, nil
	}
	var units int64
	var total accumulator
	for size := 2; size < len(m.unitsBySize); size++ {
		if m.unitsBySize[size] == 0 {
			continue
		}
		units += m.unitsBySize[size]
		s := float64(m.agreeBySize[size])
		if row := m.coin[size]; row != nil {
			var off accumulator
			for c := range q {
				for k := c + 1; k < q; k++ {
					if x := row[c*q+k]; x != 0 {
						off.Add(float64(x) * (w[c][k] + w[k][c]))
					}
				}
			}
			s += off.Value()
		}
		total.Add(s / float64(size*(size-1)))
	}
	if units == 0 {
		return 0, true, ErrNoPairableUnits
	}
	return total.Value() / float64(units), true, nil
}

// percentAgreement returns the unweighted percent agreement from the memo.
func (m *memo) percentAgreement() (float64, error) {
	var units int64
	var total accumulator
	for size := 2; size < len(m.unitsBySize); size++ {
		units += m.unitsBySize[size]
		total.Add(float64(m.agreeBySize[size]) / float64(size*(size-1)))
	}
	if units == 0 {
		return 0, ErrNoPairableUnits
	}
	return total.Value() / float64(units), nil
}

// shares returns π_k, the mean over rated units of r_ik / r_i.
func (m *memo) shares(q, nUnits int) []float64 {
	pi := make([]float64, q)
	for k := range pi {
		var a accumulator
		for size, c := range m.catBySize {
			if c != nil && size > 0 {
				a.Add(float64(c[k]) / float64(size))
			}
		}
		pi[k] = a.Value() / float64(nUnits)
	}
	return pi
}

// nominalObserved returns Σ_m (disagreeing ordered pairs in units of size m) / (m−1).
func (m *memo) nominalObserved() float64 {
	var total accumulator
	for size := 2; size < len(m.unitsBySize); size++ {
		pairs := m.unitsBySize[size] * int64(size*(size-1))
		total.Add(float64(pairs-m.agreeBySize[size]) / float64(size-1))
	}
	return total.Value()
}
