package agreement

import (
	"fmt"
	"sync"
)

// JudgeKeys numbers the units and the questions of judge data given as columns. Units and
// Questions must each hold distinct names. Reference and predictions built on the same
// JudgeKeys (the same pointer) are matched on these numbers, without comparing names.
type JudgeKeys struct {
	Units     []string
	Questions []string
}

// JudgeColumns are judge records as columns of numbers, the same records as JudgeRecords
// without a string per record: record i is unit Keys.Units[Unit[i]], question
// Keys.Questions[Question[i]] and value Values[Value[i]]. Cluster, Stratum, A and B number
// names in Names; a nil column is "" for every record.
type JudgeColumns struct {
	Keys                   *JudgeKeys
	Unit, Question, Value  []int32
	Values                 []string
	Cluster, Stratum, A, B []int32
	Names                  []string
}

// judgeCols is a JudgeData's records as columns: given (NewJudgeColumns) or numbered from
// its records (NewJudgeData, ReadJudgeFile), so that the figures are computed one way.
type judgeCols struct {
	JudgeColumns
	posOnce sync.Once
	pos     []int32 // record of unit u, question q at pos[u*len(Questions)+q] (-1: none)
	idxOnce sync.Once
	index   map[[2]string]int
}

// NewJudgeColumns builds JudgeData from columns. A (unit, question) pair may occur once,
// checked on the numbers. The JudgeData keeps the columns (no copy): the caller must not
// change them afterwards.
func NewJudgeColumns(c JudgeColumns) (*JudgeData, error) {
	n := len(c.Unit)
	if c.Keys == nil || len(c.Question) != n || len(c.Value) != n {
		return nil, fmt.Errorf("%w: judge columns of different lengths", ErrInput)
	}
	for _, col := range [][]int32{c.Cluster, c.Stratum, c.A, c.B} {
		if col != nil && len(col) != n {
			return nil, fmt.Errorf("%w: judge columns of different lengths", ErrInput)
		}
		if !inRange(col, len(c.Names)) {
			return nil, fmt.Errorf("%w: judge column names a name it does not have", ErrInput)
		}
	}
	nu, nq := len(c.Keys.Units), len(c.Keys.Questions)
	if !inRange(c.Unit, nu) || !inRange(c.Question, nq) || !inRange(c.Value, len(c.Values)) {
		return nil, fmt.Errorf("%w: judge column number out of range", ErrInput)
	}
	seen := make([]uint64, (nu*nq+63)/64)
	for i := range n {
		k := int(c.Unit[i])*nq + int(c.Question[i])
		if seen[k/64]&(1<<(k%64)) != 0 {
			return nil, fmt.Errorf("%w: unit %q question %q appears twice", ErrDuplicateRating, c.Keys.Units[c.Unit[i]], c.Keys.Questions[c.Question[i]])
		}
		seen[k/64] |= 1 << (k % 64)
	}
	return &JudgeData{cols: &judgeCols{JudgeColumns: c}}, nil
}

func inRange(col []int32, n int) bool {
	for _, x := range col {
		if x < 0 || int(x) >= n {
			return false
		}
	}
	return true
}

// columnsOf numbers records as columns on keys of their own.
func columnsOf(recs []JudgeRecord) *judgeCols {
	var units, questions, values, names interner
	n := len(recs)
	c := JudgeColumns{Unit: make([]int32, n), Question: make([]int32, n), Value: make([]int32, n),
		Cluster: make([]int32, n), Stratum: make([]int32, n), A: make([]int32, n), B: make([]int32, n)}
	for i := range recs {
		r := &recs[i]
		c.Unit[i], c.Question[i], c.Value[i] = units.code(r.Unit), questions.code(r.Question), values.code(r.Value)
		c.Cluster[i], c.Stratum[i], c.A[i], c.B[i] = names.code(r.Cluster), names.code(r.Stratum), names.code(r.A), names.code(r.B)
	}
	c.Keys = &JudgeKeys{Units: units.names, Questions: questions.names}
	c.Values, c.Names = values.names, names.names
	return &judgeCols{JudgeColumns: c}
}

func (c *judgeCols) len() int { return len(c.Unit) }

func (c *judgeCols) unitName(i int) string     { return c.Keys.Units[c.Unit[i]] }
func (c *judgeCols) questionName(i int) string { return c.Keys.Questions[c.Question[i]] }
func (c *judgeCols) valueOf(i int) string      { return c.Values[c.Value[i]] }

// name is record i's name in col ("" when col is nil).
func (c *judgeCols) name(col []int32, i int) string {
	if col == nil {
		return ""
	}
	return c.Names[col[i]]
}

// at returns the record of unit number u and question number q.
func (c *judgeCols) at(u, q int32) (int, bool) {
	c.posOnce.Do(func() {
		nq := len(c.Keys.Questions)
		c.pos = make([]int32, len(c.Keys.Units)*nq)
		for i := range c.pos {
			c.pos[i] = -1
		}
		for i := range c.Unit {
			c.pos[int(c.Unit[i])*nq+int(c.Question[i])] = int32(i)
		}
	})
	p := c.pos[int(u)*len(c.Keys.Questions)+int(q)]
	return int(p), p >= 0
}

// lookup returns the record of a (unit, question) pair by name.
func (c *judgeCols) lookup(unit, question string) (int, bool) {
	c.idxOnce.Do(func() {
		c.index = make(map[[2]string]int, c.len())
		for i := range c.Unit {
			c.index[[2]string{c.unitName(i), c.questionName(i)}] = i
		}
	})
	p, ok := c.index[[2]string{unit, question}]
	return p, ok
}
