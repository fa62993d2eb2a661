package agreement

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnitTableDedup checks dedup against a map on tables with one and with
// many hash partitions, with and without repeated names.
func TestUnitTableDedup(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, tc := range []struct {
		runs, names int
	}{
		{1, 1}, {10, 10}, {10, 3}, {5000, 5000}, {20000, 20000}, {20000, 9000}, {30000, 2},
	} {
		ut := newUnitTable(0)
		var runs []string
		for i := range tc.runs {
			name := fmt.Sprint("unit-", i)
			if tc.names < tc.runs {
				name = fmt.Sprint("unit-", rng.IntN(tc.names))
			}
			if len(runs) > 0 && runs[len(runs)-1] == name {
				continue // consecutive rows of a name are one run
			}
			ut.newRun(name)
			runs = append(runs, name)
		}
		names, remap := ut.dedup()
		first := map[string]int32{}
		var want []string
		wantRemap := make([]int32, len(runs))
		for c, name := range runs {
			f, ok := first[name]
			if !ok {
				f = int32(len(want))
				first[name] = f
				want = append(want, name)
			}
			wantRemap[c] = f
		}
		if !slices.Equal(names, want) {
			t.Errorf("%d runs of %d names: %d names, want %d", tc.runs, tc.names, len(names), len(want))
		}
		if len(want) == len(runs) {
			if remap != nil {
				t.Errorf("%d distinct runs: remap %v, want nil", len(runs), remap[:min(len(remap), 5)])
			}
		} else if !slices.Equal(remap, wantRemap) {
			t.Errorf("%d runs of %d names: remap differs", tc.runs, tc.names)
		}
	}
}
