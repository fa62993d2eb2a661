package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// The workflow's promises of independence and blinding, each held by a test named after it.

// TestRemovedRoleCannotFinishWork: a reviewer demoted while holding a review cannot submit it;
// the demotion gave the review back (audited).
func TestRemovedRoleCannotFinishWork(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann, rev := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("rev@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "review": "cross"})
		lead.member(pid, ann, "annotator")
		lead.member(pid, rev, "annotator", "reviewer")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("rr-1", "g"))
		c := ann.next(pid, "label")
		ann.submitOK(c.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
		r := rev.next(pid, "review")
		if r == nil {
			t.Fatal("no review")
		}
		lead.member(pid, rev, "annotator")
		path := "/api/v1/projects/" + pid + "/assignments/" + r.Assignment.ID + "/submit"
		if st, body := rev.do("POST", path, map[string]any{"verdict": "approve"}); st != 403 || errorCode(t, body) != "forbidden" {
			t.Fatalf("a demoted reviewer submitted: %d %s", st, body)
		}
		var status string
		var events int
		db := e.store.SQL()
		db.QueryRowContext(context.Background(), "SELECT status FROM assignments WHERE id = $1", r.Assignment.ID).Scan(&status)
		db.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM audit_events WHERE action = 'assignment.release_on_role_change'").Scan(&events)
		if status != "expired" || events != 1 {
			t.Fatalf("after the demotion the review is %q with %d audit events", status, events)
		}
	})
}

// TestSelfReviewRace: a person with both roles who asks for the label and the review of the
// same item at the same moment gets at most one of them, every time.
func TestSelfReviewRace(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, other, both := e.newUser("lead@example.org", false), e.newUser("other@example.org", false), e.newUser("both@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 2, "review": "cross"})
		lead.member(pid, other, "annotator")
		lead.member(pid, both, "annotator", "reviewer")
		const tries = 40
		lines := make([]string, tries)
		for i := range lines {
			lines[i] = robojudgeLine("race-"+string(rune('a'+i/26))+string(rune('a'+i%26)), "g")
		}
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", lines...)
		label := mustTemplate("robojudge").ExampleAnswers()
		for i := 0; i < tries; i++ {
			c := other.next(pid, "label")
			other.submitOK(c.Assignment.ID, map[string]any{"answers": label})
		}
		for i := 0; i < tries; i++ {
			var wg sync.WaitGroup
			got := make([]*claimResp, 2)
			for k, stage := range []string{"label", "review"} {
				wg.Add(1)
				go func() { defer wg.Done(); got[k] = both.next(pid, stage) }()
			}
			wg.Wait()
			for _, c := range got {
				if c != nil {
					both.must("POST", "/api/v1/projects/"+pid+"/assignments/"+c.Assignment.ID+"/skip", map[string]any{"reason": "next try"}, 204, nil)
				}
			}
		}
		var n int
		err := e.store.SQL().QueryRowContext(context.Background(), `SELECT COUNT(*) FROM (SELECT item_id FROM assignments
 WHERE user_id = $1 GROUP BY item_id HAVING COUNT(DISTINCT stage) > 1) x`, both.user.ID).Scan(&n)
		if err != nil || n != 0 {
			t.Fatalf("%d items labeled and reviewed by the same person (%v)", n, err)
		}
	})
}

// TestReadReleaseRelabel: a reviewer who read a label and gave the review back is never given
// that item to label.
func TestReadReleaseRelabel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann, rev := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("rev@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 2, "review": "cross"})
		lead.member(pid, ann, "annotator")
		lead.member(pid, rev, "annotator", "reviewer")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("rl-1", "g"))
		c := ann.next(pid, "label")
		ann.submitOK(c.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
		r := rev.next(pid, "review")
		if r == nil {
			t.Fatal("no review")
		}
		rev.must("POST", "/api/v1/projects/"+pid+"/assignments/"+r.Assignment.ID+"/release", nil, 204, nil)
		if l := rev.next(pid, "label"); l != nil {
			t.Fatalf("the reviewer who read the label was given the item to label: %s", l.raw)
		}
	})
}

// TestCriteriaSelfApproval: an author cannot mark their own criterion, and the units built from
// their criteria are never queued to them.
func TestCriteriaSelfApproval(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, author := e.newUser("lead@example.org", false), e.newUser("author@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "or", "template": "omnireward-pair", "workflow": map[string]any{
			"overlap": 1, "criteria_stage": map[string]any{"form": "criteria", "question": "criteria", "input": "criterion"}}}, 201, &p)
		lead.member(p.ID, author, "annotator", "reviewer")
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items",
			`{"external_id":"cs-1","inputs":{"prompt":"Two boats","responses":[{"id":"r1","type":"image","value":"media/boats.png"},{"id":"r2","type":"image","value":"media/boats_sunset.png"}]}}`)
		c := author.next(p.ID, "criteria")
		author.submitOK(c.Assignment.ID, map[string]any{"answers": answers("criteria", []string{"Exactly two boats are visible."})})
		var crit struct{ Items []struct{ ID string } }
		lead.must("GET", "/api/v1/projects/"+p.ID+"/criteria", nil, 200, &crit)
		if st, body := author.do("POST", "/api/v1/projects/"+p.ID+"/criteria/"+crit.Items[0].ID, map[string]any{"status": "valid"}); st != 403 {
			t.Fatalf("the author approved their own criterion: %d %s", st, body)
		}
		lead.must("POST", "/api/v1/projects/"+p.ID+"/criteria/"+crit.Items[0].ID, map[string]any{"status": "valid"}, 200, nil)
		if l := author.next(p.ID, "label"); l != nil {
			t.Fatalf("the unit of the author's own criterion was queued to them: %s", l.raw)
		}
	})
}

// TestDraftModelHiddenFromAnnotators: an annotator learns that a draft was prefilled, never
// by which model, neither in the claim nor in the project.
func TestDraftModelHiddenFromAnnotators(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "draft_from_predictions": map[string]any{"method": "model", "model": "secret-judge-x"}})
	lead.member(pid, ann, "annotator")
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("dm-1", "g"))
	lead.importNDJSON("/api/v1/projects/"+pid+"/predictions", `{"external_id":"dm-1","model":"secret-judge-x","answers":{"physical_adherence":4}}`)
	c := ann.next(pid, "label")
	if !strings.Contains(string(c.raw), `"draft_source":"prefilled"`) || strings.Contains(string(c.raw), "secret-judge-x") {
		t.Fatalf("the claim names the model or hides the draft: %s", c.raw)
	}
	if _, body := ann.do("GET", "/api/v1/projects/"+pid, nil); strings.Contains(string(body), "secret-judge-x") {
		t.Fatalf("the project shows the annotator the model: %s", body)
	}
	if _, body := lead.do("GET", "/api/v1/projects/"+pid, nil); !strings.Contains(string(body), "secret-judge-x") {
		t.Fatalf("the lead does not see the model: %s", body)
	}
}

// TestLastLead: a project never loses its last lead.
func TestLastLead(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, other := e.newUser("lead@example.org", false), e.newUser("other@example.org", false)
		pid := robojudgeProject(t, lead, nil)
		if st, body := lead.do("PUT", "/api/v1/projects/"+pid+"/members/"+lead.user.ID, map[string]any{"roles": []string{"annotator"}}); st != 409 || errorCode(t, body) != "last_lead" {
			t.Fatalf("the last lead stepped down: %d %s", st, body)
		}
		lead.member(pid, other, "lead")
		lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+lead.user.ID, map[string]any{"roles": []string{"annotator"}}, 200, nil)
	})
}

// TestUserLookupByEmail: a lead who is not an administrator cannot learn whether an email has
// an account: inviting a known and an unknown email answers the same, and only the invited
// person can accept, after which they are a member.
func TestUserLookupByEmail(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, known, other := e.newUser("lead@example.org", false), e.newUser("known@example.org", false), e.newUser("other@example.org", false)
		pid := robojudgeProject(t, lead, nil)
		body := map[string]any{"roles": []string{"annotator"}}
		stKnown, outKnown := lead.do("PUT", "/api/v1/projects/"+pid+"/members/known@example.org", body)
		stUnknown, outUnknown := lead.do("PUT", "/api/v1/projects/"+pid+"/members/nobody@example.org", body)
		norm := func(b []byte) string { return strings.ReplaceAll(string(b), "nobody@example.org", "known@example.org") }
		if stKnown != stUnknown || norm(outKnown) != norm(outUnknown) {
			t.Fatalf("known and unknown emails answer differently:\n%d %s\n%d %s", stKnown, outKnown, stUnknown, outUnknown)
		}
		var listed []map[string]any
		lead.must("GET", "/api/v1/projects/"+pid+"/invitations", nil, 200, &listed)
		if len(listed) != 2 || listed[0]["email"] != "known@example.org" || listed[1]["email"] != "nobody@example.org" ||
			!slices.Equal(slices.Sorted(maps.Keys(listed[0])), slices.Sorted(maps.Keys(listed[1]))) {
			t.Fatalf("the lead's list of invitations tells them apart: %+v", listed)
		}
		var invs []struct{ ID string }
		known.must("GET", "/api/v1/me/invitations", nil, 200, &invs)
		if len(invs) != 1 {
			t.Fatalf("the invited person sees %d invitations", len(invs))
		}
		if st, _ := other.do("POST", "/api/v1/me/invitations/"+invs[0].ID+"/accept", nil); st != 404 {
			t.Fatalf("someone else accepted the invitation: %d", st)
		}
		if st, _ := known.do("GET", "/api/v1/projects/"+pid, nil); st != 404 {
			t.Fatalf("a member before accepting: %d", st)
		}
		known.must("POST", "/api/v1/me/invitations/"+invs[0].ID+"/accept", nil, 204, nil)
		known.must("GET", "/api/v1/projects/"+pid, nil, 200, nil)
		var admin struct{ Status string }
		e.admin.must("PUT", "/api/v1/projects/"+pid+"/members/other@example.org", body, 200, &admin)
		if admin.Status != "added" {
			t.Fatalf("an administrator's add: %q", admin.Status)
		}
		if st, body := e.admin.do("PUT", "/api/v1/projects/"+pid+"/members/ghost@example.org", map[string]any{"roles": []string{"annotator"}}); st != 404 {
			t.Fatalf("an administrator adding an unknown email: %d %s", st, body)
		}
	})
}

// TestProjectCreationPermission: creating projects is a permission administrators grant; new
// users do not have it.
func TestProjectCreationPermission(t *testing.T) {
	e := newEnv(t, openSQLite)
	var u struct{ ID string }
	e.admin.must("POST", "/api/v1/users", map[string]any{"email": "new@example.org", "name": "New", "password": "a long enough password"}, 201, &u)
	var pair struct {
		AccessToken string `json:"access_token"`
	}
	e.anon().must("POST", "/api/v1/auth/login", map[string]string{"email": "new@example.org", "password": "a long enough password"}, 200, &pair)
	fresh := &client{e: e, token: pair.AccessToken}
	if st, body := fresh.do("POST", "/api/v1/projects", map[string]any{"name": "mine"}); st != 403 || errorCode(t, body) != "forbidden" {
		t.Fatalf("a new user created a project: %d %s", st, body)
	}
	if st, _ := fresh.do("PUT", "/api/v1/users/"+u.ID+"/permissions", map[string]any{"can_create_projects": true}); st != 403 {
		t.Fatalf("a user granted themselves the permission: %d", st)
	}
	e.admin.must("PUT", "/api/v1/users/"+u.ID+"/permissions", map[string]any{"can_create_projects": true}, 200, nil)
	fresh.must("POST", "/api/v1/projects", map[string]any{"name": "mine"}, 201, nil)
}

// TestPairwiseOrderNotRecoverable: nothing in a pairwise view tells the stored order of the
// candidates: asset ids are random (never time-ordered UUIDv7), so sorting them agrees with the
// stored order about half the time, and local media carry no upload time.
func TestPairwiseOrderNotRecoverable(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "pp", "template": "pairwise-preference"}, 201, &p)
	lead.member(p.ID, ann, "annotator")
	const n = 40
	var lines []string
	for i := range n {
		first := uploadAsset(t, lead, p.ID, "a.png", append(append([]byte{}, pngBytes...), byte(i), 1))
		second := uploadAsset(t, lead, p.ID, "b.png", append(append([]byte{}, pngBytes...), byte(i), 2))
		lines = append(lines, fmt.Sprintf(`{"external_id":"pp-%d","inputs":{"prompt":"p","responses":[`+
			`{"id":"x","type":"image","value":{"asset":%q}},{"id":"y","type":"image","value":{"asset":%q}}]}}`, i, first, second))
	}
	lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", lines...)
	agree := 0
	for range n {
		c := ann.next(p.ID, "label")
		ids := regexp.MustCompile(`"asset":"([0-9a-f-]{36})"`).FindAllStringSubmatch(string(c.raw), -1)
		if len(ids) != 2 {
			t.Fatalf("a pairwise view without two assets: %s", c.raw)
		}
		for _, id := range ids {
			if id[1][14] == '7' {
				t.Fatalf("a time-ordered asset id reaches the annotator: %s", id[1])
			}
		}
		var stored struct {
			Item struct{ Inputs json.RawMessage }
		}
		lead.must("GET", "/api/v1/projects/"+p.ID+"/items/"+itemOf(t, e, c.Assignment.ID), nil, 200, &stored)
		storedFirst := regexp.MustCompile(`"asset":"([0-9a-f-]{36})"`).FindStringSubmatch(string(stored.Item.Inputs))[1]
		sortedFirst := min(ids[0][1], ids[1][1])
		if sortedFirst == storedFirst {
			agree++
		}
		ann.must("POST", "/api/v1/projects/"+p.ID+"/assignments/"+c.Assignment.ID+"/skip", map[string]any{"reason": "next"}, 204, nil)
	}
	if agree < n/5 || agree > n-n/5 {
		t.Fatalf("sorting the asset ids gives the stored order in %d of %d views", agree, n)
	}
	var u struct{ URL string }
	ann.must("GET", "/api/v1/assets/"+regexp.MustCompile(`"asset":"([0-9a-f-]{36})"`).FindStringSubmatch(lines[0])[1]+"/url", nil, 200, &u)
	if resp := get(t, e, u.URL); resp.Header.Get("Last-Modified") != "" {
		t.Fatalf("media carry their upload time: %s", resp.Header.Get("Last-Modified"))
	}
}

// itemOf is the item of an assignment.
func itemOf(t *testing.T, e *env, aid string) string {
	var id string
	if err := e.store.SQL().QueryRow("SELECT item_id FROM assignments WHERE id = $1", aid).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}
