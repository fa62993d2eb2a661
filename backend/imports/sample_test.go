package imports_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestSampleImports: the sample lines of every template import as they are, as production
// items and into the calibration pool, where each carries a gold answer to every question; the
// sample names the inputs the lines are checked against.
func TestSampleImports(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	for _, tpl := range tasks.Templates() {
		t.Run(tpl.ID, func(t *testing.T) {
			for _, pool := range []bool{false, true} {
				p := f.create(projects.ProjectSpec{Name: tpl.ID, Template: tpl.ID})
				s := imports.SampleOf(p, pool)
				if len(s.Lines) == 0 || len(s.Inputs) == 0 {
					t.Fatalf("pool %v: an empty sample %+v", pool, s)
				}
				var body []string
				for _, l := range s.Lines {
					b, _ := json.Marshal(l)
					body = append(body, string(b))
					if pool != (l.GroundTruth != nil) || pool && len(l.GroundTruth.Answers) != len(p.Schema.Questions) {
						t.Fatalf("pool %v: ground truth %+v", pool, l.GroundTruth)
					}
				}
				var rep *imports.ImportReport
				var err error
				if pool {
					rep, err = f.im.ImportPool(f.ctx, p, f.lead.ID, strings.NewReader(strings.Join(body, "\n")))
				} else {
					rep = f.importItems(p, body...)
				}
				if err != nil || rep.Imported != len(s.Lines) || len(rep.Errors) > 0 {
					t.Fatalf("pool %v: %v %+v\n%s", pool, err, rep, strings.Join(body, "\n"))
				}
			}
		})
	}
}
