package agreement

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// pcgStream is math/rand/v2's PCG generator and its Rand.IntN written out, so that a loop of
// draws is compiled inline instead of calling through the rand.Source interface per draw. It
// gives the same numbers as the generator it copies (TestPCGStreamIsRandIntN).
type pcgStream struct{ hi, lo uint64 }

// is32bit: Rand.IntN draws differently on 32-bit platforms; there the stream is not used.
const is32bit = ^uint(0)>>32 == 0

// streamOf reads a generator's state.
func streamOf(src *rand.PCG) pcgStream {
	b, _ := src.MarshalBinary() // "pcg:", hi, lo (big-endian)
	return pcgStream{hi: binary.BigEndian.Uint64(b[4:]), lo: binary.BigEndian.Uint64(b[12:])}
}

// store writes the stream's state back into the generator it was read from.
func (p pcgStream) store(src *rand.PCG) {
	b := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64([]byte("pcg:"), p.hi), p.lo)
	if err := src.UnmarshalBinary(b); err != nil {
		panic(err) // the encoding is the one MarshalBinary gives
	}
}

// uint64 is PCG.Uint64: a 128-bit LCG step and the DXSM output.
func (p *pcgStream) uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// intN is Rand.IntN(n) on a 64-bit platform: a mask for a power of two, otherwise Lemire's
// multiply with rejection.
func (p *pcgStream) intN(n uint64) uint64 {
	if n&(n-1) == 0 {
		return p.uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(p.uint64(), n)
	if lo < n {
		hi = p.reject(n, hi, lo)
	}
	return hi
}

// reject finishes intN when the first multiply fell short of n: rare for n much below 2⁶⁴,
// so a loop of draws inlines the multiply and calls this out of line.
func (p *pcgStream) reject(n, hi, lo uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(p.uint64(), n)
	}
	return hi
}

// tallyDraws draws len(pats) indexes of pats, as that many p.intN(len(pats)), and counts the
// patterns drawn in hist.
func tallyDraws[T uint8 | int32](p *pcgStream, pats []T, hist []int64) {
	n := uint64(len(pats))
	if n&(n-1) == 0 {
		for range pats {
			hist[pats[p.uint64()&(n-1)]]++
		}
		return
	}
	for range pats {
		hi, lo := bits.Mul64(p.uint64(), n)
		if lo < n {
			hi = p.reject(n, hi, lo)
		}
		hist[pats[hi]]++
	}
}
