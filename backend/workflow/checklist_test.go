package workflow_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// checklistPolicy is Judge Anything's: the drafted checklist refined before labeling.
func checklistPolicy(overlap int) workflow.Policy {
	return workflow.Policy{Overlap: overlap, Adjudication: workflow.AdjudicateNever,
		ChecklistStage: &workflow.ChecklistStage{Form: "checklist"}}
}

// judgeLine is a judgeanything-score item; checklist is its drafted checklist ("" for none).
func judgeLine(id, checklist string) string {
	in := fmt.Sprintf(`"question":"Describe %s","response":[{"id":"r-%s","type":"text","value":"An apple."}]`, id, id)
	if checklist != "" {
		in += `,"checklist":` + checklist
	}
	return fmt.Sprintf(`{"external_id":%q,"inputs":{%s}}`, id, in)
}

const drafted = `{"relevance":["Names the object","Says what it is for","Mentions the colour"],"clarity":["Is one sentence"]}`

// TestChecklistStage: an item with a drafted checklist is refined by one person before
// labeling; the label stage shows the refined lists, the item keeps the drafted ones, and the
// refiner does not label the item. An item without a checklist goes straight to labeling.
func TestChecklistStage(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("judgeanything-score", checklistPolicy(1))
		f.importItems(p, judgeLine("ja-1", drafted), judgeLine("ja-2", ""))
		if got := f.item(p, "ja-1").Stage; got != flow.StageChecklist {
			t.Fatalf("an item with a drafted checklist starts in %s", got)
		}
		if got := f.item(p, "ja-2").Stage; got != flow.StageLabel {
			t.Fatalf("an item without a checklist starts in %s", got)
		}
		refiner, judge := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)

		c := f.claim(p, refiner, flow.StageChecklist)
		if c.View.Schema.Title == p.Schema.Title || len(c.View.Schema.Questions) != 6 {
			t.Fatalf("the checklist stage is answered with %q (%d questions), not the checklist form", c.View.Schema.Title, len(c.View.Schema.Questions))
		}
		res := f.submit(p, refiner, c, workflow.Submission{Answers: ans(`{
			"relevance_checklist":[{"op":"keep","from":0},{"op":"reword","from":1,"text":"Names a use of the object"},{"op":"drop","from":2},{"op":"add","text":"Does not invent details"}],
			"clarity_checklist":[{"op":"keep","from":0}]}`), TimeSpentMS: 4000})
		if res.ItemStage != flow.StageLabel {
			t.Fatalf("item %s after its checklist was refined", res.ItemStage)
		}
		it := f.item(p, "ja-1")
		var inputs struct {
			Checklist map[string][]string `json:"checklist"`
		}
		var kept map[string]map[string][]string
		if err := json.Unmarshal(it.Inputs, &inputs); err != nil || json.Unmarshal(it.Drafted, &kept) != nil {
			t.Fatalf("inputs %s drafted %s: %v", it.Inputs, it.Drafted, err)
		}
		want := []string{"Names the object", "Names a use of the object", "Does not invent details"}
		if fmt.Sprint(inputs.Checklist["relevance"]) != fmt.Sprint(want) || fmt.Sprint(inputs.Checklist["clarity"]) != "[Is one sentence]" {
			t.Fatalf("refined checklist %v, want relevance %v", inputs.Checklist, want)
		}
		if len(kept["checklist"]["relevance"]) != 3 || kept["checklist"]["relevance"][2] != "Mentions the colour" {
			t.Fatalf("the drafted checklist was not kept: %s", it.Drafted)
		}
		if !f.audited(p, "item.checklist") {
			t.Fatal("the refinement has no audit event")
		}

		// note: the refiner's label work is ja-2 only; they never label the item they refined
		own := f.claim(p, refiner, flow.StageLabel)
		if own.Assignment.ItemID == it.ID {
			t.Fatal("the refiner was given the item they refined to label")
		}
		lc := f.claim(p, judge, flow.StageLabel)
		for lc.Assignment.ItemID != it.ID {
			lc = f.claim(p, judge, flow.StageLabel)
		}
		var shown map[string][]string
		if err := json.Unmarshal(lc.View.Item.Inputs["checklist"], &shown); err != nil || len(shown["relevance"]) != 3 || shown["relevance"][1] != want[1] {
			t.Fatalf("the label stage shows checklist %s, want the refined one", lc.View.Item.Inputs["checklist"])
		}
	})
}

// TestChecklistStageRefusesBadEdits: edits that leave a list outside its bounds, or leave an
// entry undecided, are refused and the item stays in the stage.
func TestChecklistStageRefusesBadEdits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("judgeanything-score", checklistPolicy(1))
		f.importItems(p, judgeLine("ja-1", drafted))
		refiner := f.member(p, store.RoleAnnotator)
		c := f.claim(p, refiner, flow.StageChecklist)
		for _, bad := range []string{
			`{"clarity_checklist":[{"op":"drop","from":0}]}`,                        // nothing left: min 1
			`{"relevance_checklist":[{"op":"keep","from":0}]}`,                      // two entries undecided
			`{"clarity_checklist":[{"op":"keep","from":0},{"op":"keep","from":0}]}`, // decided twice
		} {
			if _, err := f.wf.Submit(f.ctx, p, refiner.w(), c.Assignment.ID, workflow.Submission{Answers: ans(bad)}); err == nil {
				t.Errorf("edits %s were accepted", bad)
			}
		}
		if got := f.item(p, "ja-1").Stage; got != flow.StageChecklist {
			t.Fatalf("item %s after refused edits", got)
		}
	})
}

// TestChecklistPolicy: the stage names a form of the project with list_edit questions over a
// json input, and is not combined with criteria authoring.
func TestChecklistPolicy(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("judgeanything-score", checklistPolicy(1))
		field := func(pol workflow.Policy) []string {
			fe, _ := pol.Defaults().Validate(p.Schema, p.Forms).(tasks.FieldErrors)
			return slices.Sorted(maps.Keys(fe))
		}
		unknown := checklistPolicy(1)
		unknown.ChecklistStage.Form = "nope"
		both := checklistPolicy(1)
		both.CriteriaStage = &workflow.CriteriaStage{Form: "checklist", Question: "relevance_checklist", InputName: "question"}
		for name, tc := range map[string]struct {
			pol  workflow.Policy
			want []string
		}{
			"unknown form":                  {unknown, []string{"workflow.checklist_stage.form"}},
			"criteria and checklist stages": {both, []string{"workflow.checklist_stage", "workflow.criteria_stage.question"}},
			"Judge Anything's":              {checklistPolicy(1), nil},
		} {
			if got := field(tc.pol); !slices.Equal(got, tc.want) {
				t.Errorf("%s: errors at %v, want %v", name, got, tc.want)
			}
		}
	})
}
