package exports

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestNormalize checks the values decode gives as analysed.
func TestNormalize(t *testing.T) {
	s := kitchenSink()
	d := newDecoder(&s)
	tests := []struct {
		key  string
		raw  string
		want any
	}{
		{"bin", `"yes"`, true},
		{"bin", `"no"`, false},
		{"bin", `"na"`, true}, // na_means satisfied
		{"defect", `"yes"`, false},
		{"defect", `"no"`, true},
		{"na_missing", `"na"`, nil},
		{"lik", `3`, int64(3)},
		{"lik_na", `"na"`, nil},
		{"mc", `["c","a"]`, []string{"a", "c"}}, // option order
		{"pw", `"tie"`, "tie"},
		{"cl", `{"y":1,"x":2}`, map[string]int64{"x": 2, "y": 1}},
	}
	for _, tt := range tests {
		_, norm, _, _, err := d.decode(tasks.Answers{tt.key: raw(tt.raw)})
		if err != nil {
			t.Fatal(err)
		}
		if got := norm[tt.key]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: got %#v, want %#v", tt.key, tt.raw, got, tt.want)
		}
	}
}

func TestDecoderRejects(t *testing.T) {
	s := kitchenSink()
	d := newDecoder(&s)
	tests := []struct {
		name, key, raw string
	}{
		{"likert out of range", "lik", `6`},
		{"N/A not allowed", "defect", `"na"`},
		{"unknown option", "ch", `"angry"`},
		{"checklist item missing", "cl", `{"x":1}`},
		{"checklist over max", "cl", `{"x":3,"y":0}`},
		{"ranking slot twice", "rank", `["A","A","B"]`},
		{"unknown question", "nope", `1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the second pass goes through the cache
				if _, _, _, bad, err := d.decode(tasks.Answers{"bin": raw(`"yes"`), tt.key: raw(tt.raw)}); err == nil || bad != tt.key {
					t.Fatalf("got bad=%q err=%v, want an error on %s", bad, err, tt.key)
				}
			}
		})
	}
	if _, _, _, _, err := d.decode(tasks.Answers{"lik": raw(`2`)}); err != nil {
		t.Errorf("a partial ground truth is refused: %v", err)
	}
	for range 20 { // note: map order varies; the error names the first unknown key in sorted order
		a := tasks.Answers{"zz": raw(`1`), "": raw(`1`), "nope": raw(`1`), "lik": raw(`9`), "bin": raw(`"yes"`)}
		if _, _, _, bad, err := d.decode(a); err == nil || bad != "" {
			t.Fatalf("got bad=%q err=%v, want an error on the empty key", bad, err)
		}
		delete(a, "")
		if _, _, _, bad, err := d.decode(a); err == nil || bad != "nope" {
			t.Fatalf("got bad=%q err=%v, want an error on nope", bad, err)
		}
	}
}

func TestItemAgreement(t *testing.T) {
	s := kitchenSink()
	lab := func(kv ...string) Label {
		a := tasks.Answers{}
		for i := 0; i < len(kv); i += 2 {
			a[kv[i]] = raw(kv[i+1])
		}
		return Label{Answers: a}
	}
	half, third := 0.5, 0.3333
	tests := []struct {
		name   string
		labels []Label
		want   *ItemAgreement
	}{
		{"no labels", nil, nil},
		{"one label", []Label{lab("bin", `"yes"`)}, &ItemAgreement{Labels: 1}},
		{"N/A counted as yes agrees with yes", []Label{lab("bin", `"na"`), lab("bin", `"yes"`)},
			&ItemAgreement{Labels: 2, PercentAgreement: ptr(1.0), Questions: map[string]float64{"bin": 1}}},
		{"missing N/A is left out", []Label{lab("na_missing", `"na"`), lab("na_missing", `"yes"`)}, &ItemAgreement{Labels: 2}},
		{"three labels, one pair agrees", []Label{lab("pw", `"A"`), lab("pw", `"B"`), lab("pw", `"A"`)},
			&ItemAgreement{Labels: 3, PercentAgreement: ptr(third), Questions: map[string]float64{"pw": third}}},
		{"mean over questions; text ignored", []Label{lab("lik", `2`, "cl", `{"x":1,"y":1}`, "txt", `"a"`), lab("lik", `3`, "cl", `{"y":1,"x":1}`, "txt", `"b"`)},
			&ItemAgreement{Labels: 2, PercentAgreement: ptr(half), Questions: map[string]float64{"lik": 0, "cl": 1}}},
	}
	shared := newDecoder(&s) // one decoder for every item, as an export has: its kept values are reused
	for round := range 2 {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%d", tt.name, round), func(t *testing.T) {
				for name, got := range map[string]*ItemAgreement{"alone": itemAgreement(&s, tt.labels), "shared": shared.itemAgreement(tt.labels)} {
					if !reflect.DeepEqual(got, tt.want) {
						gb, _ := json.Marshal(got)
						wb, _ := json.Marshal(tt.want)
						t.Errorf("%s: got %s, want %s", name, gb, wb)
					}
				}
			})
		}
	}
}

// TestCountedLabels: a rejected label does not count, and a corrected one counts with its
// reviewer's answers under the reviewer; the others count as given.
func TestCountedLabels(t *testing.T) {
	labels := []Label{
		{Annotator: "a", Answers: tasks.Answers{"pw": raw(`"A"`)}, Review: "corrected"},
		{Annotator: "b", Answers: tasks.Answers{"pw": raw(`"B"`)}, Review: "approved"},
		{Annotator: "c", Answers: tasks.Answers{"pw": raw(`"A"`)}, Review: ReviewRejected},
		{Annotator: "d", Answers: tasks.Answers{"pw": raw(`"B"`)}},
	}
	reviews := []Review{
		{Reviewer: "r", Role: RoleReviewer, Annotator: "a", Verdict: "correct", Answers: tasks.Answers{"pw": raw(`"B"`)}},
		{Reviewer: "r", Role: RoleReviewer, Annotator: "b", Verdict: "approve"},
		{Reviewer: "r", Role: RoleReviewer, Annotator: "c", Verdict: "reject"},
	}
	got := countedLabels(labels, reviews)
	var by []string
	for _, l := range got {
		by = append(by, l.Annotator+"="+string(l.Answers["pw"]))
	}
	if want := `[r="B" b="B" d="B"]`; fmt.Sprint(by) != want {
		t.Fatalf("counted %v, want %s", by, want)
	}
	s := kitchenSink()
	if a := itemAgreement(&s, got); a.Labels != 3 || a.PercentAgreement == nil || *a.PercentAgreement != 1 {
		t.Fatalf("agreement %+v", a)
	}
	if labels[0].Annotator != "a" || string(labels[0].Answers["pw"]) != `"A"` {
		t.Fatalf("the labels were changed: %+v", labels[0])
	}
}

func ptr[T any](v T) *T { return &v }

func TestCanonJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, `"plain"`},
		{` "padded" `, `"padded"`},
		{`{"b":1,"a":{"d":[1, 2],"c":null}}`, `{"a":{"c":null,"d":[1,2]},"b":1}`},
		{`[1.50, 2e3]`, `[1.50,2e3]`}, // numbers keep their text
		{`"<&>"`, `"<&>"`},
		{`["a b", "c"]`, `["a b","c"]`},
	}
	for _, tt := range tests {
		got, err := canonJSON(json.RawMessage(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: got %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `tru`, `"open`, `[1,]`} {
		if _, err := canonJSON(json.RawMessage(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
