package agreement

import (
	"fmt"
	"math"
	"testing"
)

// matrixTable builds a table from a units × raters matrix; "" is missing.
func matrixTable(t testing.TB, level Level, rows [][]string) *Table {
	t.Helper()
	b := NewBuilder(level, 0)
	for u, row := range rows {
		for r, v := range row {
			if v != "" {
				b.Add(fmt.Sprint("u", u), fmt.Sprint("r", r), v)
			}
		}
	}
	tab, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// countsTable builds a table from a units × categories count matrix (Fleiss'
// layout), inventing one rater per rating position.
func countsTable(t testing.TB, counts [][]int) *Table {
	t.Helper()
	b := NewBuilder(Nominal, 0)
	for u, row := range counts {
		r := 0
		for k, c := range row {
			for range c {
				b.Add(fmt.Sprint("u", u), fmt.Sprint("r", r), fmt.Sprint("c", k))
				r++
			}
		}
	}
	tab, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// near reports whether a and b agree to tol (absolute) or relative 1e-12.
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// roundTo rounds x to d decimals, as published tables print.
func roundTo(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
