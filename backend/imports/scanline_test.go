package imports

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// scanSeeds are lines scanItemLine takes and lines it leaves to the long way.
var scanSeeds = []string{
	`{"external_id":"a","inputs":{"prompt":"p","image":{"url":"media/1.png"}},"meta":{"seed":1}}`,
	`{ "external_id" : "a" , "inputs" : { "b" : [ 1 , {"x": "}]\"{"} ] , "a":-1.5e3,"c" :true, "d":null ,"e":"\"q\\"} , "meta": {} }`,
	`{"external_id":"a","inputs":{"k":"1","k":"2"},"meta":null,"language":"en","gold":true}`,
	`{"external_id":"a","inputs":{},"ground_truth":{"answers":{"q":"yes","r":3,"s":["x"]},"provenance":"constructed","note":"n"}}`,
	`{"external_id":"a","inputs":{"p":"ключ"},"ground_truth":{"answers":null,"provenance":"rule"}}`,
	`{"external_id":"a","inputs":{"n":[0,-0,1e5,1E+5,2.5e-3,10,[],{}]},"gold":false}`,
	`{}`, `{"ground_truth":{}}`,
	`{"external_id":"a","inputs":{"p":"1","q":"2"},"inputs":{"p":"3"}}`,
	`{"External_ID":"a","INPUTS":{}}`,
	`{"external_id":"a","inputs":{"\u0070":"p"}}`,
	`{"external_id":"a\"b","inputs":{}}`,
	`{"external_id":"a","inputs":"p"}`,
	`{"external_id":"a","colour":1}`,
	`{"external_id":"a","inputs":{"n":01}}`,
	`{"external_id":"a","inputs":{"n":1.}}`,
	`{"external_id":"a","inputs":{"n":-}}`,
	`{"external_id":"a","inputs":{"s":"\x"}}`,
	`{"external_id":"a","inputs":{"s":"\u12"}}`,
	`{"external_id":"a","inputs":{"s":[1,]}}`,
	`{"external_id":"a","inputs":{"s":{"k":1,}}}`,
	`{"external_id":"a","gold":null}`,
	`{"external_id":"a","ground_truth":null}`,
	`{"external_id":"a"} {"external_id":"b"}`,
	`{"external_id": "broken",`,
	"{\"external_id\":\"a\xff\"}",
	"{\"external_id\":\"a\",\"inputs\":{\"s\":\"tab\there\"}}",
	`["not", "an", "object"]`,
}

// TestScanItemLine: the lines of the common shape are taken, each to what json.Unmarshal makes
// of it, and the rest left to the long way.
func TestScanItemLine(t *testing.T) {
	taken := 0
	for _, in := range scanSeeds {
		if checkScan(t, []byte(in)) {
			taken++
		}
	}
	if taken != 8 {
		t.Errorf("%d seed lines taken, want the first 8", taken)
	}
	p := d3omniProject(t)
	for _, truth := range []bool{false, true} {
		if line := d3omniLine(p.Schema, 7, truth); !checkScan(t, []byte(line)) {
			t.Errorf("%s: not taken", line)
		}
	}
}

// FuzzScanItemLine: a line scanItemLine takes is one the long way of decodeLine takes too
// (json.Unmarshal, and no unknown key), decoded to the same ItemLine.
func FuzzScanItemLine(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

// testNames are names some of the seeds' keys are among.
var testNames = &keyNames{inputs: []string{"image", "prompt", "k", "p", "q"}, questions: []string{"s", "r", "q"}}

// checkScan holds scanItemLine's result on data to the long way's, and reports whether the
// line was taken.
func checkScan(t *testing.T, data []byte) bool {
	t.Helper()
	var got, named ItemLine
	taken := scanItemLine(data, &got, nil)
	if scanItemLine(data, &named, testNames) != taken || !reflect.DeepEqual(got, named) {
		t.Fatalf("%q: scanned %#v without names, %#v with them", data, got, named)
	}
	if !taken {
		return false
	}
	var want ItemLine
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%q: taken, but json.Unmarshal refuses it: %v", data, err)
	}
	if err := unknownKeys(data, reflect.TypeFor[*ItemLine](), ""); err != nil {
		t.Fatalf("%q: taken, but the long way refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n  scanned %#v\n  json.Unmarshal %#v", data, got, want)
	}
	return true
}

// d3omniProject is a project of the d3omni-t2i template, without a database: parseLine needs
// only its schema and policy.
func d3omniProject(t testing.TB) *workflow.Project {
	t.Helper()
	tpl, ok := tasks.LookupTemplate("d3omni-t2i")
	if !ok {
		t.Fatal("no d3omni-t2i template")
	}
	pol, err := workflow.ParsePolicy([]byte(`{"overlap":3}`))
	if err != nil {
		t.Fatal(err)
	}
	schema := tpl.Schema
	return &workflow.Project{Project: &store.Project{ID: "p1"}, Policy: pol, Schema: &schema}
}

// d3omniLine is line i of the imports' benchmarks (items and truthItems in imports_test.go):
// with truth, with constructed ground truth answering every question.
func d3omniLine(schema *tasks.Schema, i int, truth bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"external_id":"item-%07d","inputs":{"prompt":"a prompt with some words in it, number %d","image":{"url":"media/%d.png"},"generator":"model-%d"},"meta":{"seed":%d}`, i, i, i, i%7, i)
	if truth {
		b.WriteString(`,"ground_truth":{"provenance":"constructed","answers":{`)
		for j, q := range schema.Questions {
			answer := "yes"
			if (i+j)%5 == 0 {
				answer = "no"
			}
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `%q:%q`, q.Key, answer)
		}
		b.WriteString("}}")
	}
	b.WriteString("}")
	return b.String()
}

// FuzzEncodeAnswers: answers are encoded in the questions' order sorted once as encodeObject
// encodes them (json.Marshal's bytes, TestEncodeObject), whichever keys they have.
func FuzzEncodeAnswers(f *testing.F) {
	f.Add([]byte(`"yes"`), []byte(` [1, 2] `), uint8(0b1011), "other")
	f.Add([]byte(`"a<b"`), []byte(`{"k":"\u2028"}`), uint8(0b0111), "q")
	f.Add([]byte(`{"unclosed": `), []byte(`null`), uint8(0b1111), "")
	names := newKeyNames(&tasks.Schema{Questions: []tasks.Question{{Key: "s"}, {Key: "r"}, {Key: "<q>"}, {Key: "é"}, {Key: "r"}}})
	f.Fuzz(func(t *testing.T, a, b []byte, pick uint8, extra string) {
		m := map[string]json.RawMessage{}
		for i, k := range []string{"s", "r", "<q>", "é"} {
			if pick&(1<<i) != 0 {
				m[k] = [][]byte{a, b}[i%2]
			}
		}
		if pick&(1<<4) != 0 {
			m[extra] = a
		}
		if pick&(1<<5) != 0 {
			m = nil
		}
		if got, want := names.encodeAnswers(m), encodeObject(m); string(got) != string(want) {
			t.Errorf("%v: encodeAnswers %s, encodeObject %s", m, got, want)
		}
	})
}
