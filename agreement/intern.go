package agreement

import (
	"hash/maphash"
)

// unitTable interns unit names without a Go map and without one allocation
// per unit: names are appended to one byte arena. Rating files list a
// unit's rows together, so while rows are read a unit only gets a new
// provisional code when the name differs from the previous row's; dedup
// then merges provisional codes of the same name in one tight pass over an
// open-addressing hash table.
//
// note: deferring the hash probes to one loop lets the processor overlap
// their cache misses; probing while parsing serialized them and cost about
// a third of the parse time on a million rows.
type unitTable struct {
	arena []byte
	ends  []uint32 // ends[c] is the arena end of name c (start is ends[c-1])
	last  int32
}

func newUnitTable(sizeHint int) *unitTable {
	return &unitTable{last: -1, ends: make([]uint32, 0, sizeHint)}
}

func (ut *unitTable) name(c int32) string {
	start := uint32(0)
	if c > 0 {
		start = ut.ends[c-1]
	}
	return view(ut.arena[start:ut.ends[c]])
}

// code returns the provisional code of unit s: the previous row's code when
// the name is the same, else a new code.
func (ut *unitTable) code(s string) int32 {
	if ut.last >= 0 && ut.name(ut.last) == s {
		return ut.last
	}
	ut.arena = append(ut.arena, s...)
	ut.ends = append(ut.ends, uint32(len(ut.arena)))
	ut.last = int32(len(ut.ends) - 1)
	return ut.last
}

// dedup merges provisional codes with equal names. It returns the unit
// names and, when some name repeated, the provisional → final code map
// (nil when every provisional code is already final).
func (ut *unitTable) dedup() ([]string, []int32) {
	n := len(ut.ends)
	seed := maphash.MakeSeed()
	hashes := make([]uint32, n)
	for c := range hashes {
		hashes[c] = uint32(maphash.String(seed, ut.name(int32(c))))
	}
	size := 1024
	for size < 2*n {
		size *= 2
	}
	slots := make([]int32, size) // final code + 1
	mask := uint32(size - 1)
	var remap []int32
	var finals []int32 // final code → provisional code of its first occurrence
	for c, h := range hashes {
		i := h & mask
		for ; slots[i] != 0; i = (i + 1) & mask {
			f := finals[slots[i]-1]
			if hashes[f] == h && ut.name(f) == ut.name(int32(c)) {
				break
			}
		}
		if slots[i] == 0 {
			finals = append(finals, int32(c))
			slots[i] = int32(len(finals))
		} else if remap == nil {
			remap = make([]int32, n)
			for k := range c {
				remap[k] = int32(k) // codes before the first repeat were final
			}
		}
		if remap != nil {
			remap[c] = slots[i] - 1
		}
	}
	return ut.finalNames(finals), remap
}

// finalNames returns the names of the final codes as substrings of one string.
func (ut *unitTable) finalNames(finals []int32) []string {
	all := string(ut.arena)
	out := make([]string, len(finals))
	for f, c := range finals {
		start := uint32(0)
		if c > 0 {
			start = ut.ends[c-1]
		}
		out[f] = all[start:ut.ends[c]]
	}
	return out
}

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
