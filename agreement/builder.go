package agreement

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// smallSet is the size up to which raters and values are interned by a
// linear scan instead of a map lookup; rating files have few of either.
const smallSet = 8

// interner maps strings to dense int32 codes in order of first appearance.
type interner struct {
	idx   map[string]int32
	names []string
	short shortCodes
}

// code returns the code of s, adding it if new. s may alias a reused buffer:
// it is copied before it is stored.
func (in *interner) code(s string) int32 {
	if len(s) <= 2 {
		if c := in.short.lookup(s); c > 0 {
			return c - 1
		}
		return in.add(s)
	}
	if len(in.names) <= smallSet {
		for i, n := range in.names {
			if n == s {
				return int32(i)
			}
		}
		if in.idx == nil {
			return in.add(s)
		}
	}
	if c, ok := in.idx[s]; ok {
		return c
	}
	return in.add(s)
}

func (in *interner) add(s string) int32 {
	c := int32(len(in.names))
	s = strings.Clone(s)
	in.names = append(in.names, s)
	in.short.store(s, c)
	if len(in.names) > smallSet {
		if in.idx == nil {
			in.idx = make(map[string]int32, 2*len(in.names))
			for i, n := range in.names {
				in.idx[n] = int32(i)
			}
		}
		in.idx[s] = c
	}
	return c
}

// UnitGroups assigns each unit code a group code (a cluster or a stratum), an index into
// Names; Of[u] is -1 (any negative code counts as -1) when unit u has no group.
type UnitGroups struct {
	Names []string
	Of    []int32
}

// groupColumn collects a UnitGroups while rows are added.
type groupColumn struct {
	in interner
	of []int32
}

func (g *groupColumn) set(unit int32, key string) {
	for int32(len(g.of)) <= unit {
		g.of = append(g.of, -1)
	}
	if g.of[unit] < 0 {
		g.of[unit] = g.in.code(key)
	}
}

// result returns the groups by final unit code; remap maps the provisional
// unit codes used while reading to final codes (nil: identity). The first
// row of a unit decides its group.
func (g *groupColumn) result(nUnits int, remap []int32) UnitGroups {
	of := make([]int32, nUnits)
	for i := range of {
		of[i] = -1
	}
	for p, grp := range g.of {
		f := int32(p)
		if remap != nil {
			f = remap[p]
		}
		if of[f] < 0 {
			of[f] = grp
		}
	}
	return UnitGroups{Names: g.in.names, Of: of}
}

// Builder accumulates (unit, rater, value) rows and builds a Table.
//
// A unit gets a provisional code per run of consecutive rows with its name
// (see unitTable); runStart[c] is the first row of run c, so the rows need
// no unit column and, in the usual layout where every unit's rows are
// together, they are already grouped by unit.
type Builder struct {
	unitRemap          []int32 // provisional → final unit codes after Build
	level              Level
	units              *unitTable
	raters, vals       interner
	runStart           []int32
	rowRater, rowValue []int32
}

// NewBuilder returns a Builder for a table at the given level; sizeHint is
// the expected number of rows (0 if unknown).
func NewBuilder(level Level, sizeHint int) *Builder {
	// note: room for a unit per two rows, so that the unit columns rarely
	// grow (a copy); a large fresh allocation is only backed by memory where
	// it is written.
	units := sizeHint/2 + 16
	b := &Builder{level: level, units: newUnitTable(units)}
	b.runStart = make([]int32, 0, units+1)
	b.rowRater = make([]int32, 0, sizeHint)
	b.rowValue = make([]int32, 0, sizeHint)
	return b
}

// Add adds one rating. A missing rating is simply not added.
func (b *Builder) Add(unit, rater, value string) {
	b.add(b.unitCode(unit), rater, value)
}

// reserve makes room for n more rows. The columns at least double when they
// grow, so that reading a stream of unknown size copies a row about once.
func (b *Builder) reserve(n int) {
	if need := len(b.rowRater) + n; need > cap(b.rowRater) {
		size := max(need, 2*cap(b.rowRater))
		b.rowRater = append(make([]int32, 0, size), b.rowRater...)
		b.rowValue = append(make([]int32, 0, size), b.rowValue...)
	}
}

// unitCode interns a unit.
func (b *Builder) unitCode(unit string) int32 { return b.units.code(unit) }

// add appends a row of provisional unit code unit, the code unitCode
// returned for this row.
func (b *Builder) add(unit int32, rater, value string) {
	if int(unit) == len(b.runStart) {
		b.runStart = append(b.runStart, int32(len(b.rowRater)))
	}
	b.rowRater = append(b.rowRater, b.raters.code(rater))
	b.rowValue = append(b.rowValue, b.vals.code(value))
}

// Build sorts values, groups the ratings by unit and returns the Table. It
// fails on an empty table, a duplicate (unit, rater) pair, or non-numeric
// values at the interval or ratio level.
func (b *Builder) Build() (*Table, error) {
	if len(b.rowRater) == 0 {
		return nil, ErrNoData
	}
	values, numbers, remap, err := orderValues(b.vals.names, b.level)
	if err != nil {
		return nil, err
	}
	raters, raterRemap := orderRaters(b.raters.names)
	recode(b.rowRater, raterRemap)
	recode(b.rowValue, remap)
	units, unitRemap := b.units.dedup()
	b.unitRemap = unitRemap
	t := &Table{level: b.level, units: units, raters: raters, values: values, numbers: numbers, memo: &memo{}}
	if unitRemap == nil {
		// every run is a unit of its own, in order: the rows are grouped
		t.unitStart = append(b.runStart, int32(len(b.rowRater)))
		t.rater, t.value = b.rowRater, b.rowValue
	} else {
		t.groupByUnit(b.runUnits(unitRemap), b.rowRater, b.rowValue)
	}
	if err := t.checkDuplicates(); err != nil {
		return nil, err
	}
	return t, nil
}

// recode replaces every code c in xs by remap[c], unless remap is the identity.
func recode(xs, remap []int32) {
	identity := true
	for i, c := range remap {
		identity = identity && c == int32(i)
	}
	if identity {
		return
	}
	for i, c := range xs {
		xs[i] = remap[c]
	}
}

// runUnits returns the final unit code of every row.
func (b *Builder) runUnits(unitRemap []int32) []int32 {
	unit := make([]int32, len(b.rowRater))
	for c, start := range b.runStart {
		end := len(unit)
		if c+1 < len(b.runStart) {
			end = int(b.runStart[c+1])
		}
		for i := int(start); i < end; i++ {
			unit[i] = unitRemap[c]
		}
	}
	return unit
}

// orderRaters sorts rater names so that output does not depend on row order.
func orderRaters(names []string) ([]string, []int32) {
	order := make([]int32, len(names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	sorted := make([]string, len(names))
	remap := make([]int32, len(names))
	for newCode, old := range order {
		sorted[newCode] = names[old]
		remap[old] = int32(newCode)
	}
	return sorted, remap
}

// orderValues sorts value labels numerically when all are numbers (else by
// label) and returns the sorted labels, their numbers, and old→new codes.
func orderValues(labels []string, level Level) ([]string, []float64, []int32, error) {
	nums := make([]float64, len(labels))
	numeric := true
	for i, s := range labels {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || x != x || x-x != 0 {
			numeric = false
			if level >= Interval {
				return nil, nil, nil, fmt.Errorf("%w: %q at level %s", ErrNotNumeric, s, level)
			}
			break
		}
		if level == Ratio && x < 0 {
			return nil, nil, nil, fmt.Errorf("%w: negative value %q at level ratio", ErrInput, s)
		}
		nums[i] = x
	}
	order := make([]int32, len(labels))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if numeric {
			if c := cmp.Compare(nums[a], nums[b]); c != 0 {
				return c
			}
		}
		return strings.Compare(labels[a], labels[b])
	})
	return applyOrder(labels, nums, order, numeric)
}

func applyOrder(labels []string, nums []float64, order []int32, numeric bool) ([]string, []float64, []int32, error) {
	sorted := make([]string, len(order))
	remap := make([]int32, len(order))
	var sortedNums []float64
	if numeric {
		sortedNums = make([]float64, len(order))
	}
	for newCode, old := range order {
		sorted[newCode] = labels[old]
		remap[old] = int32(newCode)
		if numeric {
			sortedNums[newCode] = nums[old]
		}
	}
	return sorted, sortedNums, remap, nil
}

// groupByUnit fills the unit-grouped columns with a counting sort, keeping
// the input order within a unit.
func (t *Table) groupByUnit(unit, rater, value []int32) {
	n := len(t.units)
	t.unitStart = make([]int32, n+1)
	for _, u := range unit {
		t.unitStart[u+1]++
	}
	for u := 0; u < n; u++ {
		t.unitStart[u+1] += t.unitStart[u]
	}
	next := make([]int32, n)
	copy(next, t.unitStart[:n])
	t.rater = make([]int32, len(unit))
	t.value = make([]int32, len(unit))
	for i, u := range unit {
		p := next[u]
		next[u]++
		t.rater[p] = rater[i]
		t.value[p] = value[i]
	}
}

// checkDuplicates fails if a rater rated a unit twice.
func (t *Table) checkDuplicates() error {
	seen := make([]int32, len(t.raters))
	for i := range seen {
		seen[i] = -1
	}
	for u := range t.units {
		rs, _ := t.UnitRatings(u)
		for _, r := range rs {
			if seen[r] == int32(u) {
				return fmt.Errorf("%w: unit %q, rater %q", ErrDuplicateRating, t.units[u], t.raters[r])
			}
			seen[r] = int32(u)
		}
	}
	return nil
}
