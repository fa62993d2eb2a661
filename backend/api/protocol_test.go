package api_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// judgedSchema scores an optional output 1-5 with evidence; a prompt check needs no output.
func judgedSchema() map[string]any {
	return map[string]any{"version": 1,
		"inputs": []any{map[string]any{"name": "prompt", "type": "text"}, map[string]any{"name": "output", "type": "text", "optional": true}},
		"questions": []any{
			map[string]any{"key": "score", "kind": "likert", "label": "Score", "required": true, "min": 1, "max": 5, "needs": []string{"output"}},
			map[string]any{"key": "evidence", "kind": "text", "label": "Evidence", "needs": []string{"output"}},
			map[string]any{"key": "prompt_ok", "kind": "binary", "label": "Prompt fine", "required": true},
		}}
}

// judgedProject creates a project on judgedSchema with the given people as annotators.
func judgedProject(t *testing.T, lead *client, workflow map[string]any, people ...*client) string {
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "judged", "schema": judgedSchema(), "workflow": workflow}, 201, &p)
	for _, u := range people {
		lead.member(p.ID, u, "annotator", "reviewer", "adjudicator")
	}
	return p.ID
}

// itemDetail is GET /items/:iid as this test reads it.
type itemDetail struct {
	Item struct {
		Stage       string `json:"stage"`
		GroundTruth *struct {
			Answers    tasks.Answers             `json:"answers"`
			Provenance map[string]any            `json:"provenance"`
			Texts      map[string][]textAnswerIn `json:"texts"`
		} `json:"ground_truth"`
	} `json:"item"`
}

type textAnswerIn struct{ Author, Role, Text string }

func (c *client) itemDetail(pid, iid string) itemDetail {
	c.e.t.Helper()
	var d itemDetail
	c.must("GET", "/api/v1/projects/"+pid+"/items/"+iid, nil, 200, &d)
	return d
}

// TestFreeTextReachesGroundTruth: consensus keeps every accepted label's evidence next to the
// agreed score; adjudicated ground truth keeps the adjudicator's text first, then the labels'.
func TestFreeTextReachesGroundTruth(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b, c := e.newUser("a@example.org", false), e.newUser("b@example.org", false), e.newUser("c@example.org", false)
		pid := judgedProject(t, lead, map[string]any{"overlap": 2, "consensus": map[string]any{"ordinal_tolerance": 1}}, a, b, c)
		lead.importNDJSON("/api/v1/projects/"+pid+"/items",
			`{"external_id":"agree","inputs":{"prompt":"p","output":"o"}}`, `{"external_id":"split","inputs":{"prompt":"p","output":"o"}}`)
		label := func(u *client, score int, ev string) {
			cl := u.next(pid, "label")
			u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("score", score, "evidence", ev, "prompt_ok", "yes")})
		}
		label(a, 4, "gripper holds")   // agree
		label(b, 5, "clean grasp")     // agree
		label(a, 1, "object vanishes") // split
		label(b, 5, "looks fine")      // split
		items := byExternal(lead.items(pid, ""))
		agree := lead.itemDetail(pid, items["agree"].ID)
		gt := agree.Item.GroundTruth
		if agree.Item.Stage != "done" || gt == nil || string(gt.Answers["score"]) != "4" {
			t.Fatalf("agree: %+v", agree.Item)
		}
		if _, ok := gt.Answers["evidence"]; ok {
			t.Errorf("consensus decided a free-text answer: %s", gt.Answers["evidence"])
		}
		ev := gt.Texts["evidence"]
		if len(ev) != 2 || ev[0].Text != "gripper holds" || ev[0].Author != a.user.ID || ev[0].Role != "annotator" || ev[1].Text != "clean grasp" {
			t.Errorf("kept evidence: %+v", ev)
		}
		if items["split"].Stage != "adjudicate" {
			t.Fatalf("split is in %s", items["split"].Stage)
		}
		cl := c.next(pid, "adjudicate")
		c.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("score", 2, "evidence", "vanishes at 2 s", "prompt_ok", "yes"), "rationale": "the object vanishes"})
		split := lead.itemDetail(pid, items["split"].ID).Item.GroundTruth
		ev = split.Texts["evidence"]
		if len(ev) != 3 || ev[0].Role != "adjudicator" || ev[0].Author != c.user.ID || ev[0].Text != "vanishes at 2 s" || ev[1].Text != "object vanishes" || ev[2].Text != "looks fine" {
			t.Errorf("adjudicated evidence: %+v", ev)
		}
		if string(split.Answers["evidence"]) != `"vanishes at 2 s"` {
			t.Errorf("the adjudicator's text is not the answer: %s", split.Answers["evidence"])
		}
	})
}

// TestMissingOutputs: when the optional output is absent, the questions that need it are
// answered "missing" by the system: the claim says so, a person's answer to them is refused,
// consensus leaves them out, an item with nothing left to ask is done on import, and the
// release states it.
func TestMissingOutputs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		pid := judgedProject(t, lead, map[string]any{"overlap": 2}, a, b)
		rep := lead.importNDJSON("/api/v1/projects/"+pid+"/items", `{"external_id":"no-output","inputs":{"prompt":"p"}}`)
		if rep["imported"].(float64) != 1 {
			t.Fatalf("import: %v", rep)
		}
		for _, u := range []*client{a, b} {
			cl := u.next(pid, "label")
			var view struct {
				Item struct{ Missing []string } `json:"item"`
			}
			json.Unmarshal(cl.raw, &view)
			if strings.Join(view.Item.Missing, ",") != "score,evidence" {
				t.Fatalf("claim missing = %v: %s", view.Item.Missing, cl.raw)
			}
			path := "/api/v1/projects/" + pid + "/assignments/" + cl.Assignment.ID + "/submit"
			st, body := u.do("POST", path, map[string]any{"answers": answers("score", 3, "prompt_ok", "yes")})
			if st != 422 || !strings.Contains(string(body), `"input_missing"`) {
				t.Fatalf("scoring a missing output: %d %s", st, body)
			}
			u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("prompt_ok", "yes")})
		}
		it := byExternal(lead.items(pid, ""))["no-output"]
		if it.Stage != "done" || string(it.GroundTruth.Answers["score"]) != `"missing"` || string(it.GroundTruth.Answers["prompt_ok"]) != `"yes"` {
			t.Fatalf("after two labels: %s %+v", it.Stage, it.GroundTruth)
		}
		for _, an := range it.Annotations {
			if string(an.Answers["score"]) != `"missing"` {
				t.Errorf("a stored label lacks the system's missing: %+v", an.Answers)
			}
		}

		// A schema where every question needs the output: an item without it is decided on import.
		var p struct{ ID string }
		only := judgedSchema()
		only["questions"] = only["questions"].([]any)[:2]
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "only", "schema": only}, 201, &p)
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", `{"external_id":"empty","inputs":{"prompt":"p"}}`)
		done := lead.items(p.ID, "")[0]
		if done.Stage != "done" || done.GroundTruth.Provenance["kind"] != "rule" || string(done.GroundTruth.Answers["score"]) != `"missing"` {
			t.Fatalf("an item with nothing to ask: %s %+v", done.Stage, done.GroundTruth)
		}
		gt := `{"external_id":"gt","inputs":{"prompt":"p"},"ground_truth":{"provenance":"rule","answers":{"score":4}}}`
		rep = lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", gt)
		if rep["imported"].(float64) != 0 || !strings.Contains(jsonText(rep), "ground_truth.answers.score") {
			t.Fatalf("ground truth scoring a missing output: %v", rep)
		}
	})
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestOnNoConsensus: on_no_consensus acts with adjudication on_disagreement; with never, items
// without consensus are dropped (the default is drop and adjudicate is refused).
func TestOnNoConsensus(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		tests := []struct {
			name     string
			workflow map[string]any
			stored   string // on_no_consensus as stored
			stage    string // of an item whose two labels disagree
		}{
			{"never drops by default", map[string]any{"adjudication": "never"}, "drop", "dropped"},
			{"on_disagreement adjudicates by default", map[string]any{}, "adjudicate", "adjudicate"},
			{"on_disagreement with drop", map[string]any{"on_no_consensus": "drop"}, "drop", "dropped"},
			{"always adjudicates whatever", map[string]any{"adjudication": "always", "on_no_consensus": "drop"}, "drop", "adjudicate"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.workflow["overlap"] = 2
				var p struct {
					ID       string
					Workflow struct {
						OnNoConsensus string `json:"on_no_consensus"`
					}
				}
				lead.must("POST", "/api/v1/projects", map[string]any{"name": tt.name, "schema": judgedSchema(), "workflow": tt.workflow}, 201, &p)
				if p.Workflow.OnNoConsensus != tt.stored {
					t.Errorf("stored on_no_consensus %q, want %q", p.Workflow.OnNoConsensus, tt.stored)
				}
				lead.member(p.ID, a, "annotator")
				lead.member(p.ID, b, "annotator")
				lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", `{"external_id":"x","inputs":{"prompt":"p","output":"o"}}`)
				for i, u := range []*client{a, b} {
					cl := u.next(p.ID, "label")
					u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("score", 1+4*i, "prompt_ok", "yes")})
				}
				if got := lead.items(p.ID, "")[0].Stage; got != tt.stage {
					t.Errorf("stage %s, want %s", got, tt.stage)
				}
			})
		}
		st, body := lead.do("POST", "/api/v1/projects", map[string]any{"name": "x", "schema": judgedSchema(),
			"workflow": map[string]any{"adjudication": "never", "on_no_consensus": "adjudicate"}})
		if st != 422 || !strings.Contains(string(body), "workflow.on_no_consensus") {
			t.Errorf("never with adjudicate: %d %s", st, body)
		}
	})
}

// TestStuckWorkFixable: with everyone having labeled, the labels wait for a reviewer nobody can
// be; /metrics counts them per stage; the lead gives one to a named person from the stuck view,
// adding the reviewer role, and the independence rules still hold.
func TestStuckWorkFixable(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		m, out := e.newUser("m@example.org", false), e.newUser("out@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "stuck", "schema": judgedSchema(), "workflow": map[string]any{"overlap": 2, "review": "cross"}}, 201, &p)
		pid := p.ID
		for _, u := range []*client{a, b} {
			lead.member(pid, u, "annotator", "reviewer")
		}
		lead.member(pid, m, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", `{"external_id":"x","inputs":{"prompt":"p","output":"o"}}`)
		for _, u := range []*client{a, b} {
			cl := u.next(pid, "label")
			u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("score", 3, "prompt_ok", "yes")})
		}
		var stuck struct {
			Stages []struct {
				Stage string
				Count int
				IDs   []string `json:"ids"`
			}
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 1 || stuck.Stages[0].Stage != "review" || stuck.Stages[0].Count != 2 {
			t.Fatalf("stuck: %+v", stuck)
		}
		_, metrics := fetchURL(t, e.srv.URL+"/metrics", "")
		if !strings.Contains(metrics, `arbiter_stuck_work{stage="review"} 2`) || !strings.Contains(metrics, `arbiter_stuck_work{stage="label"} 0`) {
			t.Errorf("/metrics lacks the stuck counts:\n%s", grepLines(metrics, "arbiter_stuck"))
		}
		label := stuck.Stages[0].IDs[0]
		var cands struct {
			Candidates []struct {
				Email   string
				HasRole bool `json:"has_role"`
			}
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck/candidates?stage=review&id="+label, nil, 200, &cands)
		if len(cands.Candidates) != 2 || cands.Candidates[0].Email != lead.user.Email || cands.Candidates[1].Email != m.user.Email || cands.Candidates[1].HasRole {
			t.Errorf("candidates for the stuck review: %+v", cands)
		}
		if st, _ := a.do("GET", "/api/v1/projects/"+pid+"/stuck/candidates?stage=review&id="+label, nil); st != 403 {
			t.Errorf("an annotator listed candidates: %d", st)
		}
		path := "/api/v1/projects/" + pid + "/stuck/assign"
		refused := []struct {
			name  string
			body  map[string]any
			field string
			code  string
		}{
			{"someone who labeled the item", map[string]any{"stage": "review", "id": label, "user": b.user.Email, "grant_role": true}, "user", "not_independent"},
			{"a member without the role", map[string]any{"stage": "review", "id": label, "user": m.user.Email}, "user", "missing_role"},
			{"a non-member without grant_role", map[string]any{"stage": "review", "id": label, "user": out.user.Email}, "user", "not_member"},
			{"work that does not wait", map[string]any{"stage": "adjudicate", "id": label, "user": m.user.ID, "grant_role": true}, "id", "not_waiting"},
			{"a stage the policy lacks", map[string]any{"stage": "criteria", "id": label, "user": m.user.ID}, "stage", "invalid_value"},
		}
		for _, r := range refused {
			st, body := lead.do("POST", path, r.body)
			var eb struct {
				Error struct {
					Details map[string]struct{ Code string }
				}
			}
			json.Unmarshal(body, &eb)
			if st != 422 || eb.Error.Details[r.field].Code != r.code {
				t.Errorf("%s: %d %s", r.name, st, body)
			}
		}
		var members []struct {
			UserID string   `json:"user_id"`
			Roles  []string `json:"roles"`
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/members", nil, 200, &members)
		for _, mb := range members {
			if mb.UserID == m.user.ID && strings.Join(mb.Roles, ",") != "annotator" {
				t.Fatalf("a refused call changed roles: %v", mb.Roles)
			}
		}
		if st, _ := a.do("POST", path, map[string]any{"stage": "review", "id": label, "user": m.user.ID, "grant_role": true}); st != 403 {
			t.Errorf("an annotator assigned stuck work: %d", st)
		}
		var res struct {
			Status     string
			RoleAdded  bool `json:"role_added"`
			Assignment struct {
				ID       string
				TargetID string `json:"target_id"`
			}
		}
		lead.must("POST", path, map[string]any{"stage": "review", "id": label, "user": m.user.Email, "grant_role": true}, 200, &res)
		if res.Status != "assigned" || !res.RoleAdded || res.Assignment.TargetID != label {
			t.Fatalf("assign: %+v", res)
		}
		cl := m.next(pid, "review")
		if cl == nil || cl.Assignment.ID != res.Assignment.ID {
			t.Fatalf("the reviewer's claim does not resume the held work: %+v", cl)
		}
		if st, body := lead.do("POST", path, map[string]any{"stage": "review", "id": label, "user": out.user.Email, "grant_role": true}); st != 200 || !strings.Contains(string(body), `"status":"invited"`) {
			t.Errorf("inviting a non-member: %d %s", st, body)
		}
	})
}

// TestCriteriaByEveryAnnotator: the criteria stage takes its own overlap of authors; the item
// waits for review until all have written; the reviewer merges a repeat across authors as a
// duplicate (no child unit); the report counts criteria per author and per status.
func TestCriteriaByEveryAnnotator(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a1, a2 := e.newUser("a1@example.org", false), e.newUser("a2@example.org", false)
		var p struct {
			ID       string
			Workflow struct {
				CriteriaStage struct{ Overlap int } `json:"criteria_stage"`
			}
		}
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "Omni-Reward", "template": "omnireward-pair", "workflow": map[string]any{
			"criteria_stage": map[string]any{"form": "criteria", "question": "criteria", "input": "criterion", "overlap": 2}}}, 201, &p)
		if p.Workflow.CriteriaStage.Overlap != 2 {
			t.Fatalf("criteria overlap stored as %d", p.Workflow.CriteriaStage.Overlap)
		}
		pid := p.ID
		lead.member(pid, a1, "annotator")
		var feas struct{ Warnings []struct{ Code string } }
		lead.must("GET", "/api/v1/projects/"+pid+"/feasibility", nil, 200, &feas)
		if !strings.Contains(jsonText(feas), "criteria_authors") {
			t.Errorf("one annotator for two criteria authors is not warned: %+v", feas)
		}
		lead.member(pid, a2, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items",
			`{"external_id":"or-1","inputs":{"prompt":"Two sailboats at sunset","responses":[{"id":"r1","type":"image","value":"media/boats.png"},{"id":"r2","type":"image","value":"media/boats_sunset.png"}]}}`)
		write := func(u *client, texts ...string) string {
			cl := u.next(pid, "criteria")
			if cl == nil {
				t.Fatalf("no criteria work for %s", u.user.Email)
			}
			return u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("criteria", texts)})
		}
		if st := write(a1, "Exactly two boats are shown.", "The light is a warm, low sunset."); st != "criteria" {
			t.Fatalf("after the first author the item is in %s", st)
		}
		if a1.next(pid, "criteria") != nil {
			t.Fatal("an author is given the same item twice")
		}
		type crit struct{ ID, Text, Status, AuthorID string }
		var page struct{ Items []crit }
		lead.must("GET", "/api/v1/projects/"+pid+"/criteria", nil, 200, &page)
		first := slices.Clone(page.Items)
		for _, c := range first {
			lead.must("POST", "/api/v1/projects/"+pid+"/criteria/"+c.ID, map[string]any{"status": "valid"}, 200, nil)
		}
		if it := lead.items(pid, "")[0]; it.Stage != "criteria" {
			t.Fatalf("the item closed before every author wrote: %s", it.Stage)
		}
		if st := write(a2, "There are exactly two boats.", "The sea is calm."); st != "criteria_review" {
			t.Fatalf("after the second author the item is in %s", st)
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/criteria", nil, 200, &page)
		if len(page.Items) != 2 {
			t.Fatalf("pending criteria: %+v", page.Items)
		}
		repeat, calm := page.Items[0], page.Items[1]
		path := "/api/v1/projects/" + pid + "/criteria/" + repeat.ID
		for _, bad := range []map[string]any{{"status": "duplicate"}, {"status": "duplicate", "duplicate_of": repeat.ID}, {"status": "valid", "duplicate_of": first[0].ID}} {
			if st, body := lead.do("POST", path, bad); st != 422 || !strings.Contains(string(body), "duplicate_of") {
				t.Errorf("%v: %d %s", bad, st, body)
			}
		}
		var marked crit
		lead.must("POST", path, map[string]any{"status": "duplicate", "duplicate_of": first[0].ID}, 200, &marked)
		if marked.Status != "duplicate" {
			t.Fatalf("marked: %+v", marked)
		}
		lead.must("POST", "/api/v1/projects/"+pid+"/criteria/"+calm.ID, map[string]any{"status": "valid"}, 200, nil)
		var split, children int
		for _, it := range lead.items(pid, "") {
			switch {
			case it.Stage == "split":
				split++
			case strings.Contains(it.ExternalID, "#criterion-"):
				children++
				if strings.Contains(it.ExternalID, repeat.ID) {
					t.Error("a duplicate became a child unit")
				}
			}
		}
		if split != 1 || children != 3 {
			t.Fatalf("split %d, children %d", split, children)
		}
		var rep struct {
			Overlap, Items, Authorships, Total int
			ByStatus                           map[string]int `json:"by_status"`
			Authors                            []struct {
				Email    string
				Total    int
				ByStatus map[string]int `json:"by_status"`
			}
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/criteria/report", nil, 200, &rep)
		if rep.Overlap != 2 || rep.Items != 1 || rep.Authorships != 2 || rep.Total != 4 || rep.ByStatus["valid"] != 3 || rep.ByStatus["duplicate"] != 1 || rep.ByStatus["pending"] != 0 {
			t.Errorf("report: %+v", rep)
		}
		if len(rep.Authors) != 2 || rep.Authors[0].Email != "a1@example.org" || rep.Authors[0].ByStatus["valid"] != 2 || rep.Authors[1].ByStatus["duplicate"] != 1 || rep.Authors[1].Total != 2 {
			t.Errorf("per author: %+v", rep.Authors)
		}
		if st, _ := a1.do("GET", "/api/v1/projects/"+pid+"/criteria/report", nil); st != 403 {
			t.Errorf("an annotator read the report: %d", st)
		}
	})
}

// TestListEditAndCategories: a project on the Judge Anything checklist-refinement form edits the
// drafted checklist (every entry decided, 1-6 kept), equal edited lists agree, and Judge
// Anything imports refuse a task category outside the 15.
func TestListEditAndCategories(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		tpl, _ := tasks.LookupTemplate("judgeanything-score")
		form, _ := tpl.Form("checklist")
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "checklists", "schema": form.Schema, "workflow": map[string]any{"overlap": 2}}, 201, &p)
		lead.member(p.ID, a, "annotator")
		lead.member(p.ID, b, "annotator")
		line, _ := json.Marshal(map[string]any{"external_id": "ja-1", "inputs": form.Samples[0].Inputs})
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", string(line))
		keepAll := func(n int) []map[string]any {
			out := []map[string]any{}
			for i := range n {
				out = append(out, map[string]any{"op": "keep", "from": i})
			}
			return out
		}
		relevance := []map[string]any{{"op": "keep", "from": 0}, {"op": "reword", "from": 1, "text": "Gives at least one use of the apple"}, {"op": "drop", "from": 2}}
		edit := answers("relevance_checklist", relevance, "trustworthiness_checklist", keepAll(1), "creativity_checklist", keepAll(1),
			"clarity_checklist", keepAll(1), "coherence_checklist", keepAll(1), "completeness_checklist", keepAll(1))
		for _, u := range []*client{a, b} {
			cl := u.next(p.ID, "label")
			path := "/api/v1/projects/" + p.ID + "/assignments/" + cl.Assignment.ID + "/submit"
			bad := merge(edit, answers("relevance_checklist", relevance[:2]))
			if st, body := u.do("POST", path, map[string]any{"answers": bad}); st != 422 || !strings.Contains(string(body), `"relevance_checklist":{"code":"too_few"`) {
				t.Fatalf("an undecided entry: %d %s", st, body)
			}
			u.submitOK(cl.Assignment.ID, map[string]any{"answers": edit})
		}
		it := lead.items(p.ID, "")[0]
		if it.Stage != "done" || it.GroundTruth.Provenance["kind"] != "unanimous" {
			t.Fatalf("two equal edits: %s %+v", it.Stage, it.GroundTruth)
		}
		list, err := tasks.EditedList(it.GroundTruth.Answers["relevance_checklist"])
		if err != nil || strings.Join(list, "|") != "Identifies the object as an apple|Gives at least one use of the apple" {
			t.Errorf("edited list %v (%v) from %s", list, err, it.GroundTruth.Answers["relevance_checklist"])
		}

		var ja struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "ja", "template": "judgeanything-score"}, 201, &ja)
		good, _ := json.Marshal(map[string]any{"external_id": "ok", "inputs": tpl.Samples[0].Inputs, "meta": map[string]any{"task_name": "Text2Image"}})
		wrong, _ := json.Marshal(map[string]any{"external_id": "bad", "inputs": tpl.Samples[0].Inputs, "meta": map[string]any{"task_name": "Text2Speech"}})
		rep := lead.importNDJSON("/api/v1/projects/"+ja.ID+"/items", string(good), string(wrong))
		if rep["imported"].(float64) != 1 || !strings.Contains(jsonText(rep["errors"]), "meta.task_name") {
			t.Errorf("category check on import: %v", rep)
		}
	})
}

// TestReleaseCarriesTextsAndMissing: a release of a project with consensus evidence and a
// missing output writes the kept texts under pseudonyms and states the missing questions.
func TestReleaseCarriesTextsAndMissing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		pid := judgedProject(t, lead, map[string]any{"overlap": 2}, a, b)
		lead.importNDJSON("/api/v1/projects/"+pid+"/items",
			`{"external_id":"with","inputs":{"prompt":"p","output":"o"}}`, `{"external_id":"without","inputs":{"prompt":"p"}}`)
		for _, u := range []*client{a, b} {
			for range 2 {
				cl := u.next(pid, "label")
				if _, ok := cl.Item.Item.Inputs["output"]; ok {
					u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("score", 4, "evidence", "by "+u.user.Email, "prompt_ok", "yes")})
				} else {
					u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("prompt_ok", "yes")})
				}
			}
		}
		rid := lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}})
		v := lead.waitRelease(pid, rid)
		if v.Status != "done" {
			t.Fatalf("release: %s %v", v.Status, v.Error)
		}
		files := lead.releaseFiles(pid, v)
		var body string
		for path, b := range files {
			if strings.HasPrefix(path, "jsonl/") {
				body += string(b)
			}
		}
		var with, without map[string]json.RawMessage
		for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
			var rec map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
			switch string(rec["external_id"]) {
			case `"with"`:
				with = rec
			case `"without"`:
				without = rec
			}
		}
		if with == nil || without == nil {
			t.Fatalf("records: %s", body)
		}
		if texts := string(with["texts"]); !strings.Contains(texts, `"anon-`) || !strings.Contains(texts, "by a@example.org") || strings.Contains(texts, a.user.ID) {
			t.Errorf("texts: %s", texts)
		}
		if string(without["missing"]) != `["score","evidence"]` || strings.Contains(string(without["answers"]), "score") {
			t.Errorf("missing: %s answers %s", without["missing"], without["answers"])
		}
	})
}

// TestStuckAssignKeepsSlots: a lead's assignment of waiting work goes through the claim's slot
// count like any claim, so an item whose one slot is held is not given to a second person.
func TestStuckAssignKeepsSlots(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "slots", "schema": judgedSchema(), "workflow": map[string]any{"overlap": 1}}, 201, &p)
		for _, u := range []*client{a, b} {
			lead.member(p.ID, u, "annotator")
		}
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", `{"external_id":"x","inputs":{"prompt":"p","output":"o"}}`)
		if a.next(p.ID, "label") == nil {
			t.Fatal("no work")
		}
		st, body := lead.do("POST", "/api/v1/projects/"+p.ID+"/stuck/assign", map[string]any{"stage": "label", "id": lead.items(p.ID, "")[0].ID, "user": b.user.ID})
		if st != 422 || !strings.Contains(string(body), "not_waiting") {
			t.Fatalf("a held slot was assigned again: %d %s", st, body)
		}
	})
}
