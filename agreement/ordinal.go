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
	m.ordOnce.Do(func() { m.ord, m.ordErr = ordinalAgreement(t) })
	return m.ord, m.ordErr
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
