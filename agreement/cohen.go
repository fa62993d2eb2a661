package agreement

import "fmt"

// KappaWeighting selects the disagreement weights of Cohen's kappa.
type KappaWeighting int

// Cohen's kappa weightings, as in scikit-learn's cohen_kappa_score: weights
// are |i−j| (linear) or (i−j)² (quadratic) over the indexes of the sorted
// categories that occur in the pair's data.
const (
	Unweighted KappaWeighting = iota
	LinearWeighted
	QuadraticWeighted
)

// Confusion is the cross-tabulation of two raters over the units both rated.
type Confusion struct {
	A, B   int     // rater codes; rows are A's values, columns B's
	N      int64   // number of units both rated
	Q      int     // number of value codes
	Counts []int64 // Q×Q, row-major
}

// PercentAgreement returns the share of units on which A and B agree.
func (c *Confusion) PercentAgreement() (float64, error) {
	if c.N == 0 {
		return 0, ErrNoPairableUnits
	}
	var agree int64
	for k := 0; k < c.Q; k++ {
		agree += c.Counts[k*c.Q+k]
	}
	return float64(agree) / float64(c.N), nil
}

// Kappa returns Cohen's kappa, 1 − Σ w·O / Σ w·E with E_ij = row_i·col_j / N.
func (c *Confusion) Kappa(weighting KappaWeighting) (float64, error) {
	if c.N == 0 {
		return 0, ErrNoPairableUnits
	}
	row, col, present := c.marginals()
	var obs, exp accumulator
	for i, ci := range present {
		for j, cj := range present {
			if i == j {
				continue
			}
			w := kappaWeight(weighting, i-j)
			obs.Add(w * float64(c.Counts[ci*c.Q+cj]))
			exp.Add(w * float64(row[ci]) * float64(col[cj]))
		}
	}
	if !(exp.Value() > 0) {
		return 0, fmt.Errorf("cohen kappa: %w", ErrNoVariation)
	}
	return 1 - float64(c.N)*obs.Value()/exp.Value(), nil
}

// marginals returns row and column sums and the codes that occur in either.
func (c *Confusion) marginals() (row, col []int64, present []int) {
	row = make([]int64, c.Q)
	col = make([]int64, c.Q)
	for i := 0; i < c.Q; i++ {
		for j := 0; j < c.Q; j++ {
			x := c.Counts[i*c.Q+j]
			row[i] += x
			col[j] += x
		}
	}
	for k := 0; k < c.Q; k++ {
		if row[k]+col[k] > 0 {
			present = append(present, k)
		}
	}
	return row, col, present
}

func kappaWeight(w KappaWeighting, d int) float64 {
	if d < 0 {
		d = -d
	}
	switch w {
	case LinearWeighted:
		return float64(d)
	case QuadraticWeighted:
		return float64(d * d)
	}
	return 1
}

// PairConfusion cross-tabulates raters a and b (rater codes).
func PairConfusion(t *Table, a, b int) Confusion {
	q := len(t.values)
	c := Confusion{A: a, B: b, Q: q, Counts: make([]int64, q*q)}
	for u := range t.units {
		rs, vs := t.UnitRatings(u)
		va, vb := int32(-1), int32(-1)
		for i, r := range rs {
			switch int(r) {
			case a:
				va = vs[i]
			case b:
				vb = vs[i]
			}
		}
		if va >= 0 && vb >= 0 {
			c.Counts[int(va)*q+int(vb)]++
			c.N++
		}
	}
	return c
}

// CohenKappa returns Cohen's kappa between two raters given by code.
func CohenKappa(t *Table, a, b int, weighting KappaWeighting) (float64, error) {
	if a == b || a < 0 || b < 0 || a >= len(t.raters) || b >= len(t.raters) {
		return 0, fmt.Errorf("cohen kappa: %w: need two distinct raters", ErrTooFewRaters)
	}
	c := PairConfusion(t, a, b)
	return c.Kappa(weighting)
}

// AllPairConfusions cross-tabulates every pair of raters (a < b) in one pass
// over the table, in the order (0,1), (0,2), …, (1,2), …
func AllPairConfusions(t *Table) []Confusion {
	r, q := len(t.raters), len(t.values)
	pairs := make([]Confusion, 0, r*(r-1)/2)
	index := make(map[int]int, r*(r-1)/2)
	for a := 0; a < r; a++ {
		for b := a + 1; b < r; b++ {
			index[a*r+b] = len(pairs)
			pairs = append(pairs, Confusion{A: a, B: b, Q: q})
		}
	}
	dense := r <= 256
	var slot []int32
	if dense {
		slot = make([]int32, r*r)
		for k, i := range index {
			slot[k] = int32(i)
		}
	}
	for u := range t.units {
		rs, vs := t.UnitRatings(u)
		for i := range rs {
			for j := i + 1; j < len(rs); j++ {
				a, b, va, vb := int(rs[i]), int(rs[j]), vs[i], vs[j]
				if a > b {
					a, b, va, vb = b, a, vb, va
				}
				var p *Confusion
				if dense {
					p = &pairs[slot[a*r+b]]
				} else {
					p = &pairs[index[a*r+b]]
				}
				if p.Counts == nil {
					p.Counts = make([]int64, q*q)
				}
				p.Counts[int(va)*q+int(vb)]++
				p.N++
			}
		}
	}
	for i := range pairs {
		if pairs[i].Counts == nil {
			pairs[i].Counts = make([]int64, q*q)
		}
	}
	return pairs
}

// KappaCell is one cell of a rater × rater kappa matrix.
type KappaCell struct {
	N       int64   // units both raters rated
	Kappa   float64 // valid only when Defined
	Defined bool
}

// CohenMatrix returns the symmetric rater × rater matrix of Cohen's kappa
// with the number of units each cell used; the diagonal holds each rater's
// own unit count with kappa 1.
func CohenMatrix(t *Table, weighting KappaWeighting) [][]KappaCell {
	r := len(t.raters)
	m := make([][]KappaCell, r)
	for i := range m {
		m[i] = make([]KappaCell, r)
	}
	for _, rt := range t.rater {
		m[rt][rt].N++
	}
	for i := range m {
		m[i][i].Kappa, m[i][i].Defined = 1, m[i][i].N > 0
	}
	for _, c := range AllPairConfusions(t) {
		k, err := c.Kappa(weighting)
		cell := KappaCell{N: c.N, Kappa: k, Defined: err == nil}
		m[c.A][c.B], m[c.B][c.A] = cell, cell
	}
	return m
}
