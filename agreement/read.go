package agreement

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
)

// ReadOptions describes a ratings file.
type ReadOptions struct {
	Format Format
	Level  Level
	// ClusterKey and StrataKey name optional columns (CSV) or fields (JSONL)
	// that group units for the bootstrap; the first row of a unit decides.
	ClusterKey, StrataKey string
}

// Dataset is a parsed ratings file: the table and optional unit groupings.
type Dataset struct {
	Table    *Table
	Clusters UnitGroups // empty unless ReadOptions.ClusterKey was set
	Strata   UnitGroups // empty unless ReadOptions.StrataKey was set
}

// ReadRatings reads (unit, rater, value) rows: JSON Lines objects
// {"unit": …, "rater": …, "value": …} or CSV with a unit,rater,value header.
// A row with an empty or null value is a missing rating and is skipped.
func ReadRatings(r io.Reader, opts ReadOptions) (*Dataset, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return ParseRatings(data, opts)
}

// ParseRatings is ReadRatings over an in-memory buffer.
func ParseRatings(data []byte, opts ReadOptions) (*Dataset, error) {
	want := []string{"unit", "rater", "value", opts.ClusterKey, opts.StrataKey}
	required := 3
	if opts.ClusterKey != "" {
		required = 4
	}
	if opts.StrataKey != "" {
		required = 5
		if opts.ClusterKey == "" {
			want[3], want[4] = opts.StrataKey, ""
			required = 4
		}
	}
	b := NewBuilder(opts.Level, estimateRows(data))
	var clusters, strata groupColumn
	err := scanRecords(data, opts.Format, want, required, func(v []string) error {
		if v[0] == "" || v[1] == "" {
			return fmt.Errorf("%w: missing unit or rater", ErrInput)
		}
		if v[2] == "" {
			return nil
		}
		u := b.unitCode(v[0])
		b.add(u, v[1], v[2])
		switch {
		case opts.ClusterKey != "":
			clusters.set(u, v[3])
			if opts.StrataKey != "" {
				strata.set(u, v[4])
			}
		case opts.StrataKey != "":
			strata.set(u, v[3])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	t, err := b.Build()
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Table: t}
	if opts.ClusterKey != "" {
		ds.Clusters = clusters.result(t.NumUnits(), b.unitRemap)
	}
	if opts.StrataKey != "" {
		ds.Strata = strata.result(t.NumUnits(), b.unitRemap)
	}
	return ds, nil
}

// estimateRows guesses the row count from the size of the first lines.
func estimateRows(data []byte) int {
	head := data[:min(len(data), 4096)]
	lines := bytes.Count(head, []byte{'\n'})
	if lines == 0 {
		return 16
	}
	return len(data)/(len(head)/lines) + 16
}

// readAll reads r to the end, sizing the buffer once when r can report its size.
func readAll(r io.Reader) ([]byte, error) {
	var size int64
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil {
			size = fi.Size()
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+512))
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
