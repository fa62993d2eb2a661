package releases_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestStoryBenchMeans: a StoryBench project with the template's defaults, two raters giving
// (2, 9) on one item and (5, 6) on another: both items are decided and released, nothing is
// dropped, every evaluation is a record of all_results.json and the human mean of every
// criterion is 5.5, as the paper's human means weight every evaluation equally.
func TestStoryBenchMeans(t *testing.T) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			f := newFixture(t, b.Open(t), testenv.LocalBlobs(t))
			ctx := context.Background()
			lead, err := f.st.User(ctx, f.user)
			if err != nil {
				t.Fatal(err)
			}
			d, err := f.projects.CreateProject(ctx, lead, projects.ProjectSpec{Name: "Stories", Template: "storybench-text"})
			if err != nil {
				t.Fatal(err)
			}
			p, _ := f.st.Project(ctx, d.ID)
			if f.fp, err = f.flow.LoadProject(ctx, p, 0); err != nil {
				t.Fatal(err)
			}
			if pol := f.fp.Policy; pol.Overlap != 2 || pol.Aggregation.Default != workflow.AggregateMean || pol.Adjudication != workflow.AdjudicateNever {
				t.Fatalf("the template's policy was not applied: %+v", pol)
			}
			tpl, _ := tasks.LookupTemplate("storybench-text")
			sample := tpl.Samples[0]
			var lines []string
			for _, id := range []string{"s-1", "s-2"} {
				line, _ := json.Marshal(map[string]any{"external_id": id, "inputs": sample.Inputs, "meta": map[string]any{"split": "test"}})
				lines = append(lines, string(line))
			}
			f.importLines(lines...)
			a, b := f.member("a@example.org", store.RoleAnnotator), f.member("b@example.org", store.RoleAnnotator)
			scores := map[string]map[*store.User]int{"s-1": {a: 2, b: 9}, "s-2": {a: 5, b: 6}}
			for _, u := range []*store.User{a, b} {
				for range 2 {
					aid := f.claim(u, flow.StageLabel)
					asg, _ := f.st.Assignment(ctx, aid.ID)
					score := scores[f.externalID(asg.ItemID)][u]
					answers := tasks.Answers{}
					for _, q := range f.fp.Schema.Questions {
						v := any(score)
						if q.Kind == tasks.KindText {
							v = fmt.Sprintf("%s gives %d", u.Email, score)
						}
						answers[q.Key], _ = json.Marshal(v)
					}
					f.submit(u, aid.ID, workflow.Submission{Answers: answers, TimeSpentMS: 4000})
				}
			}
			for _, id := range []string{"s-1", "s-2"} {
				if it := f.item(id); it.Stage != flow.StageDone {
					t.Fatalf("%s is %s (%v), want done", id, it.Stage, it.DropReason)
				}
			}
			rid := f.start([]string{"storybench", "jsonl"}, nil)
			if err := f.rel.Run(ctx, rid); err != nil {
				t.Fatal(err)
			}
			if r := f.get(rid); r.Status != flow.ReleaseDone || r.Summary.Records != 2 || r.Summary.ByProvenance["aggregated"] != 2 {
				t.Fatalf("release %+v %+v", r, r.Summary)
			}
			var results []map[string]any
			if err := json.Unmarshal(f.file(rid, "storybench/test/text/all_results.json"), &results); err != nil {
				t.Fatal(err)
			}
			if len(results) != 4 {
				t.Fatalf("all_results holds %d records, want every evaluation (4)", len(results))
			}
			for _, r := range results {
				if r["evaluator"] == nil || r["status"] != "ok" {
					t.Fatalf("an evaluation record %v", r)
				}
			}
			var summary struct {
				Alpha    *float64 `json:"krippendorff_alpha_ordinal_pooled"`
				Records  int      `json:"records"`
				Criteria map[string]struct {
					Scored    int      `json:"scored"`
					ValidOnly *float64 `json:"valid_only"`
				} `json:"criteria"`
			}
			if err := json.Unmarshal(f.file(rid, "storybench/test/text/summary.json"), &summary); err != nil {
				t.Fatal(err)
			}
			if summary.Records != 4 || len(summary.Criteria) != 4 {
				t.Fatalf("summary %+v", summary)
			}
			// note: the paper's α per track pools the criteria: one unit per item and criterion
			pooled := agreement.NewBuilder(agreement.Ordinal, 16)
			for item, by := range map[string][2]int{"s-1": {2, 9}, "s-2": {5, 6}} {
				for k := range summary.Criteria {
					pooled.Add(item+"/"+k, "a", fmt.Sprint(by[0]))
					pooled.Add(item+"/"+k, "b", fmt.Sprint(by[1]))
				}
			}
			table, err := pooled.Build()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := agreement.AlphaLevel(table, agreement.Ordinal)
			if summary.Alpha == nil || math.Abs(*summary.Alpha-math.Round(want*1e4)/1e4) > 1e-12 {
				t.Fatalf("pooled α %v, want %.4f", summary.Alpha, want)
			}
			for k, c := range summary.Criteria {
				if c.Scored != 4 || c.ValidOnly == nil || *c.ValidOnly != 5.5 {
					t.Fatalf("criterion %s: %+v, want the mean of every evaluation, 5.5", k, c)
				}
			}
			jsonl := strings.Split(strings.TrimSpace(string(f.file(rid, "jsonl/test.jsonl"))), "\n")
			if len(jsonl) != 2 {
				t.Fatalf("jsonl holds %d records", len(jsonl))
			}
			for _, line := range jsonl {
				var rec struct {
					ExternalID string `json:"external_id"`
					Aggregates map[string]struct {
						Rule  string   `json:"rule"`
						N     int      `json:"n"`
						Value float64  `json:"value"`
						Min   float64  `json:"min"`
						Max   float64  `json:"max"`
						SD    *float64 `json:"sd"`
					} `json:"aggregates"`
				}
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatal(err)
				}
				want := map[string][2]float64{"s-1": {2, 9}, "s-2": {5, 6}}[rec.ExternalID]
				if len(rec.Aggregates) != 4 {
					t.Fatalf("%s aggregates %+v", rec.ExternalID, rec.Aggregates)
				}
				for k, a := range rec.Aggregates {
					if a.Rule != "mean" || a.N != 2 || a.Value != 5.5 || a.Min != want[0] || a.Max != want[1] || a.SD == nil {
						t.Fatalf("%s %s: %+v", rec.ExternalID, k, a)
					}
				}
			}
		})
	}
}
