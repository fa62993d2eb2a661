package agreement

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestMemoPassesAgree checks that the pass for few categories fills the
// memo exactly as the general pass does, on random tables with missing
// ratings, single-rating units and up to fewCategories categories.
func TestMemoPassesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, q := range []int{1, 2, 5, fewCategories} {
		for trial := range 20 {
			rows := make([][]string, 1+rng.IntN(60))
			raters := 1 + rng.IntN(7)
			for u := range rows {
				rows[u] = make([]string, raters)
				for r := range rows[u] {
					if rng.IntN(4) > 0 || r == 0 {
						rows[u][r] = fmt.Sprint(rng.IntN(q))
					}
				}
			}
			tab := matrixTable(t, Nominal, rows)
			few, distinct := &memo{}, &memo{}
			few.pooled, distinct.pooled = make([]int64, tab.NumValues()), make([]int64, tab.NumValues())
			few.countFew(tab, tab.NumValues())
			distinct.countDistinct(tab, tab.NumValues())
			if !reflect.DeepEqual(few.agreeBySize, distinct.agreeBySize) || !reflect.DeepEqual(few.unitsBySize, distinct.unitsBySize) ||
				!reflect.DeepEqual(few.catBySize, distinct.catBySize) || !reflect.DeepEqual(few.coin, distinct.coin) {
				t.Fatalf("q=%d trial %d: the passes differ\nfew      %v %v %v\ndistinct %v %v %v", q, trial,
					few.agreeBySize, few.catBySize, few.coin, distinct.agreeBySize, distinct.catBySize, distinct.coin)
			}
		}
	}
}
