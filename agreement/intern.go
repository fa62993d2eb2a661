package agreement

import (
	"hash/maphash"
)

// unitTable interns unit names without a Go map and without one allocation
// per unit: names are appended to one byte arena and found again through an
// open-addressing hash table of codes. Rating files have hundreds of
// thousands of units, so this is the hottest part of reading them.
type unitTable struct {
	seed   maphash.Seed
	arena  []byte
	ends   []uint32 // ends[c] is the arena end of unit c (start is ends[c-1])
	hashes []uint32
	// slots hold hash<<32 | code+1 (0 is empty), so a probe touches one
	// cache line and compares names only on a full hash match.
	slots []uint64
	last  int32
}

func newUnitTable(sizeHint int) *unitTable {
	n := 1024
	for n < 2*sizeHint {
		n *= 2
	}
	return &unitTable{seed: maphash.MakeSeed(), slots: make([]uint64, n), last: -1,
		ends: make([]uint32, 0, sizeHint), hashes: make([]uint32, 0, sizeHint)}
}

func (ut *unitTable) name(c int32) string {
	start := uint32(0)
	if c > 0 {
		start = ut.ends[c-1]
	}
	return view(ut.arena[start:ut.ends[c]])
}

// code returns the code of unit s, adding it if new. Consecutive rows of one
// unit (the common layout) skip the hash table.
func (ut *unitTable) code(s string) int32 {
	if ut.last >= 0 && ut.name(ut.last) == s {
		return ut.last
	}
	h := uint32(maphash.String(ut.seed, s))
	mask := uint32(len(ut.slots) - 1)
	i := h & mask
	for e := ut.slots[i]; e != 0; e = ut.slots[i] {
		if uint32(e>>32) == h {
			if c := int32(uint32(e)) - 1; ut.name(c) == s {
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
	ut.slots[i] = uint64(h)<<32 | uint64(c+1)
	ut.last = c
	if 2*len(ut.hashes) > len(ut.slots) {
		ut.grow()
	}
	return c
}

func (ut *unitTable) grow() {
	ut.slots = make([]uint64, 2*len(ut.slots))
	mask := uint32(len(ut.slots) - 1)
	for c, h := range ut.hashes {
		i := h & mask
		for ut.slots[i] != 0 {
			i = (i + 1) & mask
		}
		ut.slots[i] = uint64(h)<<32 | uint64(c+1)
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
