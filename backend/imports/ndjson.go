package imports

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// lineReader yields NDJSON lines without buffering the whole input.
type lineReader struct {
	r    *bufio.Reader
	line int
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReaderSize(r, 256<<10)} }

// errLineTooLong is a line over MaxLineBytes; the reader skips to the next line.
var errLineTooLong = fmt.Errorf("the line is longer than %d bytes", MaxLineBytes)

// next returns the next non-blank line, its number, or io.EOF. A line over MaxLineBytes is
// returned as errLineTooLong with its number, and reading goes on after it.
func (lr *lineReader) next() ([]byte, int, error) {
	for {
		b, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			b, err = lr.long(b)
		}
		if errors.Is(err, errLineTooLong) {
			lr.line++
			return nil, lr.line, err
		}
		if len(b) == 0 && err != nil {
			return nil, 0, err
		}
		lr.line++
		if t := bytes.TrimSpace(b); len(t) > 0 {
			return t, lr.line, nil
		}
		if err != nil {
			return nil, 0, err
		}
	}
}

// long reads the rest of a line longer than the buffer, up to MaxLineBytes; past that it
// discards the line to its end and reports errLineTooLong.
func (lr *lineReader) long(head []byte) ([]byte, error) {
	buf := append([]byte(nil), head...)
	for {
		b, err := lr.r.ReadSlice('\n')
		if len(buf)+len(b) > MaxLineBytes {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = lr.r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		buf = append(buf, b...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}
