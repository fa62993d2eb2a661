package agreement

import (
	"math/rand/v2"
	"testing"
)

// TestPCGStreamIsRandIntN draws from the written-out generator and from math/rand/v2 side by
// side, for bounds of every kind (powers of two, small, near 2⁶³ where rejections happen),
// and checks that both give the same numbers and end in the same state.
func TestPCGStreamIsRandIntN(t *testing.T) {
	if is32bit {
		t.Skip("the stream is not used on 32-bit platforms")
	}
	bounds := []int{1, 2, 3, 7, 64, 1000, 25_000, 250_000, 1 << 20, 1<<62 + 12345, 3 << 61}
	for seed := range uint64(4) {
		src := rand.NewPCG(seed, seed^0x5851f42d4c957f2d)
		ref := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
		p := streamOf(src)
		for i := range 20_000 {
			n := bounds[i%len(bounds)]
			if got, want := p.intN(uint64(n)), ref.IntN(n); int(got) != want {
				t.Fatalf("seed %d, draw %d of IntN(%d): stream %d, rand %d", seed, i, n, got, want)
			}
		}
		p.store(src)
		if got, want := rand.New(src).Uint64(), ref.Uint64(); got != want {
			t.Fatalf("seed %d: the stored state draws %d next, rand %d", seed, got, want)
		}
	}
}

// TestTallyDraws counts the patterns of IntN draws, for a bound that is a power of two and
// one that is not, in both widths of pattern.
func TestTallyDraws(t *testing.T) {
	for _, n := range []int{256, 1000} {
		pats := make([]int32, n)
		narrow := make([]uint8, n)
		for i := range pats {
			pats[i], narrow[i] = int32(i%7), uint8(i%7)
		}
		ref := rand.New(rand.NewPCG(8, 9))
		want := make([]int64, 7)
		for range n {
			want[pats[ref.IntN(n)]]++
		}
		for _, wide := range []bool{false, true} {
			p := streamOf(rand.NewPCG(8, 9))
			got := make([]int64, 7)
			if wide {
				tallyDraws(&p, pats, got)
			} else {
				tallyDraws(&p, narrow, got)
			}
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("n %d, wide %v: pattern %d drawn %d times, want %d", n, wide, k, got[k], want[k])
				}
			}
		}
	}
}
