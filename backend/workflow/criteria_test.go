package workflow_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// criteriaPolicy runs Omni-Reward's criteria authoring before labeling.
func criteriaPolicy(authors int) workflow.Policy {
	return workflow.Policy{CriteriaStage: &workflow.CriteriaStage{Form: "criteria", Question: "criteria", InputName: "criterion", Overlap: authors}}
}

func criteriaLine(id string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"Two boats at sunset","responses":[{"id":"a","type":"text","value":"one"},{"id":"b","type":"text","value":"two"}]}}`, id)
}

// writeCriteria claims criteria work and submits the texts.
func (f *fixture) writeCriteria(p *workflow.Project, who person, texts ...string) *workflow.Result {
	f.t.Helper()
	c := f.claim(p, who, flow.StageCriteria)
	if c.View.Schema.Questions[0].Key != "criteria" {
		f.t.Fatalf("criteria work shows the form %v", c.View.Schema.Questions[0].Key)
	}
	raw, _ := json.Marshal(map[string][]string{"criteria": texts})
	return f.submit(p, who, c, workflow.Submission{Answers: ans(string(raw))})
}

// criteria lists an item's criteria by text.
func (f *fixture) criteria(p *workflow.Project, itemID string) map[string]store.Criterion {
	f.t.Helper()
	cs, err := f.st.Criteria(f.ctx, p.ID, "", itemID, 100)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]store.Criterion{}
	for _, c := range cs {
		out[c.Text] = c
	}
	return out
}

// TestCriteria: criteria are collected from every author, then reviewed one by one; a valid
// one becomes a child unit to label (never by its author), and the item is split once every
// criterion is marked.
func TestCriteria(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("omnireward-pair", criteriaPolicy(2))
		f.importItems(p, criteriaLine("cr-1"), criteriaLine("cr-2"))
		a, b := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		first := f.writeCriteria(p, a, "The light looks like a sunset", "  Both boats are white  ")
		itemID := first.Assignment.ItemID
		if first.ItemStage != flow.StageCriteria {
			t.Fatalf("item %s after one of two authors", first.ItemStage)
		}
		cs := f.criteria(p, itemID)
		sunset, white := cs["The light looks like a sunset"], cs["Both boats are white"]
		if sunset.Status != flow.CriterionPending || sunset.AuthorID != a.ID || white.ID == "" {
			t.Fatalf("criteria %+v", cs)
		}
		valid := workflow.CriterionVerdict{Status: flow.CriterionValid}
		got, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, sunset.ID, valid)
		if err != nil || got.ChildItemID == nil || *got.ReviewedBy != f.lead.ID {
			t.Fatalf("valid criterion %+v %v", got, err)
		}
		child := f.itemByID(p, *got.ChildItemID)
		if child.Stage != flow.StageLabel || *child.ParentID != itemID || !jsonHas(child.Inputs, "criterion", sunset.Text) {
			t.Fatalf("child unit %s %s", child.Stage, child.Inputs)
		}
		if it := f.itemByID(p, itemID); it.Stage != flow.StageCriteria {
			t.Fatalf("the item closed while an author was still writing: %s", it.Stage)
		}

		second := f.writeCriteria(p, b, "Sunset light on the water")
		if second.Assignment.ItemID != itemID || second.ItemStage != flow.StageCriteriaReview {
			t.Fatalf("item %s once every author wrote", second.ItemStage)
		}
		dup := f.criteria(p, itemID)["Sunset light on the water"]
		elsewhere := f.writeCriteria(p, a, "The sea is calm and flat")
		far := f.criteria(p, elsewhere.Assignment.ItemID)["The sea is calm and flat"]

		refusals := []struct {
			name  string
			actor string
			id    string
			in    workflow.CriterionVerdict
			err   error
			field string
			code  string
		}{
			{"unknown status", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: "great"}, nil, "status", "invalid_value"},
			{"pending is no verdict", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionPending}, nil, "status", "invalid_value"},
			{"duplicate of nothing", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionDuplicate}, nil, "duplicate_of", "invalid_value"},
			{"valid names an original", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionValid, DuplicateOf: sunset.ID}, nil, "duplicate_of", "invalid_value"},
			{"original unknown", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionDuplicate, DuplicateOf: "nope"}, nil, "duplicate_of", "not_found"},
			{"duplicate of itself", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionDuplicate, DuplicateOf: dup.ID}, nil, "duplicate_of", "invalid_value"},
			{"duplicate of another item's", f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionDuplicate, DuplicateOf: far.ID}, nil, "duplicate_of", "invalid_value"},
			{"own criterion", b.ID, dup.ID, valid, workflow.ErrOwnWork, "", ""},
			{"already reviewed", f.lead.ID, sunset.ID, valid, workflow.ErrAlreadyDone, "", ""},
			{"no such criterion", f.lead.ID, "nope", valid, store.ErrNotFound, "", ""},
		}
		for _, tc := range refusals {
			t.Run(tc.name, func(t *testing.T) {
				_, err := f.wf.ReviewCriterion(f.ctx, p, tc.actor, tc.id, tc.in)
				if tc.field != "" {
					wantField(t, err, tc.field, tc.code)
					return
				}
				wantErr(t, err, tc.err)
			})
		}

		if _, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, dup.ID, workflow.CriterionVerdict{Status: flow.CriterionDuplicate, DuplicateOf: sunset.ID}); err != nil {
			t.Fatal(err)
		}
		_, err = f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, white.ID, workflow.CriterionVerdict{Status: flow.CriterionDuplicate, DuplicateOf: dup.ID})
		wantField(t, err, "duplicate_of", "invalid_value")
		if _, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, white.ID, workflow.CriterionVerdict{Status: flow.CriterionTooSpecific}); err != nil {
			t.Fatal(err)
		}
		if it := f.itemByID(p, itemID); it.Stage != flow.StageSplit {
			t.Fatalf("item %s once every criterion is marked", it.Stage)
		}
		if cs := f.criteria(p, itemID); cs[dup.Text].ChildItemID != nil || *cs[dup.Text].DuplicateOf != sunset.ID {
			t.Fatalf("a duplicate made a child unit: %+v", cs[dup.Text])
		}

		if c := f.next(p, a, flow.StageLabel); c != nil && c.Assignment.ItemID == child.ID {
			t.Fatal("the author was given their own criterion to label")
		}
		labeler := f.member(p, store.RoleAnnotator)
		if c := f.claim(p, labeler, flow.StageLabel); c.Assignment.ItemID != child.ID || c.View.Item.Inputs["criterion"] == nil {
			t.Fatalf("the child unit was not handed out to label: %+v", c.Assignment)
		}
	})
}

// TestCriteriaNoneValid: an item whose criteria are all refused is dropped.
func TestCriteriaNoneValid(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("omnireward-pair", criteriaPolicy(0))
		f.importItems(p, criteriaLine("nv-1"))
		a := f.member(p, store.RoleAnnotator)
		res := f.writeCriteria(p, a, "It should be good overall")
		if res.ItemStage != flow.StageCriteriaReview {
			t.Fatalf("item %s after its one author", res.ItemStage)
		}
		c := f.criteria(p, res.Assignment.ItemID)["It should be good overall"]
		if _, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, c.ID, workflow.CriterionVerdict{Status: flow.CriterionTooVague}); err != nil {
			t.Fatal(err)
		}
		it := f.itemByID(p, res.Assignment.ItemID)
		if it.Stage != flow.StageDropped || deref(it.DropReason) != "no valid criteria" {
			t.Fatalf("item %s (%v)", it.Stage, deref(it.DropReason))
		}
	})
}

// jsonHas reports whether a JSON object holds the string value at key.
func jsonHas(raw store.JSON, key, want string) bool {
	var m map[string]any
	return json.Unmarshal(raw, &m) == nil && m[key] == want
}

// TestCriteriaUnitLanguage: a unit is in its input's language, so only those who read it are
// given it to label.
func TestCriteriaUnitLanguage(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("omnireward-pair", criteriaPolicy(1))
		f.importItems(p, `{"language":"fr",`+criteriaLine("fr-1")[1:])
		author, en, fr := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		for who, langs := range map[string][]string{en.ID: {"en"}, fr.ID: {"fr"}} {
			if err := f.st.SetMemberLanguages(f.ctx, p.ID, who, langs); err != nil {
				t.Fatal(err)
			}
		}
		res := f.writeCriteria(p, author, "La lumière est celle d'un coucher de soleil")
		c := f.criteria(p, res.Assignment.ItemID)["La lumière est celle d'un coucher de soleil"]
		got, err := f.wf.ReviewCriterion(f.ctx, p, f.lead.ID, c.ID, workflow.CriterionVerdict{Status: flow.CriterionValid})
		if err != nil {
			t.Fatal(err)
		}
		if child := f.itemByID(p, *got.ChildItemID); child.Language != "fr" {
			t.Fatalf("the unit's language: %q", child.Language)
		}
		if c := f.next(p, en, flow.StageLabel); c != nil {
			t.Fatal("a French unit was given to someone who reads only English")
		}
		f.claim(p, fr, flow.StageLabel)
	})
}
