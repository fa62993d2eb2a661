package insight

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

var readSchema = &tasks.Schema{Questions: []tasks.Question{
	{Key: "ok", Kind: tasks.KindBinary},
	{Key: "score", Kind: tasks.KindLikert, Min: new(1), Max: new(5)},
	{Key: "tags", Kind: tasks.KindMultiChoice, Options: []tasks.Option{{Key: "a"}, {Key: "b"}, {Key: "c"}}},
	{Key: "why", Kind: tasks.KindText},
}}

// readDocs are answers documents of every shape addDocument meets: canonical, spaced, with
// nested values, escaped keys and strings, a repeated key, and ones that are not JSON.
var readDocs = []string{
	`{"ok":"yes","score":4,"tags":["a","c"],"why":"fine"}`,
	` { "ok" : "no" ,	"score":2 , "tags" : [ ] , "why" : "a \"quoted\" {word}" }` + "\n",
	`{"ok":"na","score":null,"tags":["b"],"why":{"nested":["x",{"y":"]"}]}}`,
	`{"ok":"yes","ok":"no","score":5}`,
	`{"ok":tru,"ok":"no"}`,
	`{"o\u006b":"yes","score":3}`,
	`{"ok":"yes","score":3.0,"extra":[1,2,[3]],"why":"\u00e9t\u00e9"}`,
	`{}`,
	`null`,
	``,
	`{"ok":"yes","score":tru}`,
	`{"ok":"yes","score":01}`,
	`{"ok":"yes","extra":{"a":]}}`,
	`{"ok":"yes"} trailing`,
	`{"ok":"yes",}`,
	`{"ok" "yes"}`,
	`{"ok":"yes","why":"bad \x escape"}`,
	`{"ok":"yes","why":"tab	inside"}`,
	"{\"o\nk\":\"yes\"}",
	`["ok","yes"]`,
	`{"ok":"yes"`,
	`{"ok":"yes","score":`,
	`{"ok":"yes","score":4`,
	`{"tags":["a","b"],"ok":"no","score":1}`,
}

// TestAddDocumentIsUnmarshalAndAdd reads every document both ways, json.Unmarshal into a map
// and Add, and addDocument, and checks that the same documents fail and that the tables
// built from the rest give the same figures.
func TestAddDocumentIsUnmarshalAndAdd(t *testing.T) {
	want, got := NewAgreementTables(readSchema), NewAgreementTables(readSchema)
	for round := range 3 { // the second and third rounds answer from the caches
		for i, doc := range readDocs {
			item, rater := fmt.Sprint("item", i%5), fmt.Sprint("rater", i+round)
			var answers map[string]json.RawMessage
			var errWant error
			if doc != "" {
				errWant = json.Unmarshal([]byte(doc), &answers)
			}
			if errWant != nil { // a failed document stops the job: the tables it went into are dropped
				if err := NewAgreementTables(readSchema).addDocument(item, rater, []byte(doc)); err == nil {
					t.Fatalf("%q: addDocument read it, json.Unmarshal fails: %v", doc, errWant)
				}
				continue
			}
			want.Add(item, rater, answers)
			if err := got.addDocument(item, rater, []byte(doc)); err != nil {
				t.Fatalf("%q: addDocument %v, json.Unmarshal reads it", doc, err)
			}
		}
	}
	fw, err := want.figures(50)
	if err != nil {
		t.Fatal(err)
	}
	fg, err := got.figures(50)
	if err != nil {
		t.Fatal(err)
	}
	if want.Labels != got.Labels || !reflect.DeepEqual(fw, fg) {
		t.Fatalf("labels %d, %d; figures differ:\n%s\n%s", got.Labels, want.Labels, show(fg), show(fw))
	}
	if fg.Questions[0].NRatings == 0 || fg.Questions[1].NRatings == 0 || fg.Questions[2].NRatings == 0 {
		t.Fatalf("no ratings read: %s", show(fg))
	}
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzMembers: whenever members reads a document and its values are JSON, json.Unmarshal
// decodes it to the same members.
func FuzzMembers(f *testing.F) {
	for _, d := range readDocs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		ms, ok := members(doc, nil)
		if !ok {
			return
		}
		got := map[string]json.RawMessage{}
		for _, m := range ms {
			if !json.Valid(m.raw) {
				return
			}
			got[string(m.key)] = m.raw
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(doc, &want); err != nil {
			t.Fatalf("%q: members read %d members, json.Unmarshal fails: %v", doc, len(ms), err)
		}
		if len(want) != len(got) {
			t.Fatalf("%q: members %v, json.Unmarshal %v", doc, got, want)
		}
		for k, v := range want {
			if string(got[k]) != string(v) {
				t.Fatalf("%q: member %q is %q, json.Unmarshal %q", doc, k, got[k], v)
			}
		}
	})
}
