package agreement

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"strings"
)

// plainChunk is the read size of the streaming CSV reader: small enough
// that a chunk is still in the processor's cache when it is parsed.
const plainChunk = 256 << 10

// csvStream holds the input of readCSVRatings: buf[start:n] is read and not
// yet parsed; line is the line number of buf[start].
type csvStream struct {
	r        io.Reader // nil when buf holds the whole input
	buf      []byte
	start, n int
	eof      bool
	line     int
}

// fill moves the unparsed bytes to the front of buf and reads until buf is
// full or the input ends; it grows buf when it is full already (a line
// longer than a chunk).
func (s *csvStream) fill() error {
	if s.r == nil {
		s.eof = true
		return nil
	}
	s.n = copy(s.buf, s.buf[s.start:s.n])
	s.start = 0
	if s.n == len(s.buf) {
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	for s.n < len(s.buf) && !s.eof {
		k, err := s.r.Read(s.buf[s.n:])
		s.n += k
		if errors.Is(err, io.EOF) {
			s.eof = true
		} else if err != nil {
			return err
		}
	}
	return nil
}

// rest returns the unparsed bytes and the rest of the input.
func (s *csvStream) rest() ([]byte, error) {
	data := s.buf[s.start:s.n]
	if s.r == nil || s.eof {
		return data, nil
	}
	rest, err := io.ReadAll(s.r)
	return append(data[:len(data):len(data)], rest...), err
}

// readCSVRatings reads CSV ratings with the unit, rater and value columns
// and no cluster or strata keys. r is nil when data holds the whole input;
// size is the input size when known (0 otherwise), to size the columns.
//
// The usual file — no quote character, a header that starts with unit,
// rater and value, rows that have those three columns — is parsed as it
// streams in, a chunk at a time, by addPlainRows. From the first chunk
// with a quote, or the first row addPlainRows does not take, the general
// reader (scanRecords) takes over with the rest of the input, so both paths
// accept the same files and fail alike, with the same line numbers.
func readCSVRatings(r io.Reader, data []byte, level Level, size int) (*Table, error) {
	return readCSVChunks(r, data, level, size, plainChunk)
}

// readCSVChunks is readCSVRatings reading chunk bytes at a time.
func readCSVChunks(r io.Reader, data []byte, level Level, size, chunk int) (*Table, error) {
	s := &csvStream{r: r, buf: data, n: len(data), line: 1}
	if r != nil {
		s.buf = make([]byte, chunk)
	}
	if err := s.fill(); err != nil {
		return nil, err
	}
	for !s.eof && bytes.IndexByte(s.buf[:s.n], '\n') < 0 {
		if err := s.fill(); err != nil {
			return nil, err
		}
	}
	if bytes.HasPrefix(s.buf[:s.n], bom) {
		s.start = len(bom)
	}
	head := s.buf[s.start:s.n]
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 || bytes.IndexByte(head[:nl], '"') >= 0 || !plainHeader(head[:nl]) {
		all, err := s.rest()
		if err != nil {
			return nil, err
		}
		ds, err := parseRecords(all, ReadOptions{Format: CSV, Level: level})
		if err != nil {
			return nil, err
		}
		return ds.Table, nil
	}
	s.start += nl + 1
	s.line++
	b := NewBuilder(level, estimateRowsOf(head, max(size, len(head))))
	if err := b.addCSVStream(s, bytes.Count(head[:nl], []byte{','})+1); err != nil {
		return nil, err
	}
	return b.Build()
}

var bom = []byte("\xef\xbb\xbf")

// addCSVStream adds the rows after a plain header of nCols columns.
func (b *Builder) addCSVStream(s *csvStream, nCols int) error {
	for {
		end := s.n
		if !s.eof {
			end = s.start + bytes.LastIndexByte(s.buf[s.start:s.n], '\n') + 1
		}
		region := s.buf[s.start:end]
		if bytes.IndexByte(region, '"') >= 0 {
			return b.addCSVRecords(s, nCols)
		}
		if room := cap(b.rowRater) - len(b.rowRater); room < len(region) {
			b.reserve(bytes.Count(region, []byte{'\n'}) + 1)
		}
		taken, lines, ok := b.addPlainRows(region)
		s.start += taken
		s.line += lines
		if !ok {
			return b.addCSVRecords(s, nCols)
		}
		if s.eof {
			return nil
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// addCSVRecords adds the rest of the input with the general reader.
func (b *Builder) addCSVRecords(s *csvStream, nCols int) error {
	data, err := s.rest()
	if err != nil {
		return err
	}
	cols := make([]int, nCols)
	for i := range cols {
		cols[i] = -1
	}
	cols[0], cols[1], cols[2] = 0, 1, 2
	cs := &csvState{data: data, line: s.line}
	return cs.records(cols, 3, func(v []string) error {
		_, err := b.addRecord(v[0], v[1], v[2])
		return err
	})
}

// plainHeader reports whether a header line starts with unit, rater, value,
// matching names as the general reader does (trimmed, case-insensitive);
// later columns of the same names are ignored there too.
func plainHeader(line []byte) bool {
	cols := strings.SplitN(string(line), ",", 4)
	if len(cols) < 3 {
		return false
	}
	for i, want := range []string{"unit", "rater", "value"} {
		if !strings.EqualFold(strings.TrimSpace(cols[i]), want) {
			return false
		}
	}
	return true
}

// addPlainRows adds the rows of data, whole lines without quotes. It
// returns how many bytes and lines it took, and ok=false when it stopped at
// a row the fast path does not take: fewer than two columns, or an empty
// unit or rater.
//
// It walks data eight bytes at a time: sepMasks marks the commas and
// newlines of a word, and each marked byte ends a field. A row's unit,
// rater and value are its first three fields; further fields are skipped.
// The usual row, three fields and a newline, is added inline; the others go
// through lineEnd.
func (b *Builder) addPlainRows(data []byte) (taken, lines int, ok bool) {
	p := plainRows{b: b, raters: b.rowRater, values: b.rowValue, runStart: b.runStart}
	if b.units.last >= 0 {
		p.unit = b.units.name(b.units.last)
	}
	defer p.store()
	line, col := 0, 0  // start of the current line; fields ended on it so far
	var uEnd, rEnd int // ends of its unit and rater fields
	for word := 0; word < len(data); word += 8 {
		commas, newlines := sepMasks(data, word)
		for seps := commas | newlines; seps != 0; seps &= seps - 1 {
			bit := bits.TrailingZeros64(seps)
			at := word + bit>>3
			if commas&(1<<bit) != 0 {
				switch col {
				case 0:
					uEnd = at
				case 1:
					rEnd = at
				case 2: // the value ends here; more columns follow
					if !p.row(data[line:uEnd], data[uEnd+1:rEnd], data[rEnd+1:at]) {
						return line, lines, false
					}
				}
				col++
				continue
			}
			if col == 2 && uEnd > line && rEnd > uEnd+1 { // the usual row
				vEnd := at
				if data[vEnd-1] == '\r' && vEnd > rEnd+1 {
					vEnd--
				}
				if vEnd > rEnd+1 {
					if u := data[line:uEnd]; string(u) != p.unit {
						p.newUnit(u)
					}
					r, v := data[uEnd+1:rEnd], data[rEnd+1:vEnd]
					rc, vc := b.raters.short.find(r)-1, b.vals.short.find(v)-1
					if rc < 0 {
						rc = b.raters.code(view(r))
					}
					if vc < 0 {
						vc = b.vals.code(view(v))
					}
					p.raters = append(p.raters, rc)
					p.values = append(p.values, vc)
				}
			} else if !p.lineEnd(data, line, uEnd, rEnd, at, col) {
				return line, lines, false
			}
			line, col = at+1, 0
			lines++
		}
	}
	if line < len(data) && !p.lineEnd(data, line, uEnd, rEnd, len(data), col) {
		return line, lines, false
	}
	return len(data), lines, true
}

// plainRows holds the Builder's columns in local slices while addPlainRows
// appends to them.
type plainRows struct {
	b                        *Builder
	unit                     string // the previous row's unit
	raters, values, runStart []int32
}

func (p *plainRows) store() {
	p.b.rowRater, p.b.rowValue, p.b.runStart = p.raters, p.values, p.runStart
}

// newUnit starts a run of rows of unit u.
func (p *plainRows) newUnit(u []byte) {
	units := p.b.units
	units.newRun(view(u))
	p.unit = units.name(units.last)
	p.runStart = append(p.runStart, int32(len(p.raters)))
}

// lineEnd handles the end of a line at data[end] (a newline or the end of
// the data) after col fields ended on it.
func (p *plainRows) lineEnd(data []byte, line, uEnd, rEnd, end, col int) bool {
	switch {
	case col >= 3: // the row was added at its third comma
		return true
	case col == 2:
		if end > rEnd+1 && data[end-1] == '\r' {
			end--
		}
		return p.row(data[line:uEnd], data[uEnd+1:rEnd], data[rEnd+1:end])
	case col == 1: // no value column: a missing rating
		if end > uEnd+1 && data[end-1] == '\r' {
			end--
		}
		return p.row(data[line:uEnd], data[uEnd+1:end], nil)
	}
	// a blank line, or a single column
	return end == line || end == line+1 && data[line] == '\r'
}

// row adds one row; it returns false for an empty unit or rater.
func (p *plainRows) row(u, r, v []byte) bool {
	if len(u) == 0 || len(r) == 0 {
		return false
	}
	if len(v) == 0 {
		return true // a missing rating
	}
	if string(u) != p.unit {
		p.newUnit(u)
	}
	p.raters = append(p.raters, p.b.raters.codeOf(r))
	p.values = append(p.values, p.b.vals.codeOf(v))
	return true
}

// sepMasks returns masks with the high bit of byte i set where
// data[word+i] is a comma, respectively a newline (bytes past the end of
// data count as neither). A byte x of w^pattern is zero exactly where w has
// the pattern byte, and ((x&0x7f)+0x7f)|x has its high bit clear exactly
// where x is zero, without carries between bytes.
func sepMasks(data []byte, word int) (commas, newlines uint64) {
	var w uint64
	if word+8 <= len(data) {
		w = binary.LittleEndian.Uint64(data[word:])
	} else {
		var tail [8]byte
		copy(tail[:], data[word:])
		w = binary.LittleEndian.Uint64(tail[:])
	}
	const ones, lows, highs = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	c, n := w^(ones*','), w^(ones*'\n')
	commas = ^((c&lows + lows) | c) & highs
	newlines = ^((n&lows + lows) | n) & highs
	return commas, newlines
}
