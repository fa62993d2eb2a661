package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// adjudicationContext is the adjudicate claim's context as this test reads it.
type adjudicationContext struct {
	Labels []struct {
		By       string        `json:"by"`
		Answers  tasks.Answers `json:"answers"`
		Original tasks.Answers `json:"original"`
		Counted  bool          `json:"counted"`
		Review   *struct {
			Verdict  string            `json:"verdict"`
			Comment  string            `json:"comment"`
			Comments map[string]string `json:"comments"`
			Answers  tasks.Answers     `json:"answers"`
		} `json:"review"`
	} `json:"labels"`
	Disagreements []struct {
		Question string            `json:"question"`
		Resolved bool              `json:"resolved"`
		Values   []json.RawMessage `json:"values"`
	} `json:"disagreements"`
	Consensus struct {
		Agreed    bool `json:"agreed"`
		Questions []struct {
			Question string          `json:"question"`
			State    string          `json:"state"`
			Answer   json.RawMessage `json:"answer"`
		} `json:"questions"`
	} `json:"consensus"`
}

// TestAdjudicationSeesEverything: after a reviewer corrects one label and rejects another, the
// adjudicator sees every label's original answers, each review's verdict, correction and
// comments, and the consensus state of each question; final answers started from one label's
// column become ground truth, and bad input is refused with nothing written.
func TestAdjudicationSeesEverything(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b, c := e.newUser("a@example.org", false), e.newUser("b@example.org", false), e.newUser("c@example.org", false)
		rev, adj := e.newUser("rev@example.org", false), e.newUser("adj@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "adjudicated", "workflow": map[string]any{"overlap": 2, "review": "cross", "adjudication": "on_disagreement"},
			"schema": map[string]any{"version": 1,
				"inputs": []any{map[string]any{"name": "prompt", "type": "text"}},
				"questions": []any{
					map[string]any{"key": "score", "kind": "likert", "label": "Score", "required": true, "min": 1, "max": 5},
					map[string]any{"key": "clear", "kind": "binary", "label": "Prompt clear", "required": true},
					map[string]any{"key": "evidence", "kind": "text", "label": "Evidence"},
				}}}, 201, &p)
		pid := p.ID
		for _, u := range []*client{a, b, c} {
			lead.member(pid, u, "annotator")
		}
		lead.member(pid, rev, "reviewer")
		lead.member(pid, adj, "adjudicator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", `{"external_id":"it-1","inputs":{"prompt":"a cube on a sphere"}}`)

		label := func(u *client, score int, ev string) {
			cl := u.next(pid, "label")
			u.submitOK(cl.Assignment.ID, map[string]any{"answers": answers("score", score, "clear", "yes", "evidence", ev)})
		}
		label(a, 4, "the cube floats")
		label(b, 2, "off topic")
		// One reviewer: a's label is corrected with notes, b's rejected; the order of the queue decides which comes first.
		for range 2 {
			r := rev.next(pid, "review")
			under := r.Context["label"].(map[string]any)["answers"].(map[string]any)
			if under["score"].(float64) == 4 {
				rev.submitOK(r.Assignment.ID, map[string]any{"verdict": "correct", "answers": answers("score", 3, "clear", "yes", "evidence", "the cube floats a little"),
					"comment": "too generous", "comments": map[string]string{"score": "3 at most: the cube hovers"}})
			} else {
				rev.submitOK(r.Assignment.ID, map[string]any{"verdict": "reject", "comment": "describes another prompt"})
			}
		}
		label(c, 5, "exactly as asked")
		r := rev.next(pid, "review")
		if st := rev.submitOK(r.Assignment.ID, map[string]any{"verdict": "approve"}); st != "adjudicate" {
			t.Fatalf("after the last review the item is in %q, want adjudicate", st)
		}

		cl := adj.next(pid, "adjudicate")
		if cl == nil {
			t.Fatal("nothing to adjudicate")
		}
		for _, secret := range []string{a.user.ID, b.user.ID, c.user.ID, rev.user.ID, "@example.org"} {
			if strings.Contains(string(cl.raw), secret) {
				t.Errorf("the adjudicator sees %q though names are not shown: %s", secret, cl.raw)
			}
		}
		var ctx adjudicationContext
		raw, _ := json.Marshal(cl.Context)
		if err := json.Unmarshal(raw, &ctx); err != nil {
			t.Fatal(err)
		}
		if len(ctx.Labels) != 3 {
			t.Fatalf("want all three labels, the rejected one too: %s", raw)
		}
		byScore := map[string]int{}
		for i, l := range ctx.Labels {
			byScore[string(l.Original["score"])] = i
		}
		corrected, rejected, approved := ctx.Labels[byScore["4"]], ctx.Labels[byScore["2"]], ctx.Labels[byScore["5"]]
		if string(corrected.Answers["score"]) != "3" || !corrected.Counted || string(corrected.Original["evidence"]) != `"the cube floats"` {
			t.Errorf("corrected label: answers %s original %s counted %v", corrected.Answers, corrected.Original, corrected.Counted)
		}
		if rv := corrected.Review; rv == nil || rv.Verdict != "correct" || rv.Comment != "too generous" || rv.Comments["score"] != "3 at most: the cube hovers" ||
			string(rv.Answers["score"]) != "3" || string(rv.Answers["evidence"]) != `"the cube floats a little"` {
			t.Errorf("the correction's review: %+v", corrected.Review)
		}
		if rejected.Counted || rejected.Review == nil || rejected.Review.Verdict != "reject" || rejected.Review.Comment != "describes another prompt" ||
			string(rejected.Original["evidence"]) != `"off topic"` {
			t.Errorf("rejected label: %+v review %+v", rejected, rejected.Review)
		}
		if !approved.Counted || approved.Review == nil || approved.Review.Verdict != "approve" || string(approved.Answers["score"]) != "5" {
			t.Errorf("approved label: %+v", approved)
		}
		states := map[string]string{}
		for _, q := range ctx.Consensus.Questions {
			states[q.Question] = q.State + " " + string(q.Answer)
		}
		want := map[string]string{"score": "no_consensus ", "clear": `unanimous "yes"`, "evidence": "text "}
		if ctx.Consensus.Agreed || len(ctx.Consensus.Questions) != 3 || states["score"] != want["score"] || states["clear"] != want["clear"] || states["evidence"] != want["evidence"] {
			t.Errorf("consensus per question: %v, want %v", states, want)
		}
		if len(ctx.Disagreements) != 1 || ctx.Disagreements[0].Question != "score" || len(ctx.Disagreements[0].Values) != 2 {
			t.Errorf("disagreements over the counted labels (corrected 3, approved 5): %+v", ctx.Disagreements)
		}

		// The final answers start from the corrected label's original column, with one answer edited.
		final := merge(corrected.Original, answers("evidence", "the cube floats 2 cm above the sphere"))
		bad := []struct {
			name, field string
			body        map[string]any
		}{
			{"no rationale", "rationale", map[string]any{"answers": final}},
			{"score out of range", "score", map[string]any{"answers": merge(final, answers("score", 9)), "rationale": "r"}},
			{"unknown question", "colour", map[string]any{"answers": merge(final, answers("colour", "red")), "rationale": "r"}},
			{"required answer absent", "clear", map[string]any{"answers": answers("score", 4), "rationale": "r"}},
		}
		for _, tc := range bad {
			st, body := adj.do("POST", "/api/v1/assignments/"+cl.Assignment.ID+"/submit", tc.body)
			if st != 422 || !strings.Contains(string(body), `"`+tc.field+`"`) {
				t.Errorf("%s: %d %s", tc.name, st, body)
			}
		}
		items := byExternal(lead.items(pid, ""))
		if it := items["it-1"]; it.Stage != "adjudicate" || it.GroundTruth != nil {
			t.Fatalf("bad input wrote something: stage %s ground truth %+v", it.Stage, it.GroundTruth)
		}
		if st := adj.submitOK(cl.Assignment.ID, map[string]any{"answers": final, "rationale": "label 1 before correction, with the distance measured"}); st != "done" {
			t.Fatalf("after adjudication the item is in %q", st)
		}
		gt := lead.itemDetail(pid, items["it-1"].ID).Item.GroundTruth
		if gt == nil || gt.Provenance["kind"] != "adjudicated" || gt.Provenance["by"] != adj.user.ID {
			t.Fatalf("ground truth: %+v", gt)
		}
		for k, v := range final {
			if string(gt.Answers[k]) != string(v) {
				t.Errorf("ground truth %s = %s, want %s", k, gt.Answers[k], v)
			}
		}
		if ev := gt.Texts["evidence"]; len(ev) == 0 || ev[0].Role != "adjudicator" || ev[0].Text != "the cube floats 2 cm above the sphere" {
			t.Errorf("kept evidence: %+v", ev)
		}
	})
}
