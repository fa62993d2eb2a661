package releases

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// splitObject reads a JSON object into its members, each value kept as its raw bytes (a
// sub-slice of b). It is the hot path of a release, which reads the inputs, metadata and
// answers of millions of items, all stored as JSON objects the server wrote; anything it does
// not recognise as a plain object (escapes in keys, bad syntax) goes to encoding/json, whose
// answer it then is.
func splitObject(b []byte) (map[string]json.RawMessage, error) {
	if m, ok := splitFast(b); ok {
		return m, nil
	}
	var m map[string]json.RawMessage
	err := json.Unmarshal(b, &m)
	return m, err
}

// splitFast splits a well-formed object whose keys hold no escapes; ok is false otherwise.
func splitFast(b []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	m := map[string]json.RawMessage{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return m, skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end := bytes.IndexByte(b[i+1:], '"')
		if end < 0 || bytes.IndexByte(b[i+1:i+1+end], '\\') >= 0 {
			return nil, false
		}
		rawKey := b[i+1 : i+1+end]
		if !utf8.Valid(rawKey) {
			return nil, false
		}
		key := string(rawKey)
		i = skipSpace(b, i+end+2)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		start := skipSpace(b, i+1)
		stop, ok := valueEnd(b, start)
		if !ok || !validValue(b[start:stop]) {
			return nil, false
		}
		m[key] = b[start:stop]
		i = skipSpace(b, stop)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return m, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// validValue reports whether v is one JSON value: strings without escapes, integers and the
// literals (most of what items and answers hold) are checked here, anything else by
// encoding/json.
func validValue(v []byte) bool {
	switch {
	case len(v) >= 2 && v[0] == '"':
		body := v[1 : len(v)-1]
		for _, c := range body {
			if c < 0x20 || c == '\\' || c == '"' {
				return json.Valid(v)
			}
		}
		return v[len(v)-1] == '"' && utf8.Valid(body)
	case len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9'):
		digits := v
		if v[0] == '-' {
			digits = v[1:]
		}
		if len(digits) == 0 || digits[0] == '0' && len(digits) > 1 {
			return json.Valid(v)
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				return json.Valid(v)
			}
		}
		return true
	}
	return json.Valid(v)
}

// valueEnd returns the index just past the JSON value starting at i: a string, an object or
// array (brackets matched outside strings), or a literal up to the next delimiter.
func valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := stringEnd(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j, j > i
}

// stringEnd returns the index just past the string starting at b[i] == '"'.
func stringEnd(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
