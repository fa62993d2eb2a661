package agreement

import "fmt"

// ICCResult holds the six Shrout & Fleiss (1979) intraclass correlations and
// the two-way ANOVA mean squares they are built from.
type ICCResult struct {
	ICC1, ICC2, ICC3    float64 // single rater: one-way random, two-way random, two-way mixed
	ICC1k, ICC2k, ICC3k float64 // mean of k raters
	N, K                int     // targets (complete units) and judges (raters)
	Dropped             int     // units left out because a rater did not rate them
	BMS, WMS, JMS, EMS  float64 // between-targets, within-target, judges, residual
}

// ICC computes the six Shrout–Fleiss intraclass correlations over the units
// that every rater rated (incomplete units are dropped, as psych::ICC does
// with its default na.omit). Values must be numeric.
func ICC(t *Table) (ICCResult, error) {
	x, n, k, err := completeMatrix(t)
	if err != nil {
		return ICCResult{}, err
	}
	res := ICCResult{N: n, K: k, Dropped: len(t.units) - n}
	anovaMeanSquares(&res, x, n, k)
	if !(res.BMS > 0) || res.BMS+float64(k-1)*res.WMS == 0 {
		return res, fmt.Errorf("icc: %w: no variance between targets", ErrNoVariation)
	}
	b, w, j, e, nf, kf := res.BMS, res.WMS, res.JMS, res.EMS, float64(n), float64(k)
	res.ICC1 = (b - w) / (b + (kf-1)*w)
	res.ICC2 = (b - e) / (b + (kf-1)*e + kf*(j-e)/nf)
	res.ICC3 = (b - e) / (b + (kf-1)*e)
	res.ICC1k = (b - w) / b
	res.ICC2k = (b - e) / (b + (j-e)/nf)
	res.ICC3k = (b - e) / b
	return res, nil
}

// completeMatrix returns the n×k row-major matrix of numeric ratings of the
// units rated by all k raters, columns in rater-code order.
func completeMatrix(t *Table) ([]float64, int, int, error) {
	if t.numbers == nil {
		return nil, 0, 0, fmt.Errorf("icc: %w", ErrNotNumeric)
	}
	k := len(t.raters)
	if k < 2 {
		return nil, 0, 0, fmt.Errorf("icc: %w", ErrTooFewRaters)
	}
	x := make([]float64, 0, len(t.rater))
	n := 0
	for u := range t.units {
		rs, vs := t.UnitRatings(u)
		if len(rs) != k {
			continue
		}
		row := x[len(x) : len(x)+k]
		x = x[:len(x)+k]
		for i, r := range rs {
			row[r] = t.numbers[vs[i]]
		}
		n++
	}
	if n < 2 {
		return nil, 0, 0, fmt.Errorf("icc: %w: %d complete units", ErrIncomplete, n)
	}
	return x, n, k, nil
}

// anovaMeanSquares fills the two-way ANOVA mean squares of an n×k matrix.
func anovaMeanSquares(res *ICCResult, x []float64, n, k int) {
	rowMean := make([]float64, n)
	colSum := make([]accumulator, k)
	var all accumulator
	for i := range n {
		var r accumulator
		for j, v := range x[i*k : i*k+k] {
			r.Add(v)
			colSum[j].Add(v)
		}
		all.Add(r.Value())
		rowMean[i] = r.Value() / float64(k)
	}
	gm := all.Value() / float64(n*k)
	colMean := make([]float64, k)
	for j := range colMean {
		colMean[j] = colSum[j].Value() / float64(n)
	}
	var ssr, ssc, ssw, sse accumulator
	for i := range n {
		d := rowMean[i] - gm
		ssr.Add(float64(k) * d * d)
		for j, v := range x[i*k : i*k+k] {
			w := v - rowMean[i]
			e := w - colMean[j] + gm
			ssw.Add(w * w)
			sse.Add(e * e)
		}
	}
	for j := range colMean {
		d := colMean[j] - gm
		ssc.Add(float64(n) * d * d)
	}
	res.BMS = ssr.Value() / float64(n-1)
	res.WMS = ssw.Value() / float64(n*(k-1))
	res.JMS = ssc.Value() / float64(k-1)
	res.EMS = sse.Value() / float64((n-1)*(k-1))
}
