package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestItemSample: a lead reads what an import takes, made from the schema (RoboJudge's hidden
// required generator included), and the sample's lines import as they are, into the
// calibration pool with their gold answers; an unknown pool is refused, and only leads read
// the sample.
func TestItemSample(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		base := "/api/v1/projects/" + pid
		type sample struct {
			Pool   string
			Inputs []struct {
				Name, Type       string
				Hidden, Optional bool
			}
			Lines []map[string]json.RawMessage
		}
		var prod, pool sample
		lead.must("GET", base+"/items/sample", nil, 200, &prod)
		lead.must("GET", base+"/items/sample?pool=calibration", nil, 200, &pool)
		hidden := map[string]bool{}
		for _, in := range prod.Inputs {
			hidden[in.Name] = in.Hidden
		}
		if prod.Pool != "production" || !hidden["generator"] || len(prod.Lines) == 0 || prod.Lines[0]["ground_truth"] != nil {
			t.Fatalf("production sample: %+v", prod)
		}
		var gt struct{ Answers map[string]json.RawMessage }
		if pool.Pool != "calibration" || json.Unmarshal(pool.Lines[0]["ground_truth"], &gt) != nil || gt.Answers["physical_adherence"] == nil {
			t.Fatalf("pool sample: %+v", pool)
		}
		var lines []string
		for _, l := range pool.Lines {
			b, _ := json.Marshal(l)
			lines = append(lines, string(b))
		}
		if rep := lead.importNDJSON(base+"/items?pool=calibration", lines...); rep["imported"].(float64) != float64(len(lines)) {
			t.Fatalf("the pool sample does not import: %v", rep)
		}
		if st, body := lead.do("GET", base+"/items/sample?pool=gold", nil); st != 422 || fieldError(t, body, "pool") != "invalid_value" {
			t.Fatalf("an unknown pool: %d %s", st, body)
		}
		if st, _ := ann.do("GET", base+"/items/sample", nil); st != 403 {
			t.Fatalf("an annotator read the sample: %d", st)
		}
	})
}

// TestImportPoolArchive: items with their media go into the calibration pool with their gold
// answers when the pool is chosen; the files become assets as in a production import.
func TestImportPoolArchive(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		var p struct{ ID string }
		e.admin.must("POST", "/api/v1/projects", map[string]any{"name": "zip", "template": "d3omni-t2i"}, 201, &p)
		var s struct{ Lines []map[string]any }
		e.admin.must("GET", "/api/v1/projects/"+p.ID+"/items/sample?pool=calibration", nil, 200, &s)
		line := s.Lines[0]
		line["inputs"].(map[string]any)["image"] = "img/a.png"
		b, _ := json.Marshal(line)
		status, body := archiveImportTo(t, e.admin, "/api/v1/projects/"+p.ID+"/items?pool=calibration", map[string][]byte{"img/a.png": pngBytes}, string(b)+"\n")
		var rep struct{ Imported int }
		if status != 200 || json.Unmarshal(body, &rep) != nil || rep.Imported != 1 {
			t.Fatalf("pool archive import: %d %s", status, body)
		}
		var page struct{ Items []struct{ Stage string } }
		e.admin.must("GET", "/api/v1/projects/"+p.ID+"/items?stage=calibration", nil, 200, &page)
		if len(page.Items) != 1 || countAssets(t, e) != 1 {
			t.Fatalf("pool items %+v, %d assets", page.Items, countAssets(t, e))
		}
		if st, body := e.admin.do("POST", "/api/v1/projects/"+p.ID+"/items?pool=calibration&async=true", strings.Repeat(string(b)+"\n", 1),
			"Content-Type", "application/x-ndjson"); st != 422 {
			t.Fatalf("an async pool import: %d %s", st, body)
		}
	})
}
