package imports

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// readAll reads every line, recording each as "n:text", or "n:too long".
func readAll(t *testing.T, r io.Reader) ([]string, error) {
	t.Helper()
	lr := newLineReader(r)
	var out []string
	for {
		b, n, err := lr.next()
		switch {
		case errors.Is(err, errLineTooLong):
			out = append(out, strconv.Itoa(n)+":too long")
		case err != nil:
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		default:
			out = append(out, strconv.Itoa(n)+":"+string(b))
		}
	}
}

// TestLineReader: lines are numbered as an editor numbers them; blank lines and the spaces
// and carriage returns around a line are dropped, a last line needs no newline, a line longer
// than the read buffer comes whole, and a line over MaxLineBytes is reported by number and
// skipped to its end.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	tooLong := strings.Repeat("y", MaxLineBytes+1)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"lines", "a\nb\n", []string{"1:a", "2:b"}},
		{"crlf", "a\r\nb\r\n", []string{"1:a", "2:b"}},
		{"blank lines", "\n  \n\ta\n\r\n\nb", []string{"3:a", "6:b"}},
		{"no final newline", "a\nb", []string{"1:a", "2:b"}},
		{"longer than the buffer", "a\n" + long + "\nb\n", []string{"1:a", "2:" + long, "3:b"}},
		{"too long", "a\n" + tooLong + "\nb\n", []string{"1:a", "2:too long", "3:b"}},
		{"too long at the end", "a\n" + tooLong, []string{"1:a", "2:too long"}},
	}
	for _, tc := range tests {
		got, err := readAll(t, strings.NewReader(tc.in))
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			short := func(s []string) []string {
				out := make([]string, len(s))
				for i, v := range s {
					out[i] = v[:min(len(v), 20)]
				}
				return out
			}
			t.Errorf("%s: %q %v, want %q", tc.name, short(got), err, short(tc.want))
		}
	}
}

// TestLineReaderFails: a read error ends the lines with it (after the text read before it),
// also inside a long line.
func TestLineReaderFails(t *testing.T) {
	cause := errors.New("connection reset")
	got, err := readAll(t, io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(cause)))
	if !errors.Is(err, cause) || strings.Join(got, "|") != "1:a|2:b" {
		t.Fatalf("%q %v", got, err)
	}
	huge := io.MultiReader(strings.NewReader(strings.Repeat("z", MaxLineBytes+10)), iotest.ErrReader(cause))
	if _, err := readAll(t, huge); !errors.Is(err, cause) {
		t.Fatalf("a failing long line: %v", err)
	}
}

// TestReportTruncates: the error list of one import stops at maxReportedErrors and says so.
func TestReportTruncates(t *testing.T) {
	rep := &ImportReport{}
	for i := range maxReportedErrors + 5 {
		rep.fail(i+1, errors.New("bad"))
	}
	if len(rep.Errors) != maxReportedErrors || !rep.Truncated || rep.Errors[maxReportedErrors-1].Line != maxReportedErrors {
		t.Fatalf("%d errors, truncated %v", len(rep.Errors), rep.Truncated)
	}
}

// TestEncodeObject: the stored encoding of inputs and meta is json.Marshal's, byte for byte,
// so that a line imported again compares equal to what an earlier version stored.
func TestEncodeObject(t *testing.T) {
	cases := []map[string]json.RawMessage{
		nil,
		{},
		{"prompt": json.RawMessage(`"a cat"`)},
		{"b": json.RawMessage(` { "x" : [1, 2 ,3] } `), "a": json.RawMessage(`"<b>&amp;</b>"`), "c": json.RawMessage("\"line\u2028sep\u2029\"")},
		{"html": json.RawMessage(`{"k": "a < b && c > d"}`), "none": nil, "n": json.RawMessage(`-1.5e3`)},
		{"ключ": json.RawMessage(`"значение"`), "quote\"key": json.RawMessage(`true`), "<tag>": json.RawMessage(`null`)},
		{"bad": json.RawMessage(`{"unclosed": `)},
		{"plain": json.RawMessage(`"a prompt, with spaces"`), "ctl": json.RawMessage("\"tab\there\""), "esc": json.RawMessage(`"q\"uote"`)},
		{"half": json.RawMessage(`"unclosed`)},
		{"quote": json.RawMessage(`"a"b"`)},
	}
	for _, m := range cases {
		want, _ := json.Marshal(m) // note: nothing for the value that is not JSON
		if got := encodeObject(m); string(got) != string(want) {
			t.Errorf("encodeObject = %s\n  json.Marshal = %s", got, want)
		}
	}
}

// TestDecodeLine: a line is decoded as a json.Decoder with DisallowUnknownFields decodes it:
// keys match fields without regard to case, an unknown key is refused at the top and inside
// ground_truth, and so is anything after the object.
func TestDecodeLine(t *testing.T) {
	cases := []struct{ in, err string }{
		{`{"external_id":"a","inputs":{"prompt":"p","whatever":1},"meta":{"x":{"y":2}}}`, ""},
		{`{"External_ID":"a","INPUTS":{}}`, ""},
		{`{"external_id":"a","ground_truth":{"answers":{"q":"yes"},"provenance":"rule","note":"n"}}`, ""},
		{`{"external_id":"a","ground_truth":null}`, ""},
		{`{"external_id":"a","colour":"red"}`, `json: unknown field "colour"`},
		{`{"external_id":"a","ground_truth":{"answers":{},"provenance":"rule","why":"x"}}`, `json: unknown field "ground_truth.why"`},
		{`{"external_id":"a"} {"external_id":"b"}`, "invalid character '{' after top-level value"},
		{`{"external_id": "broken",`, "unexpected end of JSON input"},
		{`["not", "an", "object"]`, "cannot unmarshal array"},
	}
	for _, c := range cases {
		var line ItemLine
		err := decodeLine([]byte(c.in), &line)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.in, err, c.err)
		case c.err == "" && line.ExternalID != "a":
			t.Errorf("%s: decoded %+v", c.in, line)
		}
	}
}

// TestMayNameAsset: every value in which walkMedia finds an asset reference is one that
// mayNameAsset keeps, however the key is spelled; URLs and paths are passed over.
func TestMayNameAsset(t *testing.T) {
	cases := []struct {
		raw  string
		want bool
	}{
		{`"media/1.png"`, false},
		{`{"url":"https://example.org/a.png"}`, false},
		{`{"asset":"a1"}`, true},
		{`{"ASSET":"a1"}`, true},
		{`{"\u0061sset":"a1"}`, true},
		{`{"aſſet":"a1"}`, true},
		{`{"url":"x.png","Asset":"a1"}`, true},
	}
	for _, c := range cases {
		named := false
		walkMedia(tasks.InputImage, json.RawMessage(c.raw), func(_ tasks.InputType, ref tasks.MediaRef) { named = named || ref.Asset != "" })
		if named != c.want || mayNameAsset([]byte(c.raw)) != c.want {
			t.Errorf("%s: walkMedia finds an asset %v, mayNameAsset %v, want %v", c.raw, named, mayNameAsset([]byte(c.raw)), c.want)
		}
	}
}

// TestFastLineMirrorsItemLine: fastLine and fastTruth have ItemLine's and ImportedTruth's
// fields, in order, by name and tag, so that a line decodes to the same fields either way.
func TestFastLineMirrorsItemLine(t *testing.T) {
	for _, pair := range [][2]reflect.Type{{reflect.TypeFor[ItemLine](), reflect.TypeFor[fastLine]()}, {reflect.TypeFor[ImportedTruth](), reflect.TypeFor[fastTruth]()}} {
		a, b := pair[0], pair[1]
		if a.NumField() != b.NumField() {
			t.Fatalf("%s has %d fields, %s %d", a, a.NumField(), b, b.NumField())
		}
		for i := range a.NumField() {
			if fa, fb := a.Field(i), b.Field(i); fa.Name != fb.Name || fa.Tag != fb.Tag {
				t.Errorf("%s.%s %q is %s.%s %q", a, fa.Name, fa.Tag, b, fb.Name, fb.Tag)
			}
		}
	}
}

// TestDecodeItemLineAsUnmarshal: a line decodeItemLine takes decodes to what json.Unmarshal
// makes of it (white space, nesting, escapes in values, repeated keys, null and empty objects);
// a line with an escaped key or an object that is not one is left to the long way.
func TestDecodeItemLineAsUnmarshal(t *testing.T) {
	taken := []string{
		`{"external_id":"a","inputs":{"prompt":"p","image":{"url":"media/1.png"}},"meta":{"seed":1}}`,
		`{ "external_id" : "a" , "inputs" : { "b" : [ 1 , {"x": "}]\"{"} ] , "a":-1.5e3,"c" :true, "d":null ,"e":"\"q\\"} , "Meta": {} }`,
		`{"external_id":"a","inputs":{"k":"1","k":"2"},"meta":null,"language":"en","gold":true}`,
		`{"external_id":"a","inputs":{},"ground_truth":{"answers":{"q":"yes","r":3,"s":["x"]},"provenance":"constructed","note":"n"}}`,
		`{"external_id":"a","inputs":{"p":"ключ"},"ground_truth":{"answers":null,"provenance":"rule"}}`,
		`{"external_id":"a","inputs":{"p":"1","q":"2"},"inputs":{"p":"3"},"meta":{"m":1},"meta":null}`,
	}
	for _, in := range taken {
		var fast, want ItemLine
		if !decodeItemLine([]byte(in), &fast) {
			t.Errorf("%s: not taken", in)
			continue
		}
		if err := json.Unmarshal([]byte(in), &want); err != nil || !reflect.DeepEqual(fast, want) {
			t.Errorf("%s:\n  fast %+v\n  want %+v (%v)", in, fast, want, err)
		}
	}
	for _, in := range []string{`{"external_id":"a","inputs":{"\u0070":"p"}}`, `{"external_id":"a","inputs":"p"}`, `{"external_id":"a","colour":1}`} {
		var line ItemLine
		if decodeItemLine([]byte(in), &line) {
			t.Errorf("%s: taken as %+v", in, line)
		}
	}
}
