package tasks

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestGoldenViews pins what an annotator's browser receives for the first
// sample of every template (seed 1), next to the server-side shuffle. The
// files double as examples for the form renderer.
func TestGoldenViews(t *testing.T) {
	for _, tpl := range Templates() {
		t.Run(tpl.ID, func(t *testing.T) {
			v, err := tpl.Schema.ViewFor(RoleAnnotator, tpl.Samples[0], 1)
			if err != nil {
				t.Fatal(err)
			}
			golden := map[string]any{"view": v, "server_side_shuffle": v.Shuffle,
				"example_answers": tpl.Schema.ExampleAnswers()}
			if tpl.Schema.HasPasses() {
				golden["pass_views"] = passViews(t, tpl.Schema, tpl.Samples[0])
			}
			got := marshalGolden(t, golden)
			checkGolden(t, filepath.Join("testdata", "views", tpl.ID+".json"), got)
		})
	}
}

// passViews is what an annotator receives in each pass of a form with passes.
func passViews(t *testing.T, s Schema, item Item) []View {
	t.Helper()
	var out []View
	for i := range s.Passes {
		form, err := s.PassForm(i)
		if err != nil {
			t.Fatal(err)
		}
		v, err := form.ViewFor(RoleAnnotator, item, 1)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func marshalGolden(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tasks -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run go test ./tasks -run TestGolden -update and review the diff", path)
	}
}
