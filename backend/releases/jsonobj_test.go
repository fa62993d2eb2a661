package releases

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"
)

func TestSplitObject(t *testing.T) {
	cases := []string{
		`{}`, ` { } `, `{"a":1}`, `{"a": "x,}y", "b": [1, {"c": "]"}], "d": null, "e": true}`,
		`{"q\"uote": 1}`, `{"a": "esc \" \\ \u00e9"}`, `{"a":1,}`, `{"a" 1}`, `{"a": tru}`, `[1]`, `null`, ``,
		`{"a": {"b": [1, 2]}} x`, `{"a": 1} {}`, `{"dup": 1, "dup": 2}`,
		`{"n": 01}`, `{"n": -}`, `{"n": -0}`, `{"n": 10, "m": -25}`, `{"n": 1.5e3}`, `{"n": 1x}`, "{\"s\": \"a\tb\"}",
		"{\"s\": \"\xff\"}", `{"s": "plain text"}`, `{"s": "a"b"}`, `{"s": "}`,
	}
	for _, c := range cases {
		checkSplit(t, []byte(c))
	}
}

func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a": "x\"y", "b": [1, {"c": "]"}]}`, `{"k": {"n": [true, null, -1.5e3]}}`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkSplit(t, b) })
}

// checkSplit requires splitObject to answer exactly as encoding/json does.
func checkSplit(t *testing.T, b []byte) {
	t.Helper()
	var want map[string]json.RawMessage
	werr := json.Unmarshal(b, &want)
	got, err := splitObject(b)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: error %v, encoding/json %v", b, err, werr)
	}
	if err == nil && !maps.EqualFunc(got, want, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) }) {
		t.Fatalf("%q: %q, encoding/json %q", b, got, want)
	}
}
