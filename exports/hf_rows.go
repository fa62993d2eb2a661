package exports

import (
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
)

// colNode is a compiled parquet schema node: the shape the row encoder
// walks. Leaves carry their column index.
type colNode struct {
	name     string
	optional bool
	list     bool // a LIST group: elem is the element node
	leaf     parquet.Kind
	isLeaf   bool
	col      int
	fields   []*colNode
	elem     *colNode
	repDepth int // repeated ancestors, including a LIST's own repetition
}

// compile builds the colNode tree of a parquet node, numbering leaves in
// the schema's column order (fields sorted by name, depth first).
func compile(n parquet.Node, name string, next *int, repDepth int) *colNode {
	c := &colNode{name: name, optional: n.Optional(), repDepth: repDepth}
	switch {
	case n.Leaf():
		c.isLeaf, c.leaf, c.col = true, n.Type().Kind(), *next
		*next++
	case isListNode(n):
		c.list = true
		c.repDepth = repDepth + 1
		repeated := n.Fields()[0]
		c.elem = compile(repeated.Fields()[0], "element", next, repDepth+1)
	default:
		for _, f := range n.Fields() {
			c.fields = append(c.fields, compile(f, f.Name(), next, repDepth))
		}
	}
	return c
}

func isListNode(n parquet.Node) bool {
	ct := n.Type().ConvertedType()
	return !n.Leaf() && ct != nil && *ct == deprecated.List
}

// rowEncoder turns Go values (maps, slices, scalars) into parquet rows for
// a compiled schema, with the repetition and definition levels of the
// Dremel encoding. It is the hot path of the hf format: no reflection.
type rowEncoder struct {
	root *colNode
	cols [][]parquet.Value
}

func newRowEncoder(schema *parquet.Schema) *rowEncoder {
	n := 0
	root := compile(schema, "", &n, 0)
	return &rowEncoder{root: root, cols: make([][]parquet.Value, n)}
}

// encode appends the row of v (a map[string]any matching the schema).
func (r *rowEncoder) encode(row parquet.Row, v map[string]any) parquet.Row {
	for i := range r.cols {
		r.cols[i] = r.cols[i][:0]
	}
	r.group(r.root, v, 0, 0)
	for _, c := range r.cols {
		row = append(row, c...)
	}
	return row
}

// emit writes one value of node c at repetition level rep, with def
// levels defined above it.
func (r *rowEncoder) emit(c *colNode, v any, rep, def int) {
	v = deref(v)
	if c.optional {
		if v == nil {
			r.nulls(c, rep, def)
			return
		}
		def++
	}
	switch {
	case c.isLeaf:
		r.cols[c.col] = append(r.cols[c.col], leafValue(c.leaf, v).Level(rep, def, c.col))
	case c.list:
		r.listValues(c, v, rep, def)
	default:
		r.group(c, v, rep, def)
	}
}

// group writes the fields of a group value.
func (r *rowEncoder) group(c *colNode, v any, rep, def int) {
	for _, f := range c.fields {
		r.emit(f, field(v, f.name), rep, def)
	}
}

// listValues writes the elements of a list; an empty list is one null at
// the list's own definition level.
func (r *rowEncoder) listValues(c *colNode, v any, rep, def int) {
	n := listLen(v)
	if n == 0 {
		r.nulls(c.elem, rep, def)
		return
	}
	for i := range n {
		if i > 0 {
			rep = c.repDepth
		}
		r.emit(c.elem, listAt(v, i), rep, def+1)
	}
}

// nulls writes a null for every leaf under c.
func (r *rowEncoder) nulls(c *colNode, rep, def int) {
	switch {
	case c.isLeaf:
		r.cols[c.col] = append(r.cols[c.col], parquet.NullValue().Level(rep, def, c.col))
	case c.list:
		r.nulls(c.elem, rep, def)
	default:
		for _, f := range c.fields {
			r.nulls(f, rep, def)
		}
	}
}

// deref unwraps the pointers opt and the callers use for present zeros.
func deref(v any) any {
	switch x := v.(type) {
	case *string:
		if x == nil {
			return nil
		}
		return *x
	case *int64:
		if x == nil {
			return nil
		}
		return *x
	case *float64:
		if x == nil {
			return nil
		}
		return *x
	case *bool:
		if x == nil {
			return nil
		}
		return *x
	}
	return v
}

// field reads a named field of a group value.
func field(v any, name string) any {
	switch m := v.(type) {
	case map[string]any:
		return m[name]
	case map[string]int64:
		if x, ok := m[name]; ok {
			return x
		}
	case map[string]float64:
		if x, ok := m[name]; ok {
			return x
		}
	}
	return nil
}

func listLen(v any) int {
	switch l := v.(type) {
	case []any:
		return len(l)
	case []string:
		return len(l)
	}
	return 0
}

func listAt(v any, i int) any {
	switch l := v.(type) {
	case []any:
		return l[i]
	case []string:
		return l[i]
	}
	return nil
}

// leafValue converts a scalar to the leaf's physical kind. An integer
// under a string column (a likert answer where N/A is allowed) is written
// as its decimal text.
func leafValue(k parquet.Kind, v any) parquet.Value {
	switch x := v.(type) {
	case string:
		return parquet.ByteArrayValue([]byte(x))
	case int64:
		if k == parquet.ByteArray {
			return parquet.ByteArrayValue(strconv.AppendInt(nil, x, 10))
		}
		return parquet.Int64Value(x)
	case int:
		return parquet.Int64Value(int64(x))
	case float64:
		return parquet.DoubleValue(x)
	case bool:
		return parquet.BooleanValue(x)
	}
	return parquet.NullValue()
}
