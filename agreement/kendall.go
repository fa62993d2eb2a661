package agreement

import (
	"fmt"
	"slices"
)

// KendallW returns Kendall's coefficient of concordance W with the
// correction for ties (as irr::kendall with correct=TRUE): the units rated by
// every rater are the objects, each rater's scores are ranked (mid-ranks for
// ties), and W = 12 S / (m²(n³−n) − m Σ T), T = Σ (t³ − t) over tie groups.
func KendallW(t *Table) (float64, error) {
	m := len(t.raters)
	if m < 2 {
		return 0, fmt.Errorf("kendall w: %w", ErrTooFewRaters)
	}
	complete := completeUnits(t)
	n := len(complete)
	if n < 2 {
		return 0, fmt.Errorf("kendall w: %w: %d complete units", ErrIncomplete, n)
	}
	// Value codes are sorted, so each rater's mid-ranks follow from the
	// counts of each code: no sorting needed.
	rankSum := make([]float64, n)
	counts := make([]int, len(t.values))
	rankOf := make([]float64, len(t.values))
	var ties float64
	for r := range int32(m) {
		clear(counts)
		for _, u := range complete {
			counts[ratingOf(t, u, r)]++
		}
		below := 0
		for v, c := range counts {
			rankOf[v] = float64(below) + float64(c+1)/2
			below += c
			ties += float64(c)*float64(c)*float64(c) - float64(c)
		}
		for i, u := range complete {
			rankSum[i] += rankOf[ratingOf(t, u, r)]
		}
	}
	return kendallFromRankSums(rankSum, m, ties)
}

func kendallFromRankSums(rankSum []float64, m int, ties float64) (float64, error) {
	n := len(rankSum)
	mean := float64(m) * float64(n+1) / 2
	var s accumulator
	for _, r := range rankSum {
		d := r - mean
		s.Add(d * d)
	}
	nf, mf := float64(n), float64(m)
	den := mf*mf*(nf*nf*nf-nf) - mf*ties
	if !(den > 0) {
		return 0, fmt.Errorf("kendall w: %w", ErrNoVariation)
	}
	return 12 * s.Value() / den, nil
}

// completeUnits returns the units rated by every rater.
func completeUnits(t *Table) []int32 {
	var out []int32
	for u := range t.units {
		if t.unitSize(u) == len(t.raters) {
			out = append(out, int32(u))
		}
	}
	return out
}

// ratingOf returns rater r's value code on unit u (which r rated).
func ratingOf(t *Table, u, r int32) int32 {
	rs, vs := t.UnitRatings(int(u))
	for i, x := range rs {
		if x == r {
			return vs[i]
		}
	}
	return -1
}

// midRanks writes 1-based average ranks of x into ranks and returns the tie
// term Σ (t³ − t) over groups of equal values.
func midRanks(x, ranks []float64) float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	var ties float64
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1..j
		for _, p := range idx[i:j] {
			ranks[p] = r
		}
		tf := float64(j - i)
		ties += tf*tf*tf - tf
		i = j
	}
	return ties
}
