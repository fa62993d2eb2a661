package agreement

import (
	"hash/maphash"
	"slices"
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

// newUnitTable returns a table for about sizeHint units.
func newUnitTable(sizeHint int) *unitTable {
	return &unitTable{last: -1, ends: make([]uint32, 0, sizeHint), arena: make([]byte, 0, 8*sizeHint)}
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
	return ut.newRun(s)
}

// newRun gives unit s a new provisional code; the caller knows that the
// previous row's unit had another name.
func (ut *unitTable) newRun(s string) int32 {
	ut.arena = append(ut.arena, s...)
	ut.ends = append(ut.ends, uint32(len(ut.arena)))
	ut.last = int32(len(ut.ends) - 1)
	return ut.last
}

// dedup merges provisional codes with equal names. It returns the unit
// names and, when some name repeated, the provisional → final code map
// (nil when every provisional code is already final).
//
// note: one hash table over every name would be several megabytes, and each
// probe a cache miss. The codes are first partitioned by the top bits of
// their hash (sequential writes to a few streams), then each partition is
// deduplicated with a table small enough to stay in the L1 cache.
func (ut *unitTable) dedup() ([]string, []int32) {
	repeats := ut.repeats()
	if len(repeats) == 0 {
		return ut.finalNames(nil), nil
	}
	return ut.merge(repeats)
}

// repeats returns, for every provisional code whose name an earlier code
// has, the pair (code, first code of the name).
func (ut *unitTable) repeats() [][2]int32 {
	grouped, start := ut.partition()
	largest := 0
	for p := range len(start) - 1 {
		largest = max(largest, start[p+1]-start[p])
	}
	size := 16
	for size < 2*largest {
		size *= 2
	}
	slots := make([]uint64, size) // hash<<32 | code+1
	mask := uint32(size - 1)
	var repeats [][2]int32
	for p := range len(start) - 1 {
		clear(slots)
		for _, x := range grouped[start[p]:start[p+1]] {
			h, c := uint32(x>>32), int32(uint32(x))
			i := h & mask
			for ; slots[i] != 0; i = (i + 1) & mask {
				first := int32(uint32(slots[i])) - 1
				if uint32(slots[i]>>32) == h && ut.name(first) == ut.name(c) {
					repeats = append(repeats, [2]int32{c, first})
					break
				}
			}
			if slots[i] == 0 {
				slots[i] = uint64(h)<<32 | uint64(c+1)
			}
		}
	}
	return repeats
}

// partition returns hash<<32|code of every code, grouped by the top bits of
// the hash into partitions of about 2048 codes at most; partition p is
// grouped[start[p]:start[p+1]], in code order.
func (ut *unitTable) partition() (grouped []uint64, start []int) {
	n := len(ut.ends)
	bits := 0
	for n>>bits > 2048 && bits < 16 {
		bits++
	}
	seed := maphash.MakeSeed()
	start = make([]int, 1<<bits+1)
	hashes := make([]uint32, n)
	for c := range hashes {
		h := uint32(maphash.String(seed, ut.name(int32(c))))
		hashes[c] = h
		start[h>>(32-bits)+1]++
	}
	for p := 1; p < len(start); p++ {
		start[p] += start[p-1]
	}
	next := slices.Clone(start)
	grouped = make([]uint64, n)
	for c, h := range hashes {
		p := h >> (32 - bits)
		grouped[next[p]] = uint64(h)<<32 | uint64(c)
		next[p]++
	}
	return grouped, start
}

// merge assigns final codes in order of first appearance when the
// repeats, (later code, first code) pairs, name a unit again.
func (ut *unitTable) merge(repeats [][2]int32) ([]string, []int32) {
	remap := make([]int32, len(ut.ends))
	for c := range remap {
		remap[c] = -1
	}
	for _, r := range repeats {
		remap[r[0]] = r[1] // provisional for now: the first code of the name
	}
	var finals []int32 // final code → provisional code of its first occurrence
	for c, first := range remap {
		if first < 0 {
			remap[c] = int32(len(finals))
			finals = append(finals, int32(c))
		} else {
			remap[c] = remap[first] // first < c: already final
		}
	}
	return ut.finalNames(finals), remap
}

// finalNames returns the names of the final codes (every provisional code
// when finals is nil) as substrings of the arena.
//
// note: the names share the arena's memory rather than a copy of it: the
// arena only ever grows by append, which never writes over bytes already
// there.
func (ut *unitTable) finalNames(finals []int32) []string {
	all := view(ut.arena)
	n := len(ut.ends)
	if finals != nil {
		n = len(finals)
	}
	out := make([]string, n)
	for f := range out {
		c := int32(f)
		if finals != nil {
			c = finals[f]
		}
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

// find returns code+1 for s, or 0; it is lookup for a byte slice, small
// enough to be inlined.
func (sc *shortCodes) find(s []byte) int32 {
	if len(s) == 1 {
		return sc.one[s[0]]
	}
	if len(s) == 2 && sc.two != nil {
		return sc.two[int(s[0])<<8|int(s[1])]
	}
	return 0
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
