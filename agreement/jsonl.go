package agreement

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// errSlowPath makes the fast JSONL scanner hand a line to encoding/json.
var errSlowPath = errors.New("slow path")

// jsonlState scans flat JSON objects byte by byte; anything unusual
// (escapes, nested objects) goes through encoding/json for that line only.
type jsonlState struct {
	want []string
	vals []string
	buf  []byte
}

func scanJSONL(data []byte, want []string, fn recordFunc) error {
	s := &jsonlState{want: want, vals: make([]string, len(want))}
	line := 0
	for len(data) > 0 {
		line++
		var ln []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data = data[:i], data[i+1:]
		} else {
			ln, data = data, nil
		}
		ln = bytes.TrimSpace(ln)
		if len(ln) == 0 {
			continue
		}
		clear(s.vals)
		err := s.fast(ln)
		if err == errSlowPath {
			clear(s.vals)
			err = s.slow(ln)
		}
		if err == nil {
			err = fn(s.vals)
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	return nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// plainString returns the end of a string starting at b[i] == '"' without
// escapes, or errSlowPath.
func plainString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j, nil
		case '\\':
			return 0, errSlowPath
		}
	}
	return 0, errSlowPath
}

// fast parses {"k": scalar, ...} without allocating.
func (s *jsonlState) fast(b []byte) error {
	if b[0] != '{' {
		return fmt.Errorf("%w: not a JSON object", ErrInput)
	}
	i := skipWS(b, 1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for i < len(b) {
		if b[i] != '"' {
			return errSlowPath
		}
		end, err := plainString(b, i)
		if err != nil {
			return err
		}
		key := view(b[i+1 : end])
		i = skipWS(b, end+1)
		if i >= len(b) || b[i] != ':' {
			return errSlowPath
		}
		i = skipWS(b, i+1)
		var val string
		if val, i, err = scalar(b, i); err != nil {
			return err
		}
		s.set(key, val)
		i = skipWS(b, i)
		if i < len(b) && b[i] == '}' {
			return nil
		}
		if i >= len(b) || b[i] != ',' {
			return errSlowPath
		}
		i = skipWS(b, i+1)
	}
	return errSlowPath
}

// scalar reads a string, number, true, false or null value at b[i].
func scalar(b []byte, i int) (string, int, error) {
	if i >= len(b) {
		return "", i, errSlowPath
	}
	if b[i] == '"' {
		end, err := plainString(b, i)
		if err != nil {
			return "", i, err
		}
		return view(b[i+1 : end]), end + 1, nil
	}
	if b[i] == '{' || b[i] == '[' {
		return "", i, errSlowPath
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	v := view(b[i:j])
	if v == "null" {
		v = ""
	}
	return v, j, nil
}

func (s *jsonlState) set(key, val string) {
	for k, w := range s.want {
		if len(w) == len(key) && w != "" && w[0] == key[0] && w == key {
			s.vals[k] = val
		}
	}
}

// slow decodes one line with encoding/json. Arrays (multi-select values)
// become their sorted elements joined by "|".
func (s *jsonlState) slow(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return fmt.Errorf("%w: %v", ErrInput, err)
	}
	for k, w := range s.want {
		v, ok := obj[w]
		if w == "" || !ok {
			continue
		}
		str, err := jsonText(v)
		if err != nil {
			return fmt.Errorf("%w: field %q: %v", ErrInput, w, err)
		}
		s.vals[k] = str
	}
	return nil
}

func jsonText(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			p, err := jsonText(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, p)
		}
		slices.Sort(parts)
		return strings.Join(slices.Compact(parts), "|"), nil
	}
	return "", errors.New("objects are not supported as values")
}
