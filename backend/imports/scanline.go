package imports

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// scanItemLine decodes a line of the common shape in one pass over its bytes, validating the
// JSON as it goes: the fields of ItemLine spelled as their tags, each once, strings without
// escapes where a Go string is decoded (external_id, language, provenance, note), and objects
// of valid JSON values for inputs, meta and the answers. It reports false for any other line,
// which decodeItemLine and then the long way decode (for the same result, or the error).
//
// The values of the objects are slices of data, not copies: the line is at most
// decodeFastBytes long, and what is kept of it (the answers of its ground truth) is held no
// longer than its batch (FuzzScanItemLine holds the result to json.Unmarshal's).
func scanItemLine(data []byte, line *ItemLine) bool {
	s := scanner{b: data}
	var out ItemLine
	var seen uint8
	if !s.byte('{') {
		return false
	}
	if s.peek() == '}' {
		s.i++
		*line = out
		return s.end()
	}
	for {
		key, ok := s.key()
		if !ok {
			return false
		}
		var bit uint8
		switch key {
		case "external_id":
			bit = 1
			out.ExternalID, ok = s.goString()
		case "inputs":
			bit = 2
			out.Inputs, ok = s.object()
		case "meta":
			bit = 4
			out.Meta, ok = s.object()
		case "language":
			bit = 8
			out.Language, ok = s.goString()
		case "ground_truth":
			bit = 16
			out.GroundTruth, ok = s.truth()
		case "gold":
			bit = 32
			out.Gold, ok = s.bool()
		}
		if bit == 0 || !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if s.more() {
			continue
		}
		if !s.byte('}') {
			return false
		}
		*line = out
		return s.end()
	}
}

// scanner reads JSON from b at i; every method skips the white space before what it reads.
type scanner struct {
	b []byte
	i int
}

// maxScanDepth is the deepest nesting the scanner validates; a deeper value is left to
// encoding/json.
const maxScanDepth = 64

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte that is not white space, or 0 at the end.
func (s *scanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// byte reads c.
func (s *scanner) byte(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// end reports whether nothing but white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// more reads the comma between members, reporting whether there was one.
func (s *scanner) more() bool { return s.byte(',') }

// key reads a member's key and its colon. A key is a string without escapes, of valid UTF-8.
func (s *scanner) key() (string, bool) {
	k, ok := s.goString()
	return k, ok && s.byte(':')
}

// goString reads a string as encoding/json decodes it into a Go string, for a string without
// escapes or control characters, of valid UTF-8 (which it is as it stands).
func (s *scanner) goString() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start, ascii := s.i+1, true
	for i := start; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			v := s.b[start:i]
			if !ascii && !utf8.Valid(v) {
				return "", false
			}
			s.i = i + 1
			return string(v), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

// bool reads true or false.
func (s *scanner) bool() (bool, bool) {
	s.space()
	switch {
	case s.literal("true"):
		return true, true
	case s.literal("false"):
		return false, true
	}
	return false, false
}

func (s *scanner) literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// object reads an object of raw values, as encoding/json decodes a map[string]json.RawMessage
// (a key given twice keeps its last value); null is a nil map.
func (s *scanner) object() (map[string]json.RawMessage, bool) {
	switch s.peek() {
	case 'n':
		return nil, s.literal("null")
	case '{':
		s.i++
	default:
		return nil, false
	}
	m := make(map[string]json.RawMessage, 8)
	if s.peek() == '}' {
		s.i++
		return m, true
	}
	for {
		k, ok := s.key()
		if !ok {
			return nil, false
		}
		s.space()
		start := s.i
		if !s.value(0) {
			return nil, false
		}
		m[k] = s.b[start:s.i:s.i]
		if !s.more() {
			return m, s.byte('}')
		}
	}
}

// truth reads a ground_truth object: answers, provenance and note, each at most once.
func (s *scanner) truth() (*ImportedTruth, bool) {
	if !s.byte('{') {
		return nil, false
	}
	gt := &ImportedTruth{}
	if s.peek() == '}' {
		s.i++
		return gt, true
	}
	var seen uint8
	for {
		key, ok := s.key()
		if !ok {
			return nil, false
		}
		var bit uint8
		switch key {
		case "answers":
			bit = 1
			gt.Answers, ok = s.object()
		case "provenance":
			bit = 2
			var p string
			p, ok = s.goString()
			gt.Provenance = flow.Provenance(p)
		case "note":
			bit = 4
			gt.Note, ok = s.goString()
		}
		if bit == 0 || !ok || seen&bit != 0 {
			return nil, false
		}
		seen |= bit
		if !s.more() {
			return gt, s.byte('}')
		}
	}
}

// value skips one valid JSON value, nested at most maxScanDepth deep.
func (s *scanner) value(depth int) bool {
	switch s.peek() {
	case '"':
		return s.skipString()
	case '{':
		if depth >= maxScanDepth {
			return false
		}
		s.i++
		if s.peek() == '}' {
			s.i++
			return true
		}
		for {
			if s.peek() != '"' || !s.skipString() || !s.byte(':') || !s.value(depth+1) {
				return false
			}
			if !s.more() {
				return s.byte('}')
			}
		}
	case '[':
		if depth >= maxScanDepth {
			return false
		}
		s.i++
		if s.peek() == ']' {
			s.i++
			return true
		}
		for {
			if !s.value(depth + 1) {
				return false
			}
			if !s.more() {
				return s.byte(']')
			}
		}
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	case 0:
		return false
	}
	return s.number()
}

// skipString skips a valid JSON string (escapes checked; bytes from 0x80 taken as they are,
// as encoding/json's scanner takes them).
func (s *scanner) skipString() bool {
	for i := s.i + 1; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if i++; i >= len(s.b) {
				return false
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) {
					return false
				}
				for _, h := range s.b[i+1 : i+5] {
					if !isHex(h) {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// number skips a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return false
		}
		i = j
	}
	s.i = i
	return true
}

// digits is the index past the decimal digits from i.
func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
