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
	x, n, m, err := completeMatrix(t)
	if err != nil {
		return 0, fmt.Errorf("kendall w: %w", err)
	}
	rankSum := make([]float64, n)
	col := make([]float64, n)
	ranks := make([]float64, n)
	var ties float64
	for j := range m {
		for i := range n {
			col[i] = x[i*m+j]
		}
		ties += midRanks(col, ranks)
		for i, r := range ranks {
			rankSum[i] += r
		}
	}
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
