package exports

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The functions below append JSON to a byte slice without reflection, with
// the output of encoding/json (SetEscapeHTML(false)): the same string
// escaping, the same float formatting, map keys sorted. They carry the
// per-record hot path of the jsonl and hf writers; anything unusual falls
// back to encoding/json.

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONFloat appends f as encoding/json does (ES6 number formatting).
func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendJSON appends a value: scalars, []string, []any, string-keyed maps,
// canonical raw JSON (copied as is) and obj; other types go through
// encoding/json.
func appendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendJSONString(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case float64:
		return appendJSONFloat(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case json.RawMessage:
		if x == nil {
			return append(b, "null"...)
		}
		return append(b, x...)
	case []string:
		return appendList(b, len(x), func(b []byte, i int) []byte { return appendJSONString(b, x[i]) })
	case []any:
		return appendList(b, len(x), func(b []byte, i int) []byte { return appendJSON(b, x[i]) })
	case map[string]any:
		return appendMap(b, x)
	case map[string]json.RawMessage:
		return appendMap(b, x)
	case map[string]int64:
		return appendMap(b, x)
	case map[string]float64:
		return appendMap(b, x)
	case map[string]string:
		return appendMap(b, x)
	case obj:
		return x.appendTo(b)
	}
	enc, err := marshalCanon(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, enc...)
}

func appendList(b []byte, n int, elem func([]byte, int) []byte) []byte {
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, i)
	}
	return append(b, ']')
}

// smallMap is the number of keys appendMap sorts in place, without allocating.
const smallMap = 16

// appendMap appends a map with its keys sorted; a nil map is null.
func appendMap[V any](b []byte, m map[string]V) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var small [smallMap]string
	var keys []string
	if len(m) <= smallMap {
		keys = small[:0]
		for k := range m {
			// note: insertion sort; the maps of a record have a handful of keys
			i := len(keys)
			keys = append(keys, k)
			for ; i > 0 && keys[i-1] > k; i-- {
				keys[i] = keys[i-1]
			}
			keys[i] = k
		}
	} else {
		keys = make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSON(b, m[k])
	}
	return append(b, '}')
}

// appendField appends `,"key":value` (no comma for the first field).
func appendField(b []byte, first bool, key string, v any) []byte {
	if !first {
		b = append(b, ',')
	}
	b = appendJSONString(b, key)
	b = append(b, ':')
	return appendJSON(b, v)
}
