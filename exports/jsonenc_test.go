package exports

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestAppendJSONMatchesEncodingJSON checks the reflection-free encoder
// against encoding/json on the values records hold.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	values := []any{
		nil, "", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"<b>&amp;</b>", "caf\u00e9 \u4e2d\u6587 \U0001F600", "line\u2028para\u2029", "bad \xff\xfe utf8", "\xe2\x82",
		int64(0), int64(-42), int64(math.MaxInt64), 7, true, false,
		0.0, -0.0, 0.1, 1.0 / 3, 1e-7, 1e-6, 123456789.0, 1e20, 1e21, 5e-324, math.MaxFloat64, -2.5e-9,
		[]string{}, []string{"a", "b\n"}, []any{int64(1), "x", nil, true, []string{"y"}},
		map[string]any{"b": int64(1), "a": []string{"z"}, "c": map[string]int64{"y": 2, "x": 1}},
		map[string]json.RawMessage{"k": json.RawMessage(`{"a":1}`), "e": json.RawMessage(`"x"`)},
		map[string]float64{"q": 0.3333, "p": 1}, map[string]string{"b": "2", "a": "1"},
		map[string]any(nil), []Label{{Annotator: "anon-1", Answers: map[string]json.RawMessage{"x": json.RawMessage(`"yes"`)}}},
	}
	for _, n := range []int{smallMap - 1, smallMap, smallMap + 1, 3 * smallMap} {
		m := map[string]int64{}
		for i := range n {
			m[string(rune('z'-i%26))+strings.Repeat("k", i/26)] = int64(i) // note: keys given in reverse order, some sharing a prefix
		}
		values = append(values, m)
	}
	for _, v := range values {
		want, err := marshalCanon(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSON(nil, v); string(got) != string(want) {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
}

func TestObjKeepsOrder(t *testing.T) {
	o := obj{{"z", 1}, {"a", "x"}}
	o.add("m", nil)
	b, err := json.Marshal(o)
	if err != nil || string(b) != `{"z":1,"a":"x","m":null}` {
		t.Fatalf("got %s, %v", b, err)
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\u2028", "\xff", "<>&", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := marshalCanon(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s want %s", s, got, want)
		}
	})
}
