package agreement

import (
	"bytes"
	"fmt"
	"strings"
	"unsafe"
)

// Format is an input file format.
type Format int

// Input formats: CSV with a header row, or JSON Lines (one object per line).
const (
	CSV Format = iota
	JSONL
)

// ParseFormat parses "csv" or "jsonl" (also "json", "ndjson").
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "csv":
		return CSV, nil
	case "jsonl", "json", "ndjson":
		return JSONL, nil
	}
	return 0, fmt.Errorf("%w: unknown format %q (want csv or jsonl)", ErrInput, s)
}

// FormatFromName guesses the format from a file name: .csv is CSV, anything
// else JSON Lines.
func FormatFromName(name string) Format {
	if strings.HasSuffix(strings.ToLower(name), ".csv") {
		return CSV
	}
	return JSONL
}

// view returns a string that shares b's memory. note: the string is only
// valid while b is unchanged; interners copy before they keep a string.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// recordFunc receives the wanted fields of one row; "" means absent, empty
// or null. The strings are only valid during the call.
type recordFunc func(vals []string) error

// scanRecords calls fn for every row of data with the fields named in want
// (in that order). The first required fields must be CSV header columns;
// JSON Lines rows may omit any field.
func scanRecords(data []byte, format Format, want []string, required int, fn recordFunc) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if format == CSV {
		return scanCSV(data, want, required, fn)
	}
	return scanJSONL(data, want, fn)
}

// csvState walks CSV records over an in-memory buffer without allocating
// for unquoted fields.
type csvState struct {
	data    []byte
	pos     int
	line    int
	scratch []byte
}

// field returns the next field and whether it ended its record.
func (s *csvState) field() (string, bool, error) {
	d := s.data
	if s.pos < len(d) && d[s.pos] == '"' {
		return s.quoted()
	}
	start := s.pos
	i := start
	for i < len(d) && d[i] != ',' && d[i] != '\n' {
		i++
	}
	end := i
	if end > start && d[end-1] == '\r' && (i == len(d) || d[i] == '\n') {
		end--
	}
	s.pos = min(i+1, len(d))
	return view(d[start:end]), i >= len(d) || d[i] == '\n', nil
}

// quoted parses a quoted field ("" is an escaped quote; newlines allowed).
func (s *csvState) quoted() (string, bool, error) {
	d := s.data
	s.scratch = s.scratch[:0]
	i := s.pos + 1
	for {
		j := bytes.IndexByte(d[i:], '"')
		if j < 0 {
			return "", true, fmt.Errorf("%w: line %d: unterminated quoted field", ErrInput, s.line)
		}
		s.scratch = append(s.scratch, d[i:i+j]...)
		s.line += bytes.Count(d[i:i+j], []byte{'\n'})
		i += j + 1
		if i < len(d) && d[i] == '"' {
			s.scratch = append(s.scratch, '"')
			i++
			continue
		}
		break
	}
	if i < len(d) && d[i] == '\r' {
		i++
	}
	if i < len(d) && d[i] != ',' && d[i] != '\n' {
		return "", true, fmt.Errorf("%w: line %d: text after closing quote", ErrInput, s.line)
	}
	s.pos = min(i+1, len(d))
	return view(s.scratch), i >= len(d) || d[i] == '\n', nil
}

// header reads the header row and maps each column to a wanted field (-1: not wanted).
func (s *csvState) header(want []string, required int) ([]int, error) {
	var cols []int
	found := make([]bool, len(want))
	for {
		f, last, err := s.field()
		if err != nil {
			return nil, err
		}
		idx := -1
		for i, w := range want {
			if w != "" && strings.EqualFold(strings.TrimSpace(f), w) && !found[i] {
				idx, found[i] = i, true
				break
			}
		}
		cols = append(cols, idx)
		if last {
			break
		}
	}
	s.line++
	for i := range required {
		if !found[i] {
			return nil, fmt.Errorf("%w: CSV header has no %q column", ErrInput, want[i])
		}
	}
	return cols, nil
}

// quoteAfter returns the index of the next '"' at or after pos, or -1.
func quoteAfter(data []byte, pos int) int {
	if i := bytes.IndexByte(data[pos:], '"'); i >= 0 {
		return pos + i
	}
	return -1
}

// lineLen returns the length of the first line of b (without its newline).
func lineLen(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b)
}

// splitLine assigns the comma-separated fields of the unquoted line at
// data[pos:] in one pass and returns the start of the next line, and
// whether the line was blank.
func splitLine(data []byte, pos int, cols []int, vals []string) (int, bool) {
	start, c, i := pos, 0, pos
	for ; i < len(data); i++ {
		switch data[i] {
		case ',':
			if c < len(cols) && cols[c] >= 0 {
				vals[cols[c]] = view(data[start:i])
			}
			c++
			start = i + 1
			continue
		case '\n':
		default:
			continue
		}
		break
	}
	end := i
	if end > start && data[end-1] == '\r' {
		end--
	}
	if c < len(cols) && cols[c] >= 0 {
		vals[cols[c]] = view(data[start:end])
	}
	blank := c == 0 && end == start
	for c++; c < len(cols); c++ { // a short line leaves the rest empty
		if cols[c] >= 0 {
			vals[cols[c]] = ""
		}
	}
	return min(i+1, len(data)), blank
}

// quotedRecord reads one record field by field (quotes may span lines).
func (s *csvState) quotedRecord(cols []int, vals []string) error {
	for c := 0; ; c++ {
		f, last, err := s.field()
		if err != nil {
			return err
		}
		if c < len(cols) && cols[c] >= 0 {
			vals[cols[c]] = f
		}
		if last {
			return nil
		}
	}
}

func scanCSV(data []byte, want []string, required int, fn recordFunc) error {
	s := &csvState{data: data, line: 1}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%w: empty CSV input", ErrInput)
	}
	cols, err := s.header(want, required)
	if err != nil {
		return err
	}
	return s.records(cols, len(want), fn)
}

// records calls fn for every record from s.pos on; cols maps the columns to
// the nWant wanted fields.
func (s *csvState) records(cols []int, nWant int, fn recordFunc) error {
	data := s.data
	vals := make([]string, nWant)
	nextQuote := quoteAfter(data, s.pos)
	for s.pos < len(data) {
		if nextQuote < 0 || nextQuote > s.pos+lineLen(data[s.pos:]) {
			var empty bool
			s.pos, empty = splitLine(data, s.pos, cols, vals)
			if empty {
				s.line++
				continue
			}
		} else {
			clear(vals)
			if err := s.quotedRecord(cols, vals); err != nil {
				return err
			}
			nextQuote = quoteAfter(data, s.pos)
		}
		if err := fn(vals); err != nil {
			return fmt.Errorf("line %d: %w", s.line, err)
		}
		s.line++
	}
	return nil
}
