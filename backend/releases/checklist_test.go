package releases_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestChecklistRefinementRelease: a Judge Anything item whose drafted checklist a person refined
// in the checklist stage (kept, reworded, dropped and added entries) before another person
// scored it is released with checklist.json holding the refined lists, the drafted ones, each
// entry's origin and the refiner's pseudonym, and the jsonl record with the same refinements.
func TestChecklistRefinementRelease(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			f.useTemplate("judgeanything-score", workflow.Policy{Overlap: 1, Adjudication: workflow.AdjudicateNever,
				ChecklistStage: &workflow.ChecklistStage{Form: "checklist"}})
			f.importLines(`{"external_id":"ja-i2t-0031","meta":{"uniq_id":"q-31","task_name":"Image2Text"},"inputs":{"question":"Describe the object.",` +
				`"response":[{"id":"r-31","type":"text","value":"A red apple."}],` +
				`"checklist":{"relevance":["Identifies the object as an apple","Gives at least one use","Mentions the stem"],"clarity":["Is easy to follow"]}}}`)
			refiner, judge := f.member("refiner@example.org", store.RoleAnnotator), f.member("judge@example.org", store.RoleAnnotator)
			c := f.claim(refiner, flow.StageChecklist)
			f.submit(refiner, c.ID, workflow.Submission{Answers: tasks.Answers{
				"relevance_checklist": json.RawMessage(`[{"op":"keep","from":0},{"op":"reword","from":1,"text":"Names one use of an apple"},{"op":"drop","from":2},{"op":"add","text":"Says nothing the image does not show"}]`),
				"clarity_checklist":   json.RawMessage(`[{"op":"keep","from":0}]`),
			}, TimeSpentMS: 40_000})
			tpl, _ := tasks.LookupTemplate("judgeanything-score")
			c = f.claim(judge, flow.StageLabel)
			f.submit(judge, c.ID, workflow.Submission{Answers: tpl.Schema.ExampleAnswers(), TimeSpentMS: 30_000})
			if it := f.item("ja-i2t-0031"); it.Stage != flow.StageDone {
				t.Fatalf("the item is in %s", it.Stage)
			}
			ctx := context.Background()
			id := f.start([]string{"jsonl", "judgeanything"}, nil)
			if err := f.rel.Run(ctx, id); err != nil || f.get(id).Status != flow.ReleaseDone {
				t.Fatalf("release: %v %+v", err, f.get(id))
			}
			salt, _ := releases.Salt(ctx, f.rel, f.fp.ID)
			by := exports.Pseudonym(salt, refiner.ID)

			var rows []struct {
				UniqID     string                 `json:"uniq_id"`
				Rubric     string                 `json:"rubric"`
				Checklists []string               `json:"checklists"`
				Drafted    []string               `json:"drafted"`
				Entries    []exports.RefinedEntry `json:"entries"`
				Dropped    []string               `json:"dropped"`
				RefinedBy  string                 `json:"refined_by"`
			}
			if err := json.Unmarshal(f.file(id, "judgeanything/test/checklist.json"), &rows); err != nil || len(rows) != 2 {
				t.Fatalf("checklist.json: %v %+v", err, rows)
			}
			rel := rows[1]
			if rows[0].Rubric != "clarity" || rel.Rubric != "relevance" || rel.UniqID != "q-31" {
				t.Fatalf("rows %+v", rows)
			}
			want := []exports.RefinedEntry{
				{Text: "Identifies the object as an apple", Origin: exports.OriginDrafted},
				{Text: "Names one use of an apple", Origin: exports.OriginReworded, Drafted: "Gives at least one use"},
				{Text: "Says nothing the image does not show", Origin: exports.OriginAdded},
			}
			if len(rel.Entries) != 3 || rel.Entries[0] != want[0] || rel.Entries[1] != want[1] || rel.Entries[2] != want[2] {
				t.Fatalf("entries %+v, want %+v", rel.Entries, want)
			}
			if len(rel.Checklists) != 3 || rel.Checklists[1] != want[1].Text || len(rel.Drafted) != 3 || len(rel.Dropped) != 1 ||
				rel.Dropped[0] != "Mentions the stem" || rel.RefinedBy != by || rel.RefinedBy == refiner.ID {
				t.Fatalf("relevance row %+v: want the refined list, the drafted one, the dropped entry and the refiner %s", rel, by)
			}
			var rec struct{ Refinements []exports.Refinement }
			if err := json.Unmarshal(bytes.TrimSpace(f.file(id, "jsonl/test.jsonl")), &rec); err != nil {
				t.Fatal(err)
			}
			if len(rec.Refinements) != 2 || rec.Refinements[0].Key != "relevance" || rec.Refinements[0].By != by || len(rec.Refinements[0].Entries) != 3 {
				t.Fatalf("jsonl refinements %+v", rec.Refinements)
			}
		})
	}
}
