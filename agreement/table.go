package agreement

import (
	"fmt"
	"strings"
)

// Level is a level of measurement.
type Level int

// Levels of measurement, in increasing order of structure.
const (
	Nominal Level = iota
	Ordinal
	Interval
	Ratio
)

var levelNames = [...]string{"nominal", "ordinal", "interval", "ratio"}

// String returns the lower-case name of the level.
func (l Level) String() string {
	if l < Nominal || l > Ratio {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel parses "nominal", "ordinal", "interval" or "ratio".
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown level %q (want nominal, ordinal, interval or ratio)", ErrInput, s)
}

// Table is a columnar ratings table: each rating is a (unit, rater, value)
// triple of dense int32 codes, grouped by unit. Build one with a Builder or a
// parser; every metric reads it without copying.
type Table struct {
	level  Level
	units  []string
	raters []string
	values []string
	// numbers holds the numeric value of each value code; nil when some value
	// is not a number. Value codes are sorted by number (or by label).
	numbers []float64
	// unitStart[u]..unitStart[u+1] indexes the ratings of unit u.
	unitStart []int32
	rater     []int32
	value     []int32
	memo      *memo
}

// Level returns the table's level of measurement.
func (t *Table) Level() Level { return t.level }

// NumUnits returns the number of distinct units.
func (t *Table) NumUnits() int { return len(t.units) }

// NumRaters returns the number of distinct raters.
func (t *Table) NumRaters() int { return len(t.raters) }

// NumValues returns the number of distinct values (categories).
func (t *Table) NumValues() int { return len(t.values) }

// NumRatings returns the number of ratings.
func (t *Table) NumRatings() int { return len(t.rater) }

// Unit returns the name of unit code u.
func (t *Table) Unit(u int) string { return t.units[u] }

// Rater returns the name of rater code r.
func (t *Table) Rater(r int) string { return t.raters[r] }

// Value returns the label of value code v.
func (t *Table) Value(v int) string { return t.values[v] }

// Numeric reports whether every value is a number.
func (t *Table) Numeric() bool { return t.numbers != nil }

// Number returns the numeric value of value code v; it panics if !Numeric().
func (t *Table) Number(v int) float64 { return t.numbers[v] }

// UnitRatings returns the rater and value codes of unit u's ratings. The
// slices alias the table and must not be modified.
func (t *Table) UnitRatings(u int) (raters, values []int32) {
	a, b := t.unitStart[u], t.unitStart[u+1]
	return t.rater[a:b], t.value[a:b]
}

// unitSize returns the number of ratings of unit u.
func (t *Table) unitSize(u int) int { return int(t.unitStart[u+1] - t.unitStart[u]) }

// PairableUnits returns the number of units with at least two ratings.
func (t *Table) PairableUnits() int {
	n := 0
	for u := range t.units {
		if t.unitSize(u) >= 2 {
			n++
		}
	}
	return n
}

// scores returns a numeric score per value code: the number for numeric
// tables, otherwise the rank of the value (0, 1, ...).
func (t *Table) scores() []float64 {
	if t.numbers != nil {
		return t.numbers
	}
	s := make([]float64, len(t.values))
	for i := range s {
		s[i] = float64(i)
	}
	return s
}

// resample returns a table with the ratings of the given units (repeats
// allowed), reusing dst's storage when it is not nil. Unit names of the
// copy are shared with t; repeated units keep their code's name.
func (t *Table) resample(dst *Table, units []int32) *Table {
	if dst == nil {
		dst = &Table{}
	}
	*dst = Table{
		level: t.level, raters: t.raters, values: t.values, numbers: t.numbers,
		memo: &memo{}, units: dst.units[:0], unitStart: dst.unitStart[:0], rater: dst.rater[:0], value: dst.value[:0],
	}
	dst.unitStart = append(dst.unitStart, 0)
	for _, u := range units {
		a, b := t.unitStart[u], t.unitStart[u+1]
		dst.units = append(dst.units, t.units[u])
		dst.rater = append(dst.rater, t.rater[a:b]...)
		dst.value = append(dst.value, t.value[a:b]...)
		dst.unitStart = append(dst.unitStart, int32(len(dst.rater)))
	}
	return dst
}
