package agreement

import "fmt"

// Distance returns the squared distance δ² between two value codes of a
// table; it must be symmetric and zero for equal codes.
type Distance func(a, b int) float64

// Alpha returns Krippendorff's alpha at the table's level of measurement.
func Alpha(t *Table) (float64, error) { return AlphaLevel(t, t.level) }

// AlphaLevel returns Krippendorff's alpha with the distance of the given
// level: nominal (0/1), ordinal (rank distance over the pairable values),
// interval ((a-b)²) or ratio (((a-b)/(a+b))²). Units with fewer than two
// ratings are ignored (missing data). It returns ErrNoPairableUnits or
// ErrNoVariation when alpha is undefined.
//
//	alpha = 1 - (n-1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck
func AlphaLevel(t *Table, level Level) (float64, error) {
	if err := needRaters(t); err != nil {
		return 0, err
	}
	return alphaOf(t.stats(), t.numbers, level, t.observedSum)
}

// alphaOf is AlphaLevel from a table's memo and the numbers of its values
// (nil when not numeric); rows computes the observed disagreement from the
// ratings when the memo has no dense coincidences.
func alphaOf(st *memo, numbers []float64, level Level, rows func(Distance) float64) (float64, error) {
	nc, n := st.pooled, st.nPooled
	if n == 0 {
		return 0, ErrNoPairableUnits
	}
	d, err := levelDistance(numbers, level, nc)
	if err != nil {
		return 0, err
	}
	var de float64
	if level == Interval {
		de = intervalExpected(numbers, nc, n)
	} else {
		de = expectedSum(nc, d)
	}
	if level == Nominal {
		if !(de > 0) {
			return 0, fmt.Errorf("alpha: %w", ErrNoVariation)
		}
		return 1 - float64(n-1)*st.nominalObserved()/de, nil
	}
	return alphaFrom(st, d, n, de, rows)
}

// AlphaDistance returns Krippendorff's alpha with a caller-supplied distance,
// for example a set distance for multi-select values (see SetDistance).
func AlphaDistance(t *Table, d Distance) (float64, error) {
	if err := needRaters(t); err != nil {
		return 0, err
	}
	st := t.stats()
	nc, n := st.pooled, st.nPooled
	if n == 0 {
		return 0, ErrNoPairableUnits
	}
	return alphaFrom(st, d, n, expectedSum(nc, d), t.observedSum)
}

func alphaFrom(st *memo, d Distance, n int64, de float64, rows func(Distance) float64) (float64, error) {
	if !(de > 0) {
		return 0, fmt.Errorf("alpha: %w", ErrNoVariation)
	}
	do, ok := st.observed(len(st.pooled), d)
	if !ok {
		do = rows(d)
	}
	return 1 - float64(n-1)*do/de, nil
}

// levelDistance returns δ² for a level of measurement.
func levelDistance(numbers []float64, level Level, nc []int64) (Distance, error) {
	switch level {
	case Nominal:
		return func(a, b int) float64 {
			if a == b {
				return 0
			}
			return 1
		}, nil
	case Ordinal:
		return ordinalDistance(nc), nil
	case Interval, Ratio:
		if numbers == nil {
			return nil, fmt.Errorf("alpha at level %s: %w", level, ErrNotNumeric)
		}
		return numericDistance(numbers, level), nil
	}
	return nil, fmt.Errorf("%w: level %d", ErrLevel, level)
}

// ordinalDistance is Krippendorff's ordinal metric over value ranks:
// δ²_ck = (Σ_{g=c..k} n_g − (n_c+n_k)/2)².
func ordinalDistance(nc []int64) Distance {
	cum := make([]float64, len(nc)+1)
	for i, x := range nc {
		cum[i+1] = cum[i] + float64(x)
	}
	return func(a, b int) float64 {
		if a > b {
			a, b = b, a
		}
		s := cum[b+1] - cum[a] - float64(nc[a]+nc[b])/2
		return s * s
	}
}

func numericDistance(x []float64, level Level) Distance {
	if level == Interval {
		return func(a, b int) float64 {
			d := x[a] - x[b]
			return d * d
		}
	}
	return func(a, b int) float64 {
		if a == b {
			return 0
		}
		d := (x[a] - x[b]) / (x[a] + x[b])
		return d * d
	}
}

// expectedSum returns Σ_c Σ_k n_c n_k δ²_ck over values that occur.
func expectedSum(nc []int64, d Distance) float64 {
	var acc accumulator
	for c, x := range nc {
		if x == 0 {
			continue
		}
		for k := c + 1; k < len(nc); k++ {
			if nc[k] != 0 {
				acc.Add(2 * float64(x) * float64(nc[k]) * d(c, k))
			}
		}
	}
	return acc.Value()
}

// intervalExpected returns Σ_c Σ_k n_c n_k (x_c−x_k)² = 2n Σ_c n_c (x_c−x̄)²,
// in O(values) and without cancellation.
func intervalExpected(x []float64, nc []int64, n int64) float64 {
	var s accumulator
	for c, k := range nc {
		s.Add(float64(k) * x[c])
	}
	mean := s.Value() / float64(n)
	var ss accumulator
	for c, k := range nc {
		dv := x[c] - mean
		ss.Add(float64(k) * dv * dv)
	}
	return 2 * float64(n) * ss.Value()
}

// observedSum returns Σ_u Σ_{i≠j in u} δ²(v_i, v_j) / (m_u − 1), summed per
// unit size first so that the division happens once per size.
func (t *Table) observedSum(d Distance) float64 {
	var perSize []accumulator
	newUnitScan(t).each(2, func(_, m int, distinct, cnt []int32) {
		if len(distinct) > 1 {
			perSize = growAcc(perSize, m)
			perSize[m].Add(unitDisagreement(distinct, cnt, d))
		}
	})
	var total accumulator
	for m, a := range perSize {
		if m >= 2 {
			total.Add(a.Value() / float64(m-1))
		}
	}
	return total.Value()
}

// unitDisagreement returns Σ over ordered pairs of distinct values in a unit
// of count·count·δ².
func unitDisagreement(distinct, cnt []int32, d Distance) float64 {
	var s float64
	for i, a := range distinct {
		for _, b := range distinct[i+1:] {
			s += 2 * float64(cnt[a]) * float64(cnt[b]) * d(int(a), int(b))
		}
	}
	return s
}
