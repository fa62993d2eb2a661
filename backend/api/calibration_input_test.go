package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestCalibrationBadInput: each bad request names its field, and nothing is written.
func TestCalibrationBadInput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann, viewer := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("viewer@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		lead.member(pid, viewer, "viewer")
		base := "/api/v1/projects/" + pid
		lead.importNDJSON(base+"/items?pool=calibration", calPoolLine("p1", true), calPoolLine("p2", false))
		lead.importNDJSON(base+"/items", robojudgeLine("prod-1", "g"))
		rep := lead.importNDJSON(base+"/items?pool=calibration", calPoolLine("prod-1", false),
			`{"external_id":"p9","inputs":{"video":"media/robot_rollout.mp4","first_frame":"media/robot_first_frame.png","instruction":"x","generator":"g"},"ground_truth":{"answers":{"physical_adherence":9}}}`)
		if rep["imported"].(float64) != 0 || len(rep["errors"].([]any)) != 2 {
			t.Fatalf("pool import of a production id and of bad gold: %v", rep)
		}
		if st, body := lead.do("POST", base+"/items?pool=gold", calPoolLine("p5", false)+"\n", "Content-Type", "application/x-ndjson"); st != 422 || fieldError(t, body, "pool") == "" {
			t.Fatalf("an unknown pool: %d %s", st, body)
		}
		good := func() map[string]any {
			return map[string]any{"name": "R", "external_ids": []string{"p1", "p2"}, "participants": []string{ann.user.Email},
				"pass": map[string]any{"metric": "exact_with_peers", "threshold": 0.5}}
		}
		cases := []struct {
			name, field, code string
			change            func(map[string]any)
		}{
			{"unknown question", "pass.questions[1]", "unknown_question", func(b map[string]any) {
				b["pass"].(map[string]any)["questions"] = []string{"physical_adherence", "nope"}
			}},
			{"free text in the rule", "pass.questions[0]", "unknown_question", func(b map[string]any) {
				b["pass"].(map[string]any)["questions"] = []string{"pa_evidence"}
			}},
			{"threshold above 1", "pass.threshold", "out_of_range", func(b map[string]any) { b["pass"].(map[string]any)["threshold"] = 1.5 }},
			{"negative accuracy", "pass.threshold", "out_of_range", func(b map[string]any) {
				b["pass"] = map[string]any{"metric": "accuracy_vs_gold", "threshold": -0.1}
			}},
			{"unknown metric", "pass.metric", "invalid_value", func(b map[string]any) { b["pass"].(map[string]any)["metric"] = "kappa" }},
			{"accuracy without gold", "pass.metric", "no_gold", func(b map[string]any) {
				b["pass"] = map[string]any{"metric": "accuracy_vs_gold", "threshold": 0.5}
			}},
			{"a viewer as participant", "participants[1]", "not_annotator", func(b map[string]any) {
				b["participants"] = []string{ann.user.ID, viewer.user.Email}
			}},
			{"a stranger as participant", "participants[0]", "not_annotator", func(b map[string]any) { b["participants"] = []string{"nobody@example.org"} }},
			{"a production item", "external_ids[1]", "not_in_pool", func(b map[string]any) { b["external_ids"] = []string{"p1", "prod-1"} }},
			{"an unknown item", "external_ids[0]", "not_in_pool", func(b map[string]any) { b["external_ids"] = []string{"zzz"} }},
			{"a sample larger than the pool", "sample", "out_of_range", func(b map[string]any) { delete(b, "external_ids"); b["sample"] = 3 }},
			{"both items and sample", "external_ids", "invalid_value", func(b map[string]any) { b["sample"] = 1 }},
			{"no name", "name", "invalid_length", func(b map[string]any) { b["name"] = " " }},
		}
		for _, c := range cases {
			b := good()
			c.change(b)
			st, body := lead.do("POST", base+"/calibration-rounds", b)
			if st != 422 || fieldError(t, body, c.field) != c.code {
				t.Errorf("%s: %d %s, want 422 with %s %s", c.name, st, body, c.field, c.code)
			}
		}
		if st, _ := ann.do("POST", base+"/calibration-rounds", good()); st != 403 {
			t.Fatalf("an annotator started a round: %d", st)
		}
		var list struct{ Rounds []any }
		lead.must("GET", base+"/calibration-rounds", nil, 200, &list)
		if len(list.Rounds) != 0 {
			t.Fatalf("a refused request wrote a round: %+v", list)
		}
		if ann.next(pid, "calibration") != nil {
			t.Fatal("calibration work without a round")
		}
		var r struct{ ID string }
		b := good()
		delete(b, "external_ids")
		b["sample"] = 2
		lead.must("POST", base+"/calibration-rounds", b, 201, &r)
		if st, body := lead.do("POST", base+"/calibration-rounds/"+r.ID+"/notes", map[string]any{"item_id": "x", "question": "physical_adherence", "note": "n"}); st != 422 || fieldError(t, body, "item_id") != "not_in_round" {
			t.Fatalf("note outside the round: %d %s", st, body)
		}
		var d struct {
			ItemIDs []struct{ ID string } `json:"item_ids"`
		}
		lead.must("GET", base+"/calibration-rounds/"+r.ID, nil, 200, &d)
		if st, body := lead.do("POST", base+"/calibration-rounds/"+r.ID+"/notes", map[string]any{"item_id": d.ItemIDs[0].ID, "question": "physical_adherence", "note": "n"}); st != 409 || errorCode(t, body) != "round_open" {
			t.Fatalf("note on an open round: %d %s", st, body)
		}
		if st, body := ann.do("GET", base+"/calibration-rounds/"+r.ID+"/mine", nil); st != 409 || errorCode(t, body) != "round_open" {
			t.Fatalf("feedback of an open round: %d %s", st, body)
		}
		if st, body := lead.do("PUT", base+"/members/nobody@example.org", map[string]any{"qualified": true}); st != 422 || fieldError(t, body, "qualified") != "not_member" {
			t.Fatalf("qualifying a stranger: %d %s", st, body)
		}
		// the production queue never hands out pool items
		tpl, _ := tasks.LookupTemplate("robojudge")
		c := ann.next(pid, "label")
		if c == nil {
			t.Fatal("no production work")
		}
		ann.submitOK(c.Assignment.ID, map[string]any{"answers": tpl.Schema.ExampleAnswers()})
		if ann.next(pid, "label") != nil {
			t.Fatal("the label queue holds a pool item")
		}
	})
}

// TestCalibrationBinaryAccuracy: on a Yes/No template the report gives Yes- and No-accuracy
// beside accuracy, so a participant who answers "yes" to everything shows up.
func TestCalibrationBinaryAccuracy(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, a, b := e.newUser("lead@example.org", false), e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "D3", "template": "d3omni-t2i"}, 201, &p)
		lead.member(p.ID, a, "annotator")
		lead.member(p.ID, b, "annotator")
		tpl, _ := tasks.LookupTemplate("d3omni-t2i")
		q := tpl.Schema.Questions[0].Key
		gold := []string{"yes", "no", "no", "yes"}
		var lines []string
		for i, g := range gold {
			lines = append(lines, fmt.Sprintf(`{"external_id":"c%d","inputs":{"prompt":"an apple","image":"media/apple.png","generator":"g"},"ground_truth":{"answers":{%q:%q}}}`, i, q, g))
		}
		base := "/api/v1/projects/" + p.ID
		lead.importNDJSON(base+"/items?pool=calibration", lines...)
		var r struct{ ID string }
		lead.must("POST", base+"/calibration-rounds", map[string]any{"name": "R", "external_ids": []string{"c0", "c1", "c2", "c3"},
			"participants": []string{a.user.ID, b.user.ID}, "pass": map[string]any{"metric": "accuracy_vs_gold", "threshold": 0.75, "questions": []string{q}}}, 201, &r)
		full := tpl.Schema.ExampleAnswers()
		for _, c := range []*client{a, b} {
			for cl := c.next(p.ID, "calibration"); cl != nil; cl = c.next(p.ID, "calibration") {
				as, _ := e.store.Assignment(t.Context(), cl.Assignment.ID)
				it, _ := e.store.Item(t.Context(), p.ID, as.ItemID)
				v := "yes" // a rubber stamp
				if c == b {
					v = gold[int(it.ExternalID[1]-'0')]
				}
				c.submitOK(cl.Assignment.ID, map[string]any{"answers": merge(full, answers(q, v))})
			}
		}
		lead.must("POST", base+"/calibration-rounds/"+r.ID+"/close", nil, 200, nil)
		var rep struct {
			Annotators []struct {
				UserID    string `json:"user_id"`
				Passed    bool   `json:"passed"`
				Questions map[string]struct {
					Accuracy    *float64 `json:"accuracy"`
					YesAccuracy *float64 `json:"yes_accuracy"`
					NoAccuracy  *float64 `json:"no_accuracy"`
					Exact       *float64 `json:"exact"`
				} `json:"questions"`
			} `json:"annotators"`
			Questions []struct {
				Key   string   `json:"key"`
				Level string   `json:"level"`
				Exact *float64 `json:"exact"`
			} `json:"questions"`
		}
		_, body := lead.do("GET", base+"/calibration-rounds/"+r.ID+"/report", nil)
		if err := json.Unmarshal(body, &rep); err != nil {
			t.Fatal(err)
		}
		for _, an := range rep.Annotators {
			f := an.Questions[q]
			if an.UserID == a.user.ID {
				near(t, "stamp accuracy", f.Accuracy, 0.5)
				near(t, "stamp yes-accuracy", f.YesAccuracy, 1)
				near(t, "stamp no-accuracy", f.NoAccuracy, 0)
				if an.Passed {
					t.Error("a rubber stamp passed")
				}
			} else {
				near(t, "accuracy", f.Accuracy, 1)
				if !an.Passed {
					t.Error("a perfect participant failed")
				}
			}
			if f.Exact != nil {
				t.Errorf("an ordinal figure on a binary question: %s", body)
			}
		}
		if rep.Questions[0].Level != "nominal" || rep.Questions[0].Exact != nil || !strings.Contains(string(body), `"alpha"`) {
			t.Fatalf("binary question figures: %s", body)
		}
	})
}

// TestCalibrationPoolNotReleased: a release, even one with every item (include_dropped),
// leaves the calibration pool out, and the dataset card does not count it.
func TestCalibrationPoolNotReleased(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, _, ann, pid, tpl := releaseProject(t, e)
		ann2 := e.newUser("ann2b@example.org", false)
		lead.member(pid, ann2, "annotator")
		q := tpl.Schema.Questions[0].Key
		lead.importNDJSON("/api/v1/projects/"+pid+"/items?pool=calibration",
			fmt.Sprintf(`{"external_id":"pool-secret-1","inputs":{"prompt":"an apple","image":"media/apple.png","generator":"g"},"ground_truth":{"answers":{%q:"yes"}}}`, q),
			`{"external_id":"pool-secret-2","inputs":{"prompt":"a pear","image":"media/apple.png","generator":"g"}}`)
		labelReleaseProject(t, e, pid, tpl, []*client{ann, ann2})
		v := lead.waitRelease(pid, lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"},
			"options": map[string]any{"include_dropped": true}}))
		n := int64(len(tpl.Samples))
		if v.Status != "done" || v.Manifest.Records.Total != n {
			t.Fatalf("release of %d items: %+v", n, v)
		}
		for name, b := range lead.releaseFiles(pid, v) {
			if strings.Contains(string(b), "pool-secret") {
				t.Fatalf("%s holds a calibration pool item", name)
			}
		}
	})
}
