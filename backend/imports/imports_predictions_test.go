package imports_test

import (
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestImportPredictions: predictions attach to existing items by external id, one per model
// (a second import of a model replaces its answers); a prediction may leave questions out but
// not answer them wrongly, and each refused line says why.
func TestImportPredictions(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.photos(workflow.Policy{})
			f.importItems(p, `{"external_id":"a","inputs":{"prompt":"p","photo":"a.png"}}`)
			lines := []struct{ line, want string }{
				{`{"external_id":"a","model":"m1","answers":{"sharp":"yes","score":2}}`, ""},
				{`{"external_id":"a","model":"m2","answers":{"score":3}}`, ""},
				{`{"external_id":"a","model":"m3","answers":{"score":7}}`, "invalid item"},
				{`{"external_id":"a","answers":{"score":3}}`, "external_id and model are required"},
				{`{"external_id":"zz","model":"m1","answers":{}}`, `no item with external_id "zz"`},
				{`{"external_id":"a","model":"m1","answers":{},"confidence":1}`, `unknown field "confidence" confidence=unknown_field`},
				{`not json`, "malformed JSON"},
			}
			var body []string
			for _, l := range lines {
				body = append(body, l.line)
			}
			var progress []int
			rep, err := f.im.ImportFile(f.ctx, p, flow.ImportPredictions, f.lead.ID, ndjson(body...), func(n int) { progress = append(progress, n) })
			if err != nil {
				t.Fatal(err)
			}
			got := lineErrors(rep)
			for i, l := range lines {
				if msg := got[i+1]; (l.want == "") != (msg == "") || !strings.Contains(msg, l.want) {
					t.Errorf("line %d: %q, want %q", i+1, msg, l.want)
				}
			}
			if rep.Imported != 2 || len(progress) != 1 || progress[0] != len(lines) {
				t.Fatalf("report %+v, progress %v", rep, progress)
			}
			item := f.item(p, "a")
			f.predictions(item.ID, map[string]string{"m1": `"yes"`, "m2": ""})
			rep, err = f.im.ImportPredictions(f.ctx, p, f.lead.ID, ndjson(`{"external_id":"a","model":"m1","answers":{"sharp":"no"}}`), nil)
			if err != nil || rep.Imported != 1 {
				t.Fatalf("second import: %v %+v", err, rep)
			}
			f.predictions(item.ID, map[string]string{"m1": `"no"`, "m2": ""})
		})
	}
}

// predictions checks an item's predictions: for each model, its answer to "sharp".
func (f *fixture) predictions(itemID string, want map[string]string) {
	f.t.Helper()
	ps, err := f.st.Predictions(f.ctx, itemID)
	if err != nil {
		f.t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range ps {
		got[p.Model] = answer(f.t, p.Answers, "sharp")
	}
	if len(got) != len(want) {
		f.t.Fatalf("predictions %v, want %v", got, want)
	}
	for m, w := range want {
		if g, ok := got[m]; !ok || g != w {
			f.t.Fatalf("predictions %v, want %v", got, want)
		}
	}
}
