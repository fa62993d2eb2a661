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
// CSV without cluster or strata keys is parsed as it is read, a chunk at a
// time; other input is read whole first.
func ReadRatings(r io.Reader, opts ReadOptions) (*Dataset, error) {
	if streamable(opts) {
		t, err := readCSVRatings(r, nil, opts.Level, inputSize(r))
		if err != nil {
			return nil, err
		}
		return &Dataset{Table: t}, nil
	}
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return ParseRatings(data, opts)
}

// ParseRatings is ReadRatings over an in-memory buffer.
func ParseRatings(data []byte, opts ReadOptions) (*Dataset, error) {
	if streamable(opts) {
		t, err := readCSVRatings(nil, data, opts.Level, len(data))
		if err != nil {
			return nil, err
		}
		return &Dataset{Table: t}, nil
	}
	return parseRecords(data, opts)
}

// streamable reports whether readCSVRatings can read input with opts.
func streamable(opts ReadOptions) bool {
	return opts.Format == CSV && opts.ClusterKey == "" && opts.StrataKey == ""
}

// parseRecords is ParseRatings for any layout, through scanRecords.
func parseRecords(data []byte, opts ReadOptions) (*Dataset, error) {
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
		u, err := b.addRecord(v[0], v[1], v[2])
		if u < 0 {
			return err
		}
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

// addRecord adds a row read from a file and returns the unit's code, or -1
// when the row adds nothing: an empty value is a missing rating, an empty
// unit or rater an error.
func (b *Builder) addRecord(unit, rater, value string) (int32, error) {
	if unit == "" || rater == "" {
		return -1, fmt.Errorf("%w: missing unit or rater", ErrInput)
	}
	if value == "" {
		return -1, nil
	}
	u := b.unitCode(unit)
	b.add(u, rater, value)
	return u, nil
}

// estimateRows guesses the row count from the size of the first lines.
func estimateRows(data []byte) int { return estimateRowsOf(data, len(data)) }

// estimateRowsOf guesses the row count of size bytes that start with head.
func estimateRowsOf(head []byte, size int) int {
	head = head[:min(len(head), 4096)]
	lines := bytes.Count(head, []byte{'\n'})
	if lines == 0 {
		return 16
	}
	return size/(len(head)/lines) + 16
}

// inputSize returns the size of r when r can report it (a file, or an
// in-memory reader's unread length), else 0.
func inputSize(r io.Reader) int {
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return int(fi.Size())
		}
	case interface{ Len() int }:
		return r.Len()
	}
	return 0
}

// readAll reads r to the end, sizing the buffer once when r can report its size.
func readAll(r io.Reader) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, inputSize(r)+512))
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
