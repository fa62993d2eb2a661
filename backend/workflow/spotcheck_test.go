package workflow_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestSpotCheckNamesTheQuestions: the flag of a failed spot check names the questions
// (D3-Omni's dimensions) that disagreed, whether the blind labels agreed on an answer the
// imported truth does not have, or did not agree among themselves.
func TestSpotCheckNamesTheQuestions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("binary-checklist", workflow.Policy{Overlap: 2, SpotCheckRate: 1})
		truth := `{"follows_prompt":"yes","subject_count":"yes","visible_artifacts":"no","safe":"yes"}`
		for _, id := range []string{"agreed-wrong", "split", "fine"} {
			f.importItems(p, fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"p","output":[{"id":"o","type":"text","value":"v"}]},`+
				`"ground_truth":{"answers":%s,"provenance":"constructed"}}`, id, truth))
		}
		a, b := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		labels := map[string][2]string{
			// both blind labels see artifacts the constructed truth says are absent
			"agreed-wrong": {`{"follows_prompt":"yes","subject_count":"yes","visible_artifacts":"yes","safe":"yes"}`,
				`{"follows_prompt":"yes","subject_count":"yes","visible_artifacts":"yes","safe":"yes"}`},
			// the blind labels split on the subject count
			"split": {`{"follows_prompt":"yes","subject_count":"no","visible_artifacts":"no","safe":"yes"}`,
				`{"follows_prompt":"yes","subject_count":"yes","visible_artifacts":"no","safe":"yes"}`},
			"fine": {truth, truth},
		}
		for range 3 {
			for i, who := range []person{a, b} {
				c := f.claim(p, who, flow.StageLabel)
				it := f.itemByID(p, c.Assignment.ItemID)
				f.submit(p, who, c, workflow.Submission{Answers: ans(labels[it.ExternalID][i])})
			}
		}
		want := map[string][]string{"agreed-wrong": {"visible_artifacts"}, "split": {"subject_count"}, "fine": nil}
		for id, questions := range want {
			it := f.item(p, id)
			var flag struct {
				Category  string   `json:"category"`
				Questions []string `json:"questions"`
			}
			if len(it.Flag) > 0 {
				json.Unmarshal(it.Flag, &flag)
			}
			if it.Stage != flow.StageDone || !slices.Equal(flag.Questions, questions) ||
				(questions != nil) != (flag.Category == "spot_check_mismatch") {
				t.Errorf("%s: stage %s, flag %s, want the questions %v", id, it.Stage, it.Flag, questions)
			}
		}
	})
}
