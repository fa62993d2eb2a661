package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestMyRejections: an annotator reads the reason a reviewer rejected their label, with the
// comments on questions they answered, and nothing else: not another annotator's rejection,
// not who reviewed, not the item's external id or inputs.
func TestMyRejections(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		a, b := e.newUser("a@example.org", false), e.newUser("b@example.org", false)
		rev := e.newUser("rev@example.org", false)
		pid := judgedProject(t, lead, map[string]any{"overlap": 1, "review": "cross"})
		for _, u := range []*client{a, b} {
			lead.member(pid, u, "annotator")
		}
		lead.member(pid, rev, "reviewer")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items",
			`{"external_id":"ext-cat-one","inputs":{"prompt":"secret prompt one","output":"o"}}`,
			`{"external_id":"ext-cat-two","inputs":{"prompt":"secret prompt two","output":"o"}}`)
		aLabel := a.next(pid, "label").Assignment.ID
		a.submitOK(aLabel, map[string]any{"answers": answers("score", 2, "prompt_ok", "yes")})
		bLabel := b.next(pid, "label").Assignment.ID
		b.submitOK(bLabel, map[string]any{"answers": answers("score", 5, "prompt_ok", "yes")})
		for range 2 {
			r := rev.next(pid, "review")
			under := r.Context["label"].(map[string]any)["answers"].(map[string]any)
			if under["score"].(float64) == 2 {
				rev.submitOK(r.Assignment.ID, map[string]any{"verdict": "reject", "comment": "the score ignores the second paragraph",
					"comments": map[string]string{"score": "read the whole output", "evidence": "quote it next time"}})
			} else {
				rev.submitOK(r.Assignment.ID, map[string]any{"verdict": "approve", "comment": "well judged"})
			}
		}

		var mine struct {
			Items []struct {
				LabelID  string            `json:"label_id"`
				Comment  string            `json:"comment"`
				Comments map[string]string `json:"comments"`
				Reviewed *string           `json:"reviewed_at"`
			}
		}
		status, body := a.do("GET", "/api/v1/projects/"+pid+"/me/rejections", nil)
		if status != 200 || json.Unmarshal(body, &mine) != nil {
			t.Fatalf("a: %d %s", status, body)
		}
		if len(mine.Items) != 1 || mine.Items[0].LabelID != aLabel || mine.Items[0].Comment != "the score ignores the second paragraph" || mine.Items[0].Reviewed == nil {
			t.Fatalf("a's rejections: %s", body)
		}
		if got := mine.Items[0].Comments; len(got) != 1 || got["score"] != "read the whole output" {
			t.Errorf("comments on questions the label answered only: %v", got)
		}
		for _, hidden := range []string{rev.user.ID, rev.user.Email, "ext-cat", "secret prompt", "quote it next time", "well judged", bLabel} {
			if strings.Contains(string(body), hidden) {
				t.Errorf("a's rejections show %q: %s", hidden, body)
			}
		}
		for _, u := range []*client{b, rev, lead} {
			if _, body := u.do("GET", "/api/v1/projects/"+pid+"/me/rejections", nil); strings.TrimSpace(string(body)) != `{"items":[]}` {
				t.Errorf("%s reads rejections that are not theirs: %s", u.user.Email, body)
			}
		}
		if st, _ := e.newUser("out@example.org", false).do("GET", "/api/v1/projects/"+pid+"/me/rejections", nil); st != 404 {
			t.Errorf("a non-member: %d", st)
		}
	})
}
