package imports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// lineReader yields NDJSON lines without buffering the whole input.
type lineReader struct {
	r    *bufio.Reader
	line int
	long []byte // a line longer than the read buffer, reused from line to line until dropped
}

// drop lets go of the buffer of long lines, which the reader no longer needs once the lines
// read are copied out: a batch being stored then does not keep up to 16 MiB more alive.
func (lr *lineReader) drop() { lr.long = nil }

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReaderSize(r, 256<<10)} }

// errLineTooLong is a line over MaxLineBytes; the reader skips to the next line.
var errLineTooLong = fmt.Errorf("the line is longer than %d bytes", MaxLineBytes)

// next returns the next non-blank line, its number, or io.EOF. A line over MaxLineBytes is
// returned as errLineTooLong with its number, and reading goes on after it.
func (lr *lineReader) next() ([]byte, int, error) {
	for {
		b, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			b, err = lr.readLong(b)
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

// readLong reads the rest of a line longer than the buffer, up to MaxLineBytes; past that it
// discards the line to its end and reports errLineTooLong.
//
// note: the line is gathered in one buffer, doubled when it fills (append grows a large slice
// by a quarter, which allocates a long line five times over) and kept for the next long line.
func (lr *lineReader) readLong(head []byte) ([]byte, error) {
	buf := append(lr.long[:0], head...)
	defer func() { lr.long = buf[:0] }()
	for {
		b, err := lr.r.ReadSlice('\n')
		if len(buf)+len(b) <= MaxLineBytes && cap(buf)-len(buf) < len(b) {
			buf = slices.Grow(buf, min(max(len(b), cap(buf)), MaxLineBytes-len(buf)))
		}
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

// decodeLine decodes one line, a JSON object, into v (a pointer to a struct) and refuses a
// key that names none of its fields, nor of the struct fields nested in it, with an
// *UnknownFieldError naming the key by its path ("ground_truth.pa").
//
// note: a Decoder first copies the whole line into a buffer it grows as it reads; a line of
// 16 MiB then costs another 32 MiB. Here nothing of the line is copied but the values kept.
//
// note: a line of up to decodeFastBytes is first decoded once by a Decoder that refuses unknown
// fields itself; only a line it refuses (or does not wholly take) is decoded again the long
// way, for the error with the key's path. An item line is scanned before (scanItemLine).
func decodeLine(data []byte, v any) error {
	if line, ok := v.(*ItemLine); ok && len(data) <= decodeFastBytes {
		if decodeItemLine(data, line) {
			return nil
		}
		*line = ItemLine{}
	} else if len(data) <= decodeFastBytes {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if dec.Decode(v) == nil && dec.InputOffset() == int64(len(data)) {
			return nil
		}
		reflect.ValueOf(v).Elem().SetZero()
	}
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	return unknownKeys(data, reflect.TypeOf(v), "")
}

// decodeFastBytes is the longest line decodeLine decodes in one pass: the Decoder copies it.
const decodeFastBytes = 64 << 10

// UnknownFieldError is a key of a well-formed line that names no field of the line: the line
// is valid JSON, but not a line of this import.
type UnknownFieldError struct {
	// Path is the key with the fields it is nested in, "pool" or "ground_truth.pa".
	Path string
	// Known are the fields that may stand where the key does.
	Known []string
}

func (e *UnknownFieldError) Error() string { return fmt.Sprintf("json: unknown field %q", e.Path) }

// problem is the line's refusal as a field error: code unknown_field at the key's path, with
// the fields that may stand there, and a word on the pool for a "pool" key.
func (e *UnknownFieldError) problem() error {
	msg := fmt.Sprintf("%q is not a field here; the fields are %s", e.Path, strings.Join(e.Known, ", "))
	if e.Path == "pool" {
		msg += `; the pool is chosen for the whole import (the calibration pool on the Items page, or ?pool=calibration), not per line`
	}
	return &lineProblem{summary: fmt.Sprintf("unknown field %q", e.Path), fields: tasks.FieldErrors{e.Path: {Code: CodeUnknownField, Message: msg}}}
}

// CodeUnknownField is the code of a key that names no field of an import line.
const CodeUnknownField = "unknown_field"

// lineProblem is a refused line with a summary of its own and the field errors behind it.
type lineProblem struct {
	summary string
	fields  tasks.FieldErrors
}

func (p *lineProblem) Error() string { return p.summary }
func (p *lineProblem) Unwrap() error { return p.fields }

// lineRefusal is what a line that decodeLine refused is reported as: an unknown field by
// name, anything else as malformed JSON.
func lineRefusal(err error) error {
	var uf *UnknownFieldError
	if errors.As(err, &uf) {
		return uf.problem()
	}
	return fmt.Errorf("malformed JSON: %v", err)
}

// unknownKeys checks the keys of the object data against the fields of the struct type t,
// matched as encoding/json matches them (by json name, without regard to case); prefix is the
// path of data in the line.
func unknownKeys(data []byte, t reflect.Type, prefix string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(unmarshaler) {
		return nil
	}
	var keys map[string]rawRef
	if json.Unmarshal(data, &keys) != nil {
		return nil // note: not an object (null, say); decoding v already took it or refused it
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		f, ok := fieldNamed(t, k)
		if !ok {
			return &UnknownFieldError{Path: prefix + k, Known: fieldNames(t)}
		}
		if err := unknownKeys(keys[k], f.Type, prefix+k+"."); err != nil {
			return err
		}
	}
	return nil
}

// fieldNames are the json names of t's exported fields, in declaration order.
func fieldNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if name := jsonName(f); f.IsExported() && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// jsonName is the name encoding/json gives the field.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	return name
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// fieldNamed is the exported field of t that encoding/json decodes the key into.
func fieldNamed(t reflect.Type, key string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if name := jsonName(f); f.IsExported() && name != "-" && strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// rawRef is a value of the JSON being decoded, by reference: unlike json.RawMessage it is
// not copied, and it is only used while that JSON is.
type rawRef []byte

func (r *rawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// encodeObject is json.Marshal of a map of raw values, byte for byte (keys sorted, values
// compacted, <, >, & and U+2028/U+2029 escaped), written into one buffer of about its size.
//
// note: json.Marshal grows a pooled buffer and copies the result out of it; for the inputs of
// a 16 MiB line that is 16 MiB more and a buffer of up to 32 MiB kept in the pool.
func encodeObject(m map[string]json.RawMessage) store.JSON {
	if m == nil {
		return store.JSON("null")
	}
	size := 2
	for k, v := range m {
		size += len(k) + len(v) + 8
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf := bytes.NewBuffer(make([]byte, 0, size))
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeKey(buf, k)
		buf.WriteByte(':')
		if err := writeValue(buf, m[k]); err != nil {
			b, _ := json.Marshal(m) // note: not a value decoded from JSON; Marshal says what it makes of it
			return store.JSON(b)
		}
	}
	buf.WriteByte('}')
	return store.JSON(buf.Bytes())
}

// writeKey writes a key as json.Marshal writes a string: as it is, quoted, when it has nothing
// to escape.
func writeKey(buf *bytes.Buffer, k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			key, _ := json.Marshal(k)
			buf.Write(key)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(k)
	buf.WriteByte('"')
}

// writeValue writes one raw value as json.Marshal writes a json.RawMessage.
func writeValue(buf *bytes.Buffer, v json.RawMessage) error {
	if len(v) == 0 {
		buf.WriteString("null")
		return nil
	}
	if plainString(v) {
		buf.Write(v) // note: already as Compact and HTMLEscape write it
		return nil
	}
	if !bytes.ContainsAny(v, "<>&\u2028\u2029") {
		return json.Compact(buf, v)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, v); err != nil {
		return err
	}
	json.HTMLEscape(buf, compact.Bytes())
	return nil
}

// plainString reports whether v is a JSON string with no escapes, no control characters and
// nothing json.Marshal escapes (<, >, &, U+2028, U+2029): a valid value with nothing for
// json.Compact or json.HTMLEscape to change (most inputs and answers are).
//
// note: 0xE2 leads the UTF-8 of U+2028 and U+2029 (and of other characters, which the slow way
// then writes as they are).
func plainString(v []byte) bool {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	for _, c := range v[1 : len(v)-1] {
		if c == '"' || c == '\\' || c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0xE2 {
			return false
		}
	}
	return true
}
