package imports

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
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
//
// names, when not nil, are the keys the objects are expected to have: a key among them is not
// allocated again for every line.
func scanItemLine(data []byte, line *ItemLine, names *keyNames) bool {
	s := scanner{b: data}
	if names != nil {
		s.names = *names
	}
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
		switch string(key) {
		case "external_id":
			bit = 1
			out.ExternalID, ok = s.goString()
		case "inputs":
			bit = 2
			out.Inputs, ok = s.object(s.names.inputs)
		case "meta":
			bit = 4
			out.Meta, ok = s.object(nil)
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
	b     []byte
	i     int
	names keyNames
}

// keyNames are the names of a schema's inputs and questions, the keys of a line's inputs and
// of its answers, and the questions' keys in the order encodeObject writes them.
type keyNames struct {
	inputs, questions []string
	sorted            []string // the questions' keys, sorted
	encoded           [][]byte // each of sorted as encodeObject writes it, with its colon
}

func newKeyNames(s *tasks.Schema) *keyNames {
	n := &keyNames{}
	for _, in := range s.Inputs {
		n.inputs = append(n.inputs, in.Name)
	}
	for _, q := range s.Questions {
		n.questions = append(n.questions, q.Key)
	}
	n.sorted = slices.Clone(n.questions)
	slices.Sort(n.sorted)
	n.sorted = slices.Compact(n.sorted)
	for _, k := range n.sorted {
		var buf bytes.Buffer
		writeKey(&buf, k)
		buf.WriteByte(':')
		n.encoded = append(n.encoded, buf.Bytes())
	}
	return n
}

// encodeAnswers is encodeObject(answers), written in the order of the questions' keys sorted
// once, not sorted again for each line; answers with a key that is not a question's are
// encoded by encodeObject.
func (n *keyNames) encodeAnswers(answers map[string]json.RawMessage) store.JSON {
	if n == nil {
		return encodeObject(answers)
	}
	size, found := 2, 0
	for i, k := range n.sorted {
		if v, ok := answers[k]; ok {
			size += len(n.encoded[i]) + len(v) + 1
			found++
		}
	}
	if answers == nil || found != len(answers) {
		return encodeObject(answers)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	buf.WriteByte('{')
	for i, k := range n.sorted {
		v, ok := answers[k]
		if !ok {
			continue
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		buf.Write(n.encoded[i])
		if writeValue(buf, v) != nil {
			return encodeObject(answers) // note: for what json.Marshal makes of it
		}
	}
	buf.WriteByte('}')
	return store.JSON(buf.Bytes())
}

// intern is the key k as a string: the one of known it equals, looked for from known[*next]
// on (keys mostly come in the order of their names), or a new string.
func intern(known []string, next *int, k []byte) string {
	for j := range known {
		i := (*next + j) % len(known)
		if known[i] == string(k) {
			*next = i + 1
			return known[i]
		}
	}
	return string(k)
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
func (s *scanner) key() ([]byte, bool) {
	k, ok := s.plain()
	return k, ok && s.byte(':')
}

// goString reads a string as encoding/json decodes it into a Go string, for a string without
// escapes or control characters, of valid UTF-8 (which it is as it stands).
func (s *scanner) goString() (string, bool) {
	v, ok := s.plain()
	return string(v), ok
}

// plain reads a string without escapes or control characters, of valid UTF-8, and returns
// what is between its quotes.
func (s *scanner) plain() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start, ascii := s.i+1, true
	for i := start; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			v := s.b[start:i]
			if !ascii && !utf8.Valid(v) {
				return nil, false
			}
			s.i = i + 1
			return v, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
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
// (a key given twice keeps its last value); null is a nil map. known are the keys expected.
func (s *scanner) object(known []string) (map[string]json.RawMessage, bool) {
	switch s.peek() {
	case 'n':
		return nil, s.literal("null")
	case '{':
		s.i++
	default:
		return nil, false
	}
	m := make(map[string]json.RawMessage, max(len(known), 4))
	if s.peek() == '}' {
		s.i++
		return m, true
	}
	next := 0
	for {
		kb, ok := s.key()
		if !ok {
			return nil, false
		}
		k := intern(known, &next, kb)
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
		switch string(key) {
		case "answers":
			bit = 1
			gt.Answers, ok = s.object(s.names.questions)
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
