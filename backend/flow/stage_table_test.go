package flow_test

import (
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestStageTable: every stage is in the table once, the work stages are the production stages
// with a role in workflow order, and each stage names the role that works it.
func TestStageTable(t *testing.T) {
	seen := map[flow.Stage]bool{}
	for _, r := range flow.Stages {
		if seen[r.Stage] {
			t.Errorf("%s is in the table twice", r.Stage)
		}
		seen[r.Stage] = true
		if !r.Stage.Valid() {
			t.Errorf("%s is in the table but not valid", r.Stage)
		}
	}
	if len(flow.ItemStages) != len(flow.Stages) {
		t.Errorf("item stages %v, table has %d rows", flow.ItemStages, len(flow.Stages))
	}
	want := []flow.Stage{flow.StageCriteria, flow.StageChecklist, flow.StageLabel, flow.StageReview, flow.StageAdjudicate}
	if !slices.Equal(flow.WorkStages, want) {
		t.Errorf("work stages %v, want %v", flow.WorkStages, want)
	}
	roles := map[flow.Stage]tasks.Role{
		flow.StageCriteria: tasks.RoleAnnotator, flow.StageChecklist: tasks.RoleAnnotator, flow.StageLabel: tasks.RoleAnnotator, flow.StageCalibration: tasks.RoleAnnotator,
		flow.StageReview: tasks.RoleReviewer, flow.StageAdjudicate: tasks.RoleAdjudicator,
		flow.StageDone: "", flow.StageDropped: "", flow.StageGold: "", flow.StageSplit: "", flow.StageCriteriaReview: "",
	}
	for stage, role := range roles {
		if got := stage.Role(); got != role {
			t.Errorf("%s is worked by %q, want %q", stage, got, role)
		}
	}
	if flow.Stage("nowhere").Role() != "" || flow.Stage("nowhere").Valid() {
		t.Error("an unknown stage has a role or is valid")
	}
}
