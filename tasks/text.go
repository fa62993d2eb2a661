package tasks

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CodeInvalidText reports text that no database can store faithfully: invalid UTF-8, or the
// NUL character.
const CodeInvalidText = "invalid_text"

// CodeTooDeep reports JSON nested deeper than MaxDepth.
const CodeTooDeep = "too_deep"

// MaxDepth is how deeply JSON text may nest arrays and objects. SQLite's JSON functions stop at
// 1,000 levels and PostgreSQL's do not, so a deeper document would be stored by one engine and
// fail on the other; no item, answer or request of Arbiter's needs more than a few levels.
const MaxDepth = 64

// CheckText refuses JSON text holding invalid UTF-8 or a NUL character (raw or as \u0000) in
// any key or string, naming the path of the first such value ("inputs.prompt",
// "answers.notes[2]"), and text nested deeper than MaxDepth. Such text would be stored
// differently by SQLite and PostgreSQL, or not at all, so it is refused at the boundary.
// Malformed JSON is left for the decoder to report.
func CheckText(data []byte) error {
	if depth := nesting(data); depth > MaxDepth {
		return Field("", CodeTooDeep, "the JSON nests %d levels deep; at most %d", depth, MaxDepth)
	}
	if utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 && !bytes.Contains(data, []byte(`\u0000`)) {
		return nil // note: the common case costs one pass over the bytes
	}
	if !utf8.Valid(data) && !json.Valid(data) {
		if i := firstInvalid(data); i >= 0 {
			return Field("", CodeInvalidText, "the text is not valid UTF-8 at byte %d", i)
		}
	}
	path, bad := findBadString(data)
	if bad == "" {
		return nil
	}
	return Field(path, CodeInvalidText, "%s", bad)
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// findBadString decodes the JSON and returns the path of the first string or key (in key
// order) holding NUL or U+FFFD (which is what invalid UTF-8 decodes to).
func findBadString(data []byte) (string, string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", ""
	}
	return walkText("", v)
}

func walkText(path string, v any) (string, string) {
	switch x := v.(type) {
	case string:
		if msg := badText(x); msg != "" {
			return path, msg
		}
	case []any:
		for i, e := range x {
			if p, msg := walkText(path+"["+strconv.Itoa(i)+"]", e); msg != "" {
				return p, msg
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if msg := badText(k); msg != "" {
				return p, "a key " + msg
			}
			if p, msg := walkText(p, x[k]); msg != "" {
				return p, msg
			}
		}
	}
	return "", ""
}

func badText(s string) string {
	switch {
	case strings.ContainsRune(s, 0):
		return "holds the NUL character"
	case strings.ContainsRune(s, utf8.RuneError):
		return "is not valid UTF-8"
	}
	return ""
}

// nesting is the deepest nesting of arrays and objects in JSON text (brackets inside strings
// do not count).
func nesting(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++ // note: the escaped byte is part of the string
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
