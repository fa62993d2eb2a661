package agreement

import (
	"hash/maphash"
)

// unitTable interns unit names without a Go map and without one allocation
// per unit: names are appended to one byte arena and found again through an
// open-addressing hash table. Rating files have hundreds of thousands of
// units, so this is the hottest part of reading them.
//
// note: a probe first reads a one-byte fingerprint array (small enough to
// stay in cache); the code array and the arena are touched only on a
// fingerprint match, so adding a new unit costs no cache miss.
type unitTable struct {
	seed   maphash.Seed
	arena  []byte
	ends   []uint32 // ends[c] is the arena end of unit c (start is ends[c-1])
	hashes []uint32
	fps    []uint8 // 0: empty slot; else 1 + 7 bits of the hash
	slots  []int32 // unit code of an occupied slot
	last   int32
}

func newUnitTable(sizeHint int) *unitTable {
	n := 1024
	for n < 2*sizeHint {
		n *= 2
	}
	return &unitTable{seed: maphash.MakeSeed(), fps: make([]uint8, n), slots: make([]int32, n), last: -1,
		ends: make([]uint32, 0, sizeHint), hashes: make([]uint32, 0, sizeHint)}
}

func (ut *unitTable) name(c int32) string {
	start := uint32(0)
	if c > 0 {
		start = ut.ends[c-1]
	}
	return view(ut.arena[start:ut.ends[c]])
}

func fingerprint(h uint32) uint8 { return 1 + uint8(h>>25) }

// code returns the code of unit s, adding it if new. Consecutive rows of one
// unit (the common layout) skip the hash table.
func (ut *unitTable) code(s string) int32 {
	if ut.last >= 0 && ut.name(ut.last) == s {
		return ut.last
	}
	h := uint32(maphash.String(ut.seed, s))
	fp := fingerprint(h)
	mask := uint32(len(ut.fps) - 1)
	i := h & mask
	for f := ut.fps[i]; f != 0; f = ut.fps[i] {
		if f == fp {
			if c := ut.slots[i]; ut.hashes[c] == h && ut.name(c) == s {
				ut.last = c
				return c
			}
		}
		i = (i + 1) & mask
	}
	c := int32(len(ut.hashes))
	ut.arena = append(ut.arena, s...)
	ut.ends = append(ut.ends, uint32(len(ut.arena)))
	ut.hashes = append(ut.hashes, h)
	ut.fps[i], ut.slots[i] = fp, c
	ut.last = c
	if 2*len(ut.hashes) > len(ut.fps) {
		ut.grow()
	}
	return c
}

func (ut *unitTable) grow() {
	n := 2 * len(ut.fps)
	ut.fps, ut.slots = make([]uint8, n), make([]int32, n)
	mask := uint32(n - 1)
	for c, h := range ut.hashes {
		i := h & mask
		for ut.fps[i] != 0 {
			i = (i + 1) & mask
		}
		ut.fps[i], ut.slots[i] = fingerprint(h), int32(c)
	}
}

// names returns the unit names as substrings of one string.
func (ut *unitTable) names() []string {
	all := string(ut.arena)
	out := make([]string, len(ut.ends))
	start := uint32(0)
	for c, end := range ut.ends {
		out[c] = all[start:end]
		start = end
	}
	return out
}

// len returns the number of units.
func (ut *unitTable) len() int { return len(ut.ends) }

// shortCodes finds one- and two-byte names (typical values such as "1".."5"
// and short rater ids) by direct indexing.
type shortCodes struct {
	one [256]int32
	two []int32 // 65536 entries, allocated on first use
}

func (sc *shortCodes) slot(s string) *int32 {
	switch len(s) {
	case 1:
		return &sc.one[s[0]]
	case 2:
		if sc.two == nil {
			sc.two = make([]int32, 1<<16)
		}
		return &sc.two[int(s[0])<<8|int(s[1])]
	}
	return nil
}

// lookup returns code+1 for s, or 0.
func (sc *shortCodes) lookup(s string) int32 {
	if p := sc.slot(s); p != nil {
		return *p
	}
	return 0
}

func (sc *shortCodes) store(s string, c int32) {
	if p := sc.slot(s); p != nil {
		*p = c + 1
	}
}
