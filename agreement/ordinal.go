package agreement

// OrdinalPairwise holds the pairwise figures leads read in calibration for
// ordinal scores, pooled over every pair of ratings of the same unit.
type OrdinalPairwise struct {
	Pairs       int64   // rating pairs compared
	Exact       float64 // share of pairs with equal scores
	WithinOne   float64 // share of pairs whose scores differ by at most 1
	MeanAbsDiff float64 // mean |score_a − score_b|
}

// OrdinalAgreement computes exact agreement, agreement within ±1 and the mean
// absolute difference over all pairs of ratings of each unit. Scores are the
// numeric values, or the category ranks when values are not numbers.
func OrdinalAgreement(t *Table) (OrdinalPairwise, error) {
	if t.memo == nil {
		t.memo = &memo{}
	}
	m := t.memo
	m.ordOnce.Do(func() {
		var ok bool
		if m.ord, ok, m.ordErr = t.stats().ordinalPairs(t.scores()); !ok {
			m.ord, m.ordErr = ordinalAgreement(t)
		}
	})
	return m.ord, m.ordErr
}

// ordinalPairs computes the pairwise figures from the coincidences, or
// ok=false without a dense table.
func (m *memo) ordinalPairs(x []float64) (OrdinalPairwise, bool, error) {
	var res OrdinalPairwise
	if m.coin == nil {
		return res, false, nil
	}
	q := len(x)
	var exact, within int64
	var diff accumulator
	for size := 2; size < len(m.unitsBySize); size++ {
		res.Pairs += m.unitsBySize[size] * int64(size*(size-1)/2)
		exact += m.agreeBySize[size] / 2
		row := m.coin[size]
		for c := 0; row != nil && c < q; c++ {
			for k := c + 1; k < q; k++ {
				if n := row[c*q+k]; n != 0 {
					d := abs(x[c] - x[k])
					if d <= 1 {
						within += n
					}
					diff.Add(float64(n) * d)
				}
			}
		}
	}
	if res.Pairs == 0 {
		return res, true, ErrNoPairableUnits
	}
	p := float64(res.Pairs)
	res.Exact, res.WithinOne, res.MeanAbsDiff = float64(exact)/p, float64(exact+within)/p, diff.Value()/p
	return res, true, nil
}

func ordinalAgreement(t *Table) (OrdinalPairwise, error) {
	x := t.scores()
	var res OrdinalPairwise
	var exact, within int64
	var diff accumulator
	for u := range t.units {
		_, vs := t.UnitRatings(u)
		for i := range vs {
			for _, w := range vs[i+1:] {
				d := abs(x[vs[i]] - x[w])
				res.Pairs++
				if d == 0 {
					exact++
				}
				if d <= 1 {
					within++
				}
				diff.Add(d)
			}
		}
	}
	if res.Pairs == 0 {
		return res, ErrNoPairableUnits
	}
	p := float64(res.Pairs)
	res.Exact, res.WithinOne, res.MeanAbsDiff = float64(exact)/p, float64(within)/p, diff.Value()/p
	return res, nil
}
