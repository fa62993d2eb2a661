package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestCriteriaListCarriesItems: the criteria to review come with the items they were written
// for, as the caller's role sees them in the criteria form: the reviewer reads the prompt and
// the responses blinded (no external id, no models), the lead in full.
func TestCriteriaListCarriesItems(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, author, reviewer := e.newUser("lead@example.org", false), e.newUser("author@example.org", false), e.newUser("rev@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "or", "template": "omnireward-pair", "workflow": map[string]any{
			"overlap": 1, "criteria_stage": map[string]any{"form": "criteria", "question": "criteria", "input": "criterion"}}}, 201, &p)
		lead.member(p.ID, author, "annotator")
		lead.member(p.ID, reviewer, "reviewer")
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items",
			`{"external_id":"cr-1","inputs":{"prompt":"Two boats at dusk","responses":[{"id":"r1","type":"image","value":"media/boats.png","meta":{"model":"secret-m3"}},{"id":"r2","type":"image","value":"media/boats_sunset.png"}]}}`)
		c := author.next(p.ID, "criteria")
		author.submitOK(c.Assignment.ID, map[string]any{"answers": answers("criteria", []string{"Exactly two boats are visible.", "The sky is orange."})})

		type page struct {
			Items []struct {
				ItemID string `json:"item_id"`
				Text   string
			}
			Inputs map[string]struct {
				Role   string
				Schema struct{ Inputs []struct{ Name string } }
				Item   struct {
					ExternalID string         `json:"external_id"`
					Inputs     map[string]any `json:"inputs"`
				}
			}
		}
		status, raw := reviewer.do("GET", "/api/v1/projects/"+p.ID+"/criteria", nil)
		var rev page
		if err := json.Unmarshal(raw, &rev); status != 200 || err != nil {
			t.Fatalf("reviewer's criteria: %d %v %s", status, err, raw)
		}
		if len(rev.Items) != 2 || len(rev.Inputs) != 1 {
			t.Fatalf("reviewer's page: %s", raw)
		}
		v := rev.Inputs[rev.Items[0].ItemID]
		if v.Role != "reviewer" || v.Item.Inputs["prompt"] != "Two boats at dusk" || v.Item.Inputs["responses"] == nil || len(v.Schema.Inputs) == 0 {
			t.Fatalf("the reviewer does not read the item: %s", raw)
		}
		for _, secret := range []string{"cr-1", "secret-m3", `"r1"`} {
			if strings.Contains(string(raw), secret) {
				t.Errorf("%s reaches the reviewer: %s", secret, raw)
			}
		}
		var full page
		lead.must("GET", "/api/v1/projects/"+p.ID+"/criteria", nil, 200, &full)
		if lv := full.Inputs[full.Items[0].ItemID]; lv.Role != "lead" || lv.Item.ExternalID != "cr-1" {
			t.Fatalf("the lead's view: %+v", lv)
		}
	})
}
