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

// csvStream holds the input of readCSVRatings and readAlphaReport:
// buf[start:n] is read and not yet parsed; line is the line number of
// buf[start].
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
	s := newCSVStream(r, data, chunk)
	head, nCols, err := s.header()
	if err != nil {
		return nil, err
	}
	if nCols == 0 {
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
	b := NewBuilder(level, estimateRowsOf(head, max(size, len(head))))
	if err := b.addCSVStream(s, nCols); err != nil {
		return nil, err
	}
	return b.Build()
}

// newCSVStream reads r chunk bytes at a time, or data when r is nil.
func newCSVStream(r io.Reader, data []byte, chunk int) *csvStream {
	s := &csvStream{r: r, buf: data, n: len(data), line: 1}
	if r != nil {
		s.buf = make([]byte, chunk)
	}
	return s
}

// header reads up to the end of the header line and returns the first
// bytes of the input (to estimate the number of rows). When the header is
// plain (it starts with unit, rater, value and has no quote) it also
// returns its number of columns and moves past it; otherwise nCols is 0
// and nothing is consumed but a byte order mark.
func (s *csvStream) header() (head []byte, nCols int, err error) {
	if err := s.fill(); err != nil {
		return nil, 0, err
	}
	for !s.eof && bytes.IndexByte(s.buf[:s.n], '\n') < 0 {
		if err := s.fill(); err != nil {
			return nil, 0, err
		}
	}
	if bytes.HasPrefix(s.buf[:s.n], bom) {
		s.start = len(bom)
	}
	head = s.buf[s.start:s.n]
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 || bytes.IndexByte(head[:nl], '"') >= 0 || !plainHeader(head[:nl]) {
		return head, 0, nil
	}
	s.start += nl + 1
	s.line++
	return head, bytes.Count(head[:nl], []byte{','}) + 1, nil
}

// region returns the whole lines read and not yet parsed (at the end of the
// input, the rest).
func (s *csvStream) region() []byte {
	end := s.n
	if !s.eof {
		end = s.start + bytes.LastIndexByte(s.buf[s.start:s.n], '\n') + 1
	}
	return s.buf[s.start:end]
}

var bom = []byte("\xef\xbb\xbf")

// addCSVStream adds the rows after a plain header of nCols columns.
func (b *Builder) addCSVStream(s *csvStream, nCols int) error {
	for {
		region := s.region()
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

// plainRow is a row of a chunk: its unit, rater and value are
// data[start:uEnd], data[uEnd+1:rEnd] and data[rEnd+1:vEnd], none empty.
type plainRow struct{ start, uEnd, rEnd, vEnd int }

// plainRows is a batch of rows split by splitPlain.
type plainRows [256]plainRow

// splitPlain splits the quote-free lines of data from pos on into rows,
// up to len(rows); blank lines and rows without a value (a missing rating)
// give no row. It returns the number of rows, the start of the first line
// not split, how many lines it split, and ok=false when it stopped at a line
// the fast path does not take: a single column, or an empty unit or rater.
//
// A line of up to 31 bytes with exactly three fields, the usual row, is
// split from bit masks of the separators in its first 16 or 32 bytes
// (lineMasks), with no branch per byte or per field; any other line goes
// through slowLine.
func splitPlain(data []byte, pos int, rows *plainRows) (n, next, lines int, ok bool) {
	for ; pos < len(data) && n < len(rows); lines++ {
		commas, newlines := lineMasks(data, pos)
		nl := bits.TrailingZeros32(newlines)
		before := commas & (1<<nl - 1) // the commas of this line
		if newlines == 0 || bits.OnesCount32(before) != 2 {
			row, next, ok := slowLine(data, pos)
			if !ok {
				return n, pos, lines, false
			}
			if row.vEnd > row.rEnd+1 {
				rows[n] = row
				n++
			}
			pos = next
			continue
		}
		row := plainRow{start: pos, uEnd: pos + bits.TrailingZeros32(before),
			rEnd: pos + bits.TrailingZeros32(before&(before-1)), vEnd: pos + nl}
		if data[row.vEnd-1] == '\r' && row.vEnd > row.rEnd+1 {
			row.vEnd--
		}
		if row.uEnd == row.start || row.rEnd == row.uEnd+1 {
			return n, pos, lines, false // an empty unit or rater
		}
		if row.vEnd > row.rEnd+1 {
			rows[n] = row
			n++
		}
		pos += nl + 1
	}
	return n, min(pos, len(data)), lines, true
}

// slowLine splits the line at data[line:] field by field and returns its
// row (vEnd == rEnd+1 when it has none) and the start of the next line; ok
// is false for a line the fast path does not take.
func slowLine(data []byte, line int) (row plainRow, next int, ok bool) {
	row.start = line
	row.uEnd = nextSeparator(data, line)
	if row.uEnd == len(data) || data[row.uEnd] == '\n' { // one column: blank or not
		end := row.uEnd
		blank := end == line || end == line+1 && data[line] == '\r'
		return plainRow{}, end + 1, blank
	}
	row.rEnd = nextSeparator(data, row.uEnd+1)
	next = row.rEnd + 1
	switch {
	case row.rEnd == len(data) || data[row.rEnd] == '\n': // no value column: a missing rating
		if row.rEnd > row.uEnd+1 && data[row.rEnd-1] == '\r' {
			row.rEnd--
		}
		row.vEnd = row.rEnd + 1
	default:
		row.vEnd = nextSeparator(data, row.rEnd+1)
		next = row.vEnd + 1
		if row.vEnd < len(data) && data[row.vEnd] == ',' { // more columns
			next = len(data) + 1
			if i := bytes.IndexByte(data[row.vEnd:], '\n'); i >= 0 {
				next = row.vEnd + i + 1
			}
		} else if row.vEnd > row.rEnd+1 && data[row.vEnd-1] == '\r' {
			row.vEnd--
		}
	}
	return row, next, row.uEnd > line && row.rEnd > row.uEnd+1
}

// addPlainRows adds the rows of data, whole lines without quotes. It
// returns how many bytes and lines it took, and ok=false when it stopped at
// a line the fast path does not take (see splitPlain).
func (b *Builder) addPlainRows(data []byte) (taken, lines int, ok bool) {
	var rows plainRows
	var unit string // the previous row's unit
	if b.units.last >= 0 {
		unit = b.units.name(b.units.last)
	}
	raters, values, runStart := b.rowRater, b.rowValue, b.runStart
	for ok = true; ok && taken < len(data); {
		var n, split int
		n, taken, split, ok = splitPlain(data, taken, &rows)
		lines += split
		for _, row := range rows[:n] {
			if u := data[row.start:row.uEnd]; string(u) != unit {
				unit = b.units.name(b.units.newRun(view(u)))
				runStart = append(runStart, int32(len(raters)))
			}
			r, v := data[row.uEnd+1:row.rEnd], data[row.rEnd+1:row.vEnd]
			rc, vc := b.raters.short.find(r)-1, b.vals.short.find(v)-1 // short names by direct lookup
			if rc < 0 {
				rc = b.raters.code(view(r))
			}
			if vc < 0 {
				vc = b.vals.code(view(v))
			}
			raters = append(raters, rc)
			values = append(values, vc)
		}
	}
	b.rowRater, b.rowValue, b.runStart = raters, values, runStart
	return taken, lines, ok
}

// lineMasks returns bit masks of the commas and newlines in the 32 bytes
// at data[at:] (bit i for data[at+i]), or zero masks when fewer than 32
// bytes are left. The second 16 bytes are only looked at when the first
// hold no newline.
func lineMasks(data []byte, at int) (commas, newlines uint32) {
	if at+32 > len(data) {
		return 0, 0
	}
	commas, newlines = wordMasks(data, at)
	c, n := wordMasks(data, at+8)
	commas, newlines = commas|c<<8, newlines|n<<8
	if newlines == 0 {
		c, n = wordMasks(data, at+16)
		commas, newlines = commas|c<<16, newlines|n<<16
		c, n = wordMasks(data, at+24)
		commas, newlines = commas|c<<24, newlines|n<<24
	}
	return commas, newlines
}

// wordMasks returns 8-bit masks of the commas and newlines among the eight
// bytes at data[at:]. A byte x of w^pattern is zero exactly where w has the
// pattern byte; ((x&0x7f)+0x7f)|x has its high bit clear exactly there,
// without carries between bytes; the multiplication gathers the eight high
// bits into the top byte.
func wordMasks(data []byte, at int) (commas, newlines uint32) {
	const ones, lows, highs, gather = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 0x0102040810204080
	w := binary.LittleEndian.Uint64(data[at:])
	c, n := w^(ones*','), w^(ones*'\n')
	c = ^((c&lows + lows) | c) & highs
	n = ^((n&lows + lows) | n) & highs
	return uint32((c >> 7 * gather) >> 56), uint32((n >> 7 * gather) >> 56)
}

// nextSeparator returns the index of the first ',' or '\n' at or after pos,
// or len(data), testing eight bytes per step (see wordMasks).
func nextSeparator(data []byte, pos int) int {
	for ; pos+8 <= len(data); pos += 8 {
		if c, n := wordMasks(data, pos); c|n != 0 {
			return pos + bits.TrailingZeros32(c|n)
		}
	}
	for pos < len(data) && data[pos] != ',' && data[pos] != '\n' {
		pos++
	}
	return pos
}
