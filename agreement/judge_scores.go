package agreement

import (
	"fmt"
	"math"
	"slices"
)

// ScoreAgreement compares a judge's numeric scores with reference scores.
type ScoreAgreement struct {
	N                     int
	Pearson, Spearman     Estimate
	KendallTauB           Estimate
	MSE, MAE              float64
	ShareOver, ShareUnder float64 // judge above / below the reference
}

// CompareScores computes correlation and error metrics of pred against ref.
func CompareScores(ref, pred []float64) (ScoreAgreement, error) {
	if len(ref) != len(pred) {
		return ScoreAgreement{}, fmt.Errorf("%w: %d references, %d predictions", ErrMismatch, len(ref), len(pred))
	}
	n := len(ref)
	if n == 0 {
		return ScoreAgreement{}, ErrNoData
	}
	s := ScoreAgreement{N: n}
	var se, ae accumulator
	over, under := 0, 0
	for i := range ref {
		d := pred[i] - ref[i]
		se.Add(d * d)
		ae.Add(abs(d))
		if d > 0 {
			over++
		} else if d < 0 {
			under++
		}
	}
	s.MSE, s.MAE = se.Value()/float64(n), ae.Value()/float64(n)
	s.ShareOver, s.ShareUnder = float64(over)/float64(n), float64(under)/float64(n)
	s.Pearson = estimate(Pearson(ref, pred))
	s.Spearman = estimate(Spearman(ref, pred))
	s.KendallTauB = estimate(KendallTauB(ref, pred))
	return s, nil
}

func estimate(v float64, err error) Estimate {
	if err != nil {
		return Estimate{}
	}
	return Estimate{v, true}
}

// Pearson returns the Pearson correlation of x and y.
func Pearson(x, y []float64) (float64, error) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, fmt.Errorf("pearson: %w", ErrNoData)
	}
	mx, my := meanFloats(x), meanFloats(y)
	var sxy, sxx, syy accumulator
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy.Add(dx * dy)
		sxx.Add(dx * dx)
		syy.Add(dy * dy)
	}
	den := math.Sqrt(sxx.Value()) * math.Sqrt(syy.Value())
	if !(den > 0) {
		return 0, fmt.Errorf("pearson: %w", ErrNoVariation)
	}
	r := sxy.Value() / den
	return math.Max(-1, math.Min(1, r)), nil
}

// Spearman returns Spearman's rho: the Pearson correlation of mid-ranks.
func Spearman(x, y []float64) (float64, error) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, fmt.Errorf("spearman: %w", ErrNoData)
	}
	rx, ry := make([]float64, len(x)), make([]float64, len(y))
	midRanks(x, rx)
	midRanks(y, ry)
	r, err := Pearson(rx, ry)
	if err != nil {
		return 0, fmt.Errorf("spearman: %w", ErrNoVariation)
	}
	return r, nil
}

// KendallTauB returns Kendall's tau-b (ties in both variables adjusted), in
// O(n log n) with Knight's algorithm, as scipy.stats.kendalltau.
func KendallTauB(x, y []float64) (float64, error) {
	n := len(x)
	if n != len(y) || n < 2 {
		return 0, fmt.Errorf("kendall tau-b: %w", ErrNoData)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmpFloat(x[a], x[b]); c != 0 {
			return c
		}
		return cmpFloat(y[a], y[b])
	})
	tiesX, tiesXY := tiedPairs(idx, x, y)
	ys := make([]float64, n)
	for i, k := range idx {
		ys[i] = y[k]
	}
	swaps := mergeCount(ys, make([]float64, n))
	tiesY := tiedPairsSorted(ys)
	n0 := float64(n) * float64(n-1) / 2
	den := math.Sqrt(n0-tiesX) * math.Sqrt(n0-tiesY)
	if !(den > 0) {
		return 0, fmt.Errorf("kendall tau-b: %w", ErrNoVariation)
	}
	con := n0 - tiesX - tiesY + tiesXY - 2*swaps
	return con / den, nil
}

// tiedPairs counts pairs tied in x, and tied in both x and y, over idx sorted by (x, y).
func tiedPairs(idx []int, x, y []float64) (tx, txy float64) {
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		tx += float64(j-i) * float64(j-i-1) / 2
		for k := i; k < j; {
			l := k + 1
			for l < j && y[idx[l]] == y[idx[k]] {
				l++
			}
			txy += float64(l-k) * float64(l-k-1) / 2
			k = l
		}
		i = j
	}
	return tx, txy
}

func tiedPairsSorted(s []float64) float64 {
	var t float64
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		t += float64(j-i) * float64(j-i-1) / 2
		i = j
	}
	return t
}

// mergeCount sorts s (using buf) and returns the number of inversions.
func mergeCount(s, buf []float64) float64 {
	n := len(s)
	if n < 2 {
		return 0
	}
	m := n / 2
	inv := mergeCount(s[:m], buf[:m]) + mergeCount(s[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < n {
		if s[j] < s[i] {
			buf[k] = s[j]
			inv += float64(m - i)
			j++
		} else {
			buf[k] = s[i]
			i++
		}
		k++
	}
	k += copy(buf[k:], s[i:m])
	copy(buf[k:], s[j:n])
	copy(s, buf[:n])
	return inv
}
