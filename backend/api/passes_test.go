package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// secretInstruction is the instruction of the items below: it must never reach a response of
// the Physical Adherence pass.
const secretInstruction = "Stack the violet prism on the brass key 7f3a"

func passLine(id string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"video":"media/robot_rollout.mp4","first_frame":"media/robot_first_frame.png","instruction":%q,"generator":"g"}}`, id, secretInstruction)
}

// paAnswers and iaAnswers split the template's example answers by pass.
func passAnswers(t *testing.T, pass int) tasks.Answers {
	t.Helper()
	s := mustTemplate("robojudge")
	out := tasks.Answers{}
	for k, v := range s.ExampleAnswers() {
		if s.PassOf(k) == pass {
			out[k] = v
		}
	}
	if len(out) == 0 {
		t.Fatalf("robojudge has no pass %d", pass)
	}
	return out
}

// passView is what the tests read of a claim.
type passView struct {
	Assignment struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	} `json:"assignment"`
	Item struct {
		Pass *tasks.PassStep `json:"pass"`
		Item struct {
			Inputs map[string]json.RawMessage `json:"inputs"`
		} `json:"item"`
	} `json:"item"`
	Draft tasks.Answers `json:"draft"`
}

func decodeView(t *testing.T, body []byte) passView {
	t.Helper()
	var v passView
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return v
}

// TestRoboJudgePassBlinding proves that nothing the annotator receives while in the Physical
// Adherence pass holds the instruction's value or the initial frame: the claim, the claim ahead,
// draft saves, a reload, a heartbeat, a refused draft, the submit and its replay. The
// instruction arrives with the second pass.
func TestRoboJudgePassBlinding(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann := e.newUser("ann@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", passLine("pb-1"), passLine("pb-2"))
		base := "/api/v1/projects/" + pid

		var pass1 [][]byte
		record := func(want int) func(int, []byte) []byte {
			return func(status int, body []byte) []byte {
				t.Helper()
				if status != want {
					t.Fatalf("status %d, want %d: %s", status, want, body)
				}
				pass1 = append(pass1, body)
				return body
			}
		}
		claim := decodeView(t, record(200)(ann.do("POST", base+"/queue/next", map[string]any{"stage": "label"})))
		aid := claim.Assignment.ID
		if p := claim.Item.Pass; p == nil || p.Number != 1 || p.Count != 2 || p.Key != "pa" {
			t.Fatalf("claim is not in pass 1 of 2: %+v", p)
		}
		record(200)(ann.do("POST", base+"/queue/next", map[string]any{"stage": "label", "prefetch": true}))
		pa := passAnswers(t, 0)
		record(200)(ann.do("PUT", base+"/assignments/"+aid+"/draft", map[string]any{"answers": pa, "version": claim.Assignment.Version}))
		reload := decodeView(t, record(200)(ann.do("POST", base+"/queue/next", map[string]any{"stage": "label"})))
		if reload.Assignment.ID != aid || reload.Item.Pass.Number != 1 || string(reload.Draft["physical_adherence"]) != string(pa["physical_adherence"]) {
			t.Fatalf("a reload does not resume pass 1 with its draft: %+v", reload)
		}
		record(200)(ann.do("POST", base+"/assignments/"+aid+"/heartbeat", nil))
		refused := record(422)(ann.do("PUT", base+"/assignments/"+aid+"/draft", map[string]any{"answers": passAnswers(t, 1), "version": reload.Assignment.Version}))
		if !strings.Contains(string(refused), tasks.CodeNotInPass) {
			t.Fatalf("a draft of pass 2 in pass 1: %s", refused)
		}
		record(422)(ann.do("POST", base+"/assignments/"+aid+"/submit", map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()}))
		key := []string{"Idempotency-Key", "pass-1-" + aid}
		sub := record(200)(ann.do("POST", base+"/assignments/"+aid+"/submit", map[string]any{"answers": pa, "time_spent_ms": 1000}, key...))
		replay := record(200)(ann.do("POST", base+"/assignments/"+aid+"/submit", map[string]any{"answers": pa, "time_spent_ms": 1000}, key...))
		var res struct {
			Assignment struct{ Status string } `json:"assignment"`
			Replayed   bool                    `json:"replayed"`
			NextPass   *tasks.PassStep         `json:"next_pass"`
		}
		json.Unmarshal(sub, &res)
		if res.Assignment.Status != "active" || res.NextPass == nil || res.NextPass.Number != 2 {
			t.Fatalf("pass 1 submit did not open pass 2: %s", sub)
		}
		json.Unmarshal(replay, &res)
		if !res.Replayed || res.NextPass == nil || res.NextPass.Number != 2 {
			t.Fatalf("a retried pass submit was not replayed: %s", replay)
		}

		st, body := ann.do("POST", base+"/queue/next", map[string]any{"stage": "label"})
		if st != 200 {
			t.Fatalf("pass 2 claim: %d %s", st, body)
		}
		p2 := decodeView(t, body)
		if p2.Assignment.ID != aid || p2.Item.Pass == nil || p2.Item.Pass.Number != 2 {
			t.Fatalf("pass 2 is not the same assignment: %s", body)
		}
		if !strings.Contains(string(body), secretInstruction) {
			t.Fatalf("pass 2 lacks the instruction: %s", body)
		}
		frame := string(p2.Item.Item.Inputs["first_frame"])
		if frame == "" {
			t.Fatalf("pass 2 lacks the initial frame: %s", body)
		}
		for i, b := range pass1 {
			for _, leak := range []string{secretInstruction, frame, "first_frame"} {
				if strings.Contains(string(b), leak) {
					t.Errorf("response %d of pass 1 holds %s: %s", i, leak, b)
				}
			}
		}
	})
}

// TestPassOrderAndRevisions: a pass's answers cannot be changed once the next pass was shown,
// answers of a later pass are refused early, the label holds every pass's answers and time, and
// each revision records the pass it was made in and the inputs that pass showed.
func TestPassOrderAndRevisions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann := e.newUser("ann@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", passLine("po-1"))
		base := "/api/v1/projects/" + pid
		pa, ia := passAnswers(t, 0), passAnswers(t, 1)

		c := ann.next(pid, "label")
		aid := c.Assignment.ID
		if st, body := ann.do("POST", base+"/assignments/"+aid+"/submit", map[string]any{"answers": ia}); st != 422 || !strings.Contains(string(body), tasks.CodeNotInPass) {
			t.Fatalf("pass 2 answers in pass 1: %d %s", st, body)
		}
		if st, body := ann.do("POST", base+"/assignments/"+aid+"/submit", map[string]any{"answers": answers("physical_adherence", 3)}); st != 422 || !strings.Contains(string(body), "pa_checklist") {
			t.Fatalf("an incomplete pass 1 was accepted: %d %s", st, body)
		}
		ann.must("POST", base+"/assignments/"+aid+"/submit", map[string]any{"answers": pa, "time_spent_ms": 1000}, 200, nil)

		c2 := ann.next(pid, "label")
		if len(c2.Draft) != 0 {
			t.Fatalf("pass 2's draft holds pass 1's answers: %v", c2.Draft)
		}
		changed := merge(pa, answers("physical_adherence", 1))
		for _, req := range []struct {
			method, path string
			body         map[string]any
		}{
			{"PUT", "/draft", map[string]any{"answers": merge(ia, changed), "version": c2.Assignment.Version}},
			{"POST", "/submit", map[string]any{"answers": merge(ia, changed)}},
		} {
			st, body := ann.do(req.method, base+"/assignments/"+aid+req.path, req.body)
			if st != 422 || !strings.Contains(string(body), tasks.CodeNotInPass) {
				t.Fatalf("pass 1 changed after pass 2 was shown (%s): %d %s", req.path, st, body)
			}
		}
		ann.must("PUT", base+"/assignments/"+aid+"/draft", map[string]any{"answers": answers("ia_evidence", "draft text of the second pass"), "version": c2.Assignment.Version}, 200, nil)
		if stage := ann.submitOK(aid, map[string]any{"answers": ia, "time_spent_ms": 500}); stage != "done" {
			t.Fatalf("after both passes the item is in %q", stage)
		}

		ctx := context.Background()
		a, err := e.store.Assignment(ctx, aid)
		if err != nil {
			t.Fatal(err)
		}
		var got tasks.Answers
		json.Unmarshal(a.Answers, &got)
		if string(got["physical_adherence"]) != string(pa["physical_adherence"]) || string(got["instruction_alignment"]) != string(ia["instruction_alignment"]) || len(got) != len(pa)+len(ia) {
			t.Fatalf("the label does not hold both passes: %s", a.Answers)
		}
		if a.TimeSpentMS != 1500 {
			t.Errorf("time of both passes: %d", a.TimeSpentMS)
		}
		revs, err := e.store.Revisions(ctx, aid)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, r := range revs {
			var inputs []string
			json.Unmarshal(r.Inputs, &inputs)
			if r.Pass == nil {
				t.Fatalf("revision %d records no pass", r.Version)
			}
			kinds = append(kinds, r.Kind+":"+*r.Pass)
			seesInstruction := slices.Contains(inputs, "instruction")
			if seesInstruction != (*r.Pass == "ia") {
				t.Errorf("revision %d of pass %s records inputs %v", r.Version, *r.Pass, inputs)
			}
			if *r.Pass == "pa" && strings.Contains(string(r.Answers), "instruction_alignment") {
				t.Errorf("a pass 1 revision holds pass 2 answers: %s", r.Answers)
			}
		}
		if want := []string{"pass:pa", "draft:ia", "submit:ia"}; !slices.Equal(kinds, want) {
			t.Errorf("revisions %v, want %v", kinds, want)
		}
		if st, _ := ann.do("POST", base+"/queue/next", map[string]any{"stage": "label"}); st != http.StatusNoContent {
			t.Errorf("the item came back after both passes: %d", st)
		}
	})
}

// TestPassBlindsMedia: the signed-URL endpoint keeps a pass's blinding. While the annotator is in
// the Physical Adherence pass of an item, the initial frame's file is refused; once the second
// pass opens, it is served. The lead, the video of the open pass and an annotator who holds no
// pass keep access.
func TestPassBlindsMedia(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann, idle := e.newUser("ann@example.org", false), e.newUser("idle@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 2})
		lead.member(pid, ann, "annotator")
		lead.member(pid, idle, "annotator")
		frame := uploadAsset(t, lead, pid, "frame.png", pngBytes)
		video := uploadAsset(t, lead, pid, "rollout.mp4", []byte("\x00\x00\x00\x18ftypmp42rollout"))
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", fmt.Sprintf(`{"external_id":"pm-1","inputs":{"video":{"asset":%q},"first_frame":{"asset":%q},"instruction":%q,"generator":"g"}}`, video, frame, secretInstruction))
		base := "/api/v1/projects/" + pid
		url := func(c *client, id string) (int, []byte) { return c.do("GET", "/api/v1/assets/"+id+"/url", nil) }

		c := ann.next(pid, "label")
		st, body := url(ann, frame)
		if st != http.StatusForbidden || !strings.Contains(string(body), `"hidden_in_pass"`) {
			t.Fatalf("the initial frame during pass 1: %d %s", st, body)
		}
		for _, ok := range []struct {
			who  *client
			id   string
			what string
		}{{ann, video, "the video during pass 1"}, {lead, frame, "the lead asks for the frame"}, {idle, frame, "an annotator without a pass asks for the frame"}} {
			if st, body := url(ok.who, ok.id); st != http.StatusOK {
				t.Errorf("%s: %d %s", ok.what, st, body)
			}
		}
		ann.must("POST", base+"/assignments/"+c.Assignment.ID+"/submit", map[string]any{"answers": passAnswers(t, 0)}, 200, nil)
		var u struct{ URL string }
		ann.must("GET", "/api/v1/assets/"+frame+"/url", nil, 200, &u)
		if b, _ := fetch(t, e, u.URL); len(b) == 0 {
			t.Fatal("the frame's bytes are empty in pass 2")
		}
	})
}

// ownQueueProject makes a RoboJudge project whose passes are each their own queue.
func ownQueueProject(t *testing.T, lead *client, workflow map[string]any) string {
	t.Helper()
	s := mustTemplate("robojudge")
	s.PassMode = tasks.PassOwnQueue
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "rj own queue", "schema": s, "workflow": workflow}, 201, &p)
	return p.ID
}

// TestOwnQueuePasses runs RoboJudge with each pass its own queue (overlap 2, four annotators):
// pass-2 work appears only once both pass-1 labels are in, nobody labels both passes of an item,
// nothing a pass-1 annotator receives holds the instruction (nor may they fetch the initial
// frame's file), each label holds only its pass's answers, and the ground truth answers every
// question.
func TestOwnQueuePasses(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		t.Run("no review", func(t *testing.T) { ownQueueRun(t, open, "none") })
		t.Run("cross review", func(t *testing.T) { ownQueueRun(t, open, "cross") })
	})
}

// ownQueueRun is TestOwnQueuePasses with a review policy. With cross review, each label is
// reviewed in its own pass: a pass-1 label's review shows no instruction, and a correction
// answers that pass's questions only.
func ownQueueRun(t *testing.T, open func(testing.TB) *store.Store, review string) {
	e := newEnv(t, open)
	lead, rev := e.newUser("lead@example.org", false), e.newUser("rev@example.org", false)
	var people []*client
	for _, n := range []string{"a", "b", "c", "d"} {
		people = append(people, e.newUser(n+"@example.org", false))
	}
	a, b, c, d := people[0], people[1], people[2], people[3]
	pid := ownQueueProject(t, lead, map[string]any{"overlap": 2, "review": review})
	for _, u := range people {
		lead.member(pid, u, "annotator")
	}
	lead.member(pid, rev, "reviewer")
	frame := uploadAsset(t, lead, pid, "frame.png", pngBytes)
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", fmt.Sprintf(`{"external_id":"oq-1","inputs":{"video":"media/robot_rollout.mp4","first_frame":{"asset":%q},"instruction":%q,"generator":"g"}}`, frame, secretInstruction))
	base := "/api/v1/projects/" + pid
	pa, ia := passAnswers(t, 0), passAnswers(t, 1)
	var pass1 [][]byte
	claim := func(u *client) (int, []byte) {
		st, body := u.do("POST", base+"/queue/next", map[string]any{"stage": "label"})
		if st != 200 && st != http.StatusNoContent {
			t.Fatalf("%s claims: %d %s", u.user.Email, st, body)
		}
		return st, body
	}

	// reviewPass reviews the two labels of a pass (cross review only), correcting the first
	// pass-1 label with answers to that pass's questions only.
	reviewPass := func(number int) {
		for i := 0; review == "cross"; i++ {
			r := rev.next(pid, "review")
			if r == nil {
				if i != 2 {
					t.Fatalf("%d reviews of pass %d, want one per label", i, number)
				}
				return
			}
			body := map[string]any{"verdict": "approve"}
			if p := decodeView(t, r.raw).Item.Pass; p == nil || p.Number != number {
				t.Fatalf("a review in pass %v, want %d: %s", p, number, r.raw)
			}
			if number == 1 {
				pass1 = append(pass1, r.raw)
				if i == 0 {
					body = map[string]any{"verdict": "correct", "answers": merge(pa, answers("pa_evidence", "corrected: the gripper slips")), "comment": "slips"}
				}
			}
			rev.submitOK(r.Assignment.ID, body)
		}
	}

	var ids []string
	for _, u := range []*client{a, b} {
		st, body := claim(u)
		v := decodeView(t, body)
		if st != 200 || v.Item.Pass == nil || v.Item.Pass.Number != 1 {
			t.Fatalf("%s's claim is not in pass 1: %d %s", u.user.Email, st, body)
		}
		pass1 = append(pass1, body)
		ids = append(ids, v.Assignment.ID)
	}
	if st, body := a.do("GET", "/api/v1/assets/"+frame+"/url", nil); st != http.StatusForbidden || !strings.Contains(string(body), "hidden_in_pass") {
		t.Fatalf("the initial frame in a pass-1 label: %d %s", st, body)
	}
	if st, _ := claim(c); st != http.StatusNoContent {
		t.Fatal("pass 2 opened before pass 1 had its labels")
	}
	st, body := a.do("POST", base+"/assignments/"+ids[0]+"/submit", map[string]any{"answers": merge(pa, ia)})
	if st != 422 || !strings.Contains(string(body), tasks.CodeNotInPass) {
		t.Fatalf("pass 2 answers in a pass-1 label: %d %s", st, body)
	}
	pass1 = append(pass1, body)
	for i, u := range []*client{a, b} {
		st, body := u.do("POST", base+"/assignments/"+ids[i]+"/submit", map[string]any{"answers": pa, "time_spent_ms": 1000})
		if st != 200 || !strings.Contains(string(body), `"status":"submitted"`) {
			t.Fatalf("%s submits pass 1: %d %s", u.user.Email, st, body)
		}
		pass1 = append(pass1, body)
		if i == 0 {
			if st, _ := claim(c); st != http.StatusNoContent {
				t.Fatal("pass 2 opened after one of two pass-1 labels")
			}
		}
	}
	for _, u := range []*client{a, b} {
		st, body := claim(u)
		pass1 = append(pass1, body)
		if st != http.StatusNoContent {
			t.Fatalf("%s, who labelled pass 1, was given the item again: %s", u.user.Email, body)
		}
	}
	if review == "cross" { // note: a pass opens the next once its labels are reviewed
		if st, _ := claim(c); st != http.StatusNoContent {
			t.Fatal("pass 2 opened before pass 1's labels were reviewed")
		}
		reviewPass(1)
	}
	for _, u := range []*client{c, d} {
		st, body := claim(u)
		v := decodeView(t, body)
		if st != 200 || v.Item.Pass == nil || v.Item.Pass.Number != 2 || !strings.Contains(string(body), secretInstruction) {
			t.Fatalf("%s's claim is not pass 2 with the instruction: %d %s", u.user.Email, st, body)
		}
		want := map[string]string{"none": "done", "cross": "review"}[review]
		if stage := u.submitOK(v.Assignment.ID, map[string]any{"answers": ia}); u == d && stage != want {
			t.Fatalf("after both passes' labels the item is in %q, want %q", stage, want)
		}
	}
	reviewPass(2)
	for i, body := range pass1 {
		if strings.Contains(string(body), secretInstruction) || strings.Contains(string(body), frame) {
			t.Errorf("response %d of pass 1 holds the instruction or the frame: %s", i, body)
		}
	}

	// each label holds its pass's answers; nobody labelled twice; the truth answers everything
	rows := dbStrings(t, e.store, "SELECT user_id || ' ' || pass || ' ' || answers FROM assignments WHERE project_id = $1 AND stage = 'label' ORDER BY pass, user_id", pid)
	if len(rows) != 4 {
		t.Fatalf("labels: %v", rows)
	}
	users := map[string]bool{}
	for _, r := range rows {
		parts := strings.SplitN(r, " ", 3)
		users[parts[0]] = true
		var got tasks.Answers
		json.Unmarshal([]byte(parts[2]), &got)
		want := map[string]tasks.Answers{"0": pa, "1": ia}[parts[1]]
		if len(got) != len(want) || string(got["physical_adherence"]) != string(want["physical_adherence"]) || string(got["instruction_alignment"]) != string(want["instruction_alignment"]) {
			t.Errorf("a label of pass %s holds %s", parts[1], parts[2])
		}
	}
	if len(users) != 4 {
		t.Errorf("%d people labelled the item's four labels", len(users))
	}
	item := lead.items(pid, "")[0]
	if item.Stage != "done" || item.GroundTruth == nil {
		t.Fatalf("the item is not decided: %+v", item)
	}
	texts := lead.itemDetail(pid, item.ID).Item.GroundTruth.Texts
	for _, q := range mustTemplate("robojudge").Questions {
		_, answered := item.GroundTruth.Answers[q.Key]
		if q.Kind == tasks.KindText { // note: evidence is kept as every accepted label's text
			answered = len(texts[q.Key]) == 2
		}
		if !answered {
			t.Errorf("ground truth lacks %s: %v, texts %v", q.Key, slices.Collect(maps.Keys(item.GroundTruth.Answers)), texts)
		}
	}
	if corrected := fmt.Sprint(texts["pa_evidence"]); (review == "cross") != strings.Contains(corrected, "the gripper slips") {
		t.Errorf("pa_evidence texts %s with review %s", corrected, review)
	}
}

// TestOwnQueueGold: with each pass its own queue, a gold item is still answered whole by one
// person, pass after pass, and scored on every pass's answers.
func TestOwnQueueGold(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := ownQueueProject(t, lead, map[string]any{"overlap": 2, "gold_rate": 1})
		lead.member(pid, ann, "annotator")
		gold, _ := json.Marshal(map[string]any{"external_id": "gold-1", "gold": true, "ground_truth": map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()},
			"inputs": map[string]any{"video": "media/robot_rollout.mp4", "first_frame": "media/robot_first_frame.png", "instruction": secretInstruction, "generator": "g"}})
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", string(gold), passLine("prod-1"))
		base := "/api/v1/projects/" + pid

		c := ann.next(pid, "label")
		if p := decodeView(t, c.raw).Item.Pass; p == nil || p.Number != 1 || strings.Contains(string(c.raw), secretInstruction) {
			t.Fatalf("the gold claim is not pass 1 without the instruction: %s", c.raw)
		}
		var res struct {
			Assignment struct{ Status string } `json:"assignment"`
			NextPass   *tasks.PassStep         `json:"next_pass"`
		}
		ann.must("POST", base+"/assignments/"+c.Assignment.ID+"/submit", map[string]any{"answers": passAnswers(t, 0)}, 200, &res)
		if res.Assignment.Status != "active" || res.NextPass == nil || res.NextPass.Number != 2 {
			t.Fatalf("pass 1 of a gold item did not open pass 2 for the same person: %+v", res)
		}
		c2 := ann.next(pid, "label")
		if c2.Assignment.ID != c.Assignment.ID || !strings.Contains(string(c2.raw), secretInstruction) {
			t.Fatalf("pass 2 of the gold item: %s", c2.raw)
		}
		ann.submitOK(c2.Assignment.ID, map[string]any{"answers": passAnswers(t, 1)})
		if got := dbStrings(t, e.store, "SELECT CASE WHEN gold_correct THEN 'correct' ELSE 'wrong' END FROM assignments WHERE id = $1", c.Assignment.ID); len(got) != 1 || got[0] != "correct" {
			t.Fatalf("the gold label was scored %v, want correct", got)
		}
	})
}

// TestOwnQueueRejectedLabel: with cross review, a pass's label rejected in review frees its slot
// in that pass, which someone else fills before the next pass opens; the person whose label was
// rejected labels no other pass of the item.
func TestOwnQueueRejectedLabel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, rev := e.newUser("lead@example.org", false), e.newUser("rev@example.org", false)
		a, b, c := e.newUser("a@example.org", false), e.newUser("b@example.org", false), e.newUser("c@example.org", false)
		pid := ownQueueProject(t, lead, map[string]any{"overlap": 1, "review": "cross"})
		for _, u := range []*client{a, b, c} {
			lead.member(pid, u, "annotator")
		}
		lead.member(pid, rev, "reviewer")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", passLine("rj-1"))
		passOf := func(cr *claimResp) int {
			if cr == nil {
				return 0
			}
			return decodeView(t, cr.raw).Item.Pass.Number
		}
		label := func(u *client, pass int) {
			t.Helper()
			cr := u.next(pid, "label")
			if got := passOf(cr); got != pass {
				t.Fatalf("%s was given pass %d, want %d", u.user.Email, got, pass)
			}
			u.submitOK(cr.Assignment.ID, map[string]any{"answers": passAnswers(t, pass-1)})
		}
		verdict := func(v string) {
			t.Helper()
			r := rev.next(pid, "review")
			if r == nil {
				t.Fatal("no label to review")
			}
			rev.submitOK(r.Assignment.ID, map[string]any{"verdict": v, "comment": "checked"})
		}

		label(a, 1)
		if got := passOf(b.next(pid, "label")); got != 0 {
			t.Fatalf("b was given pass %d while pass 1's only label waits for review", got)
		}
		verdict("reject")
		label(b, 1) // the rejected label's slot, in pass 1 again
		verdict("approve")
		if got := passOf(a.next(pid, "label")); got != 0 {
			t.Fatalf("a, whose pass-1 label was rejected, was given pass %d", got)
		}
		label(c, 2)
		verdict("approve")
		item := lead.items(pid, "")[0]
		if item.Stage != "done" || item.GroundTruth == nil || item.GroundTruth.Answers["physical_adherence"] == nil || item.GroundTruth.Answers["instruction_alignment"] == nil {
			t.Fatalf("the item after a refilled pass: %+v", item)
		}
	})
}
