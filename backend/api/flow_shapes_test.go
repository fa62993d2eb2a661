package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestOmniRewardShape walks criteria authoring → criteria review → three labels per child unit
// → majority accepted or dropped with the reason.
func TestOmniRewardShape(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		anns := []*client{e.newUser("a1@example.org", false), e.newUser("a2@example.org", false), e.newUser("a3@example.org", false)}
		author := e.newUser("author@example.org", false) // note: an author is never given the units of their own criteria
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "Omni-Reward", "template": "omnireward-pair", "workflow": map[string]any{
			"overlap": 3, "consensus": map[string]any{"nominal": "majority"}, "adjudication": "never", "on_no_consensus": "drop",
			"criteria_stage": map[string]any{"form": "criteria", "question": "criteria", "input": "criterion"}}}, 201, &p)
		for _, a := range anns {
			lead.member(p.ID, a, "annotator")
		}
		lead.member(p.ID, author, "annotator")
		rep := lead.importNDJSON("/api/v1/projects/"+p.ID+"/items",
			`{"external_id":"or-1","inputs":{"prompt":"Two sailboats at sunset","responses":[{"id":"r1","type":"image","value":"media/boats.png","meta":{"model":"m-3"}},{"id":"r2","type":"image","value":"media/boats_sunset.png","meta":{"model":"m-9"}}]}}`)

		c := author.next(p.ID, "criteria")
		if c == nil || c.Assignment.Stage != "criteria" {
			t.Fatalf("no criteria work (import %v)", rep)
		}
		if strings.Contains(string(c.raw), "m-3") || strings.Contains(string(c.raw), `"r1"`) {
			t.Fatalf("model names or candidate ids reach the annotator: %s", c.raw)
		}
		author.submitOK(c.Assignment.ID, map[string]any{"answers": answers("criteria", []string{
			"The light looks like a warm, low sunset.", "It looks nice.", "Exactly two boats, both white, with red flags on the masts."})})
		var crit struct {
			Items []struct{ ID, Text string }
		}
		lead.must("GET", "/api/v1/projects/"+p.ID+"/criteria", nil, 200, &crit)
		if len(crit.Items) != 3 {
			t.Fatalf("criteria: %+v", crit)
		}
		verdicts := []string{"valid", "too_vague", "valid"}
		for i, cr := range crit.Items {
			lead.must("POST", "/api/v1/projects/"+p.ID+"/criteria/"+cr.ID, map[string]any{"status": verdicts[i]}, 200, nil)
		}
		tpl, _ := tasks.LookupTemplate("omnireward-pair")
		// child 1: canonical A, A, B → majority A; child 2: A, B, tie → dropped.
		plans := [][]string{{"A", "A", "B"}, {"A", "B", "tie"}}
		children := map[string]int{}
		for round := 0; round < 3; round++ {
			for k := 0; k < 2; k++ {
				a := anns[round]
				cl := a.next(p.ID, "label")
				if cl == nil {
					t.Fatalf("round %d: no label work for %s", round, a.user.Email)
				}
				if !strings.Contains(string(cl.raw), "criterion") {
					t.Fatalf("the child unit does not show its criterion: %s", cl.raw)
				}
				idx, ok := children[string(cl.Item.Item.Inputs["criterion"])]
				if !ok {
					idx = len(children)
					children[string(cl.Item.Item.Inputs["criterion"])] = idx
				}
				canonical := answers("preference", plans[idx][round])
				a.submitOK(cl.Assignment.ID, map[string]any{"answers": shown(t, e, &tpl.Schema, cl.Assignment.ID, canonical)})
			}
		}
		items := lead.items(p.ID, "")
		var done, dropped, split int
		for _, it := range items {
			switch it.Stage {
			case "split":
				split++
			case "done":
				done++
				if it.GroundTruth.Provenance["kind"] != "majority" || string(it.GroundTruth.Answers["preference"]) != `"A"` {
					t.Fatalf("majority child: %+v", it.GroundTruth)
				}
			case "dropped":
				dropped++
				if it.DropReason == nil || !strings.Contains(*it.DropReason, "no consensus on preference") {
					t.Fatalf("drop reason: %v", it.DropReason)
				}
			}
		}
		if split != 1 || done != 1 || dropped != 1 {
			t.Fatalf("split %d done %d dropped %d: %+v", split, done, dropped, items)
		}
	})
}

// TestD3Shape labels with overlap 3; unanimous items finish, disagreements go to adjudication.
func TestD3Shape(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		adj := e.newUser("adj@example.org", false)
		anns := []*client{e.newUser("a1@example.org", false), e.newUser("a2@example.org", false), e.newUser("a3@example.org", false), e.newUser("a4@example.org", false)}
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "D3-Omni T2I", "template": "d3omni-t2i",
			"workflow": map[string]any{"overlap": 3, "adjudication": "on_disagreement"}}, 201, &p)
		for _, a := range anns {
			lead.member(p.ID, a, "annotator")
		}
		lead.member(p.ID, adj, "adjudicator")
		var lines []string
		for i := 0; i < 3; i++ {
			lines = append(lines, fmt.Sprintf(`{"external_id":"t2i-%d","inputs":{"prompt":"an apple","image":"media/apple.png","generator":"gen-x"}}`, i))
		}
		lines = append(lines, `{"external_id":"t2i-gt","inputs":{"prompt":"an apple","image":"media/apple_blurred.png","generator":"gen-x"},"ground_truth":{"provenance":"constructed","answers":`+mustString(allYesExcept(t, "d3omni-t2i", "texture_detail"))+`}}`)
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...)
		yes := allYesExcept(t, "d3omni-t2i", "")
		for _, a := range anns[:3] {
			for k := 0; k < 3; k++ {
				cl := a.next(p.ID, "label")
				if cl == nil {
					t.Fatalf("%s has no work", a.user.Email)
				}
				ans := yes
				if a == anns[2] && cl.Item.Item.Inputs["prompt"] != nil && k == 0 {
					ans = allYesExcept(t, "d3omni-t2i", "composition_focus")
				}
				a.submitOK(cl.Assignment.ID, map[string]any{"answers": ans})
			}
		}
		if anns[3].next(p.ID, "label") != nil {
			t.Fatal("a fourth label was handed out with overlap 3")
		}
		cl := adj.next(p.ID, "adjudicate")
		if cl == nil {
			t.Fatal("the disagreement did not reach adjudication")
		}
		dis, _ := cl.Context["disagreements"].([]any)
		if len(dis) != 1 || !strings.Contains(fmt.Sprint(dis[0]), "composition_focus") {
			t.Fatalf("disagreements: %v", cl.Context["disagreements"])
		}
		adj.submitOK(cl.Assignment.ID, map[string]any{"answers": yes, "rationale": "the apple is centred"})
		kinds := map[string]int{}
		for _, it := range lead.items(p.ID, "") {
			if it.GroundTruth == nil {
				t.Fatalf("%s has no ground truth (stage %s)", it.ExternalID, it.Stage)
			}
			kinds[fmt.Sprint(it.GroundTruth.Provenance["kind"])]++
		}
		if kinds["unanimous"] != 2 || kinds["adjudicated"] != 1 || kinds["constructed"] != 1 {
			t.Fatalf("provenance counts %v", kinds)
		}
	})
}

func allYesExcept(t *testing.T, template, no string) tasks.Answers {
	tpl, _ := tasks.LookupTemplate(template)
	out := tasks.Answers{}
	for _, q := range tpl.Schema.Questions {
		out[q.Key] = []byte(`"yes"`)
		if q.Key == no {
			out[q.Key] = []byte(`"no"`)
		}
	}
	return out
}

func mustString(a tasks.Answers) string {
	var b strings.Builder
	b.WriteString("{")
	first := true
	for k, v := range a {
		if !first {
			b.WriteString(",")
		}
		first = false
		fmt.Fprintf(&b, "%q:%s", k, v)
	}
	b.WriteString("}")
	return b.String()
}
