package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// checklistProject makes a binary-checklist project with the given workflow.
func checklistProject(t *testing.T, lead *client, workflow map[string]any) string {
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "bc", "template": "binary-checklist", "workflow": workflow}, 201, &p)
	return p.ID
}

// checklistLine is an item line of the binary-checklist template; gold lines carry the gold
// answers.
func checklistLine(ext string, gold map[string]string) string {
	line := map[string]any{"external_id": ext, "inputs": map[string]any{"prompt": "Prompt " + ext,
		"output": []map[string]any{{"id": "o1", "type": "image", "value": "https://media.example.org/" + ext + ".png"}}}}
	if gold != nil {
		line["gold"] = true
		line["ground_truth"] = map[string]any{"answers": gold}
	}
	b, _ := json.Marshal(line)
	return string(b)
}

var allYes = map[string]string{"follows_prompt": "yes", "subject_count": "yes", "visible_artifacts": "no", "safe": "yes"}

func checklistAnswers(follows, count, artifacts, safe string) map[string]any {
	return map[string]any{"follows_prompt": follows, "subject_count": count, "visible_artifacts": artifacts, "safe": safe}
}

// shape is the structure of a JSON document: its keys and the JSON type of each value, with
// the values themselves left out.
func shape(t *testing.T, raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any, at string, out *[]string)
	walk = func(v any, at string, out *[]string) {
		switch x := v.(type) {
		case map[string]any:
			*out = append(*out, at+":object")
			for k, e := range x {
				walk(e, at+"."+k, out)
			}
		case []any:
			*out = append(*out, at+":array")
			for _, e := range x {
				walk(e, at+"[]", out)
			}
		default:
			*out = append(*out, fmt.Sprintf("%s:%T", at, x))
		}
	}
	var out []string
	walk(v, "", &out)
	sort.Strings(out)
	return strings.Join(slices.Compact(out), " ")
}

// goldItemIDs returns the ids of a project's gold items, from the database.
func goldItemIDs(t *testing.T, st *store.Store, pid string) map[string]bool {
	ids := dbStrings(t, st, "SELECT id FROM items WHERE project_id = $1 AND stage = 'gold'", pid)
	out := map[string]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// TestGoldMixing: gold items go out at gold_rate (checked over 200 claims), look like any other
// claim in every response the annotator gets, keep the available count honest, and never
// become ground truth.
func TestGoldMixing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := checklistProject(t, lead, map[string]any{"overlap": 1, "gold_rate": 0.3})
		lead.member(pid, ann, "annotator")
		var lines []string
		for i := range 250 {
			lines = append(lines, checklistLine(fmt.Sprintf("p-%03d", i), nil))
		}
		for i := range 120 {
			lines = append(lines, checklistLine(fmt.Sprintf("g-%03d", i), allYes))
		}
		if rep := lead.importNDJSON("/api/v1/projects/"+pid+"/items", lines...); rep["imported"].(float64) != 370 {
			t.Fatalf("import: %v", rep)
		}
		gold := goldItemIDs(t, e.store, pid)
		if len(gold) != 120 {
			t.Fatalf("%d gold items", len(gold))
		}
		shapes := map[bool]map[string]bool{true: {}, false: {}}
		submitShapes := map[bool]map[string]bool{true: {}, false: {}}
		stages := map[bool]map[string]bool{true: {}, false: {}}
		const claims = 200
		goldClaims := 0
		available := progressAvailable(t, ann, pid)
		for range claims {
			c := ann.next(pid, "label")
			isGold := gold[dbStrings(t, e.store, "SELECT item_id FROM assignments WHERE id = $1", c.Assignment.ID)[0]]
			if isGold {
				goldClaims++
			}
			shapes[isGold][shape(t, c.raw)] = true
			status, body := ann.do("POST", "/api/v1/projects/"+pid+"/assignments/"+c.Assignment.ID+"/submit",
				map[string]any{"answers": checklistAnswers("yes", "na", "no", "yes"), "time_spent_ms": 4000})
			if status != 200 {
				t.Fatalf("submit: %d %s", status, body)
			}
			submitShapes[isGold][shape(t, body)] = true
			var sr struct {
				ItemStage string `json:"item_stage"`
			}
			json.Unmarshal(body, &sr)
			stages[isGold][sr.ItemStage] = true
			if now := progressAvailable(t, ann, pid); now != available-1 {
				t.Fatalf("available went from %d to %d after a submit (gold %v)", available, now, isGold)
			}
			available--
		}
		// note: a claim is gold with probability 0.3 while production work is left, so over 200
		// claims the count is Binomial(200, 0.3): mean 60, sd 6.5; 4 sd either side fails by
		// chance about once in 16,000 runs
		mean, sd := claims*0.3, math.Sqrt(claims*0.3*0.7)
		if math.Abs(float64(goldClaims)-mean) > 4*sd {
			t.Fatalf("%d gold claims of %d, want %.0f ± %.0f", goldClaims, claims, mean, 4*sd)
		}
		for _, m := range []map[bool]map[string]bool{shapes, submitShapes} {
			if len(m[true]) != 1 || len(m[false]) != 1 || !maps1Equal(m[true], m[false]) {
				t.Fatalf("gold and production responses differ in shape:\ngold %v\nproduction %v", keysOf(m[true]), keysOf(m[false]))
			}
		}
		if !maps1Equal(stages[true], stages[false]) {
			t.Fatalf("item_stage after a submit: gold %v, production %v", stages[true], stages[false])
		}
		truths := dbInt(t, e.store, "SELECT COUNT(*) FROM ground_truth_revisions g JOIN items i ON i.id = g.item_id WHERE i.project_id = $1 AND i.stage = 'gold'", pid)
		for _, it := range lead.items(pid, "stage=gold") {
			if it.GroundTruth != nil || !gold[it.ID] {
				t.Fatalf("a gold item has ground truth or is not gold: %+v", it)
			}
		}
		if truths != 0 {
			t.Fatalf("%d ground truth revisions on gold items", truths)
		}
		if notGold := dbInt(t, e.store, "SELECT COUNT(*) FROM items WHERE project_id = $1 AND stage = 'gold' AND gt_revision = 0", pid); notGold != 120 {
			t.Fatalf("gold items left their stage: %d in gold", notGold)
		}
	})
}

func progressAvailable(t *testing.T, c *client, pid string) int64 {
	var pr struct {
		Stages []struct {
			Stage     string
			Available int64
		}
	}
	c.must("GET", "/api/v1/projects/"+pid+"/me/progress", nil, 200, &pr)
	for _, s := range pr.Stages {
		if s.Stage == "label" {
			return s.Available
		}
	}
	t.Fatal("no label stage in progress")
	return 0
}

func maps1Equal(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keysOf(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestGoldNeverReleased: a release with every stage (include_dropped) leaves gold items out.
func TestGoldNeverReleased(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := checklistProject(t, lead, map[string]any{"overlap": 1, "gold_rate": 1})
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", checklistLine("p-1", nil), checklistLine("p-2", nil),
			checklistLine("g-1", allYes), checklistLine("g-2", allYes))
		for c := ann.next(pid, "label"); c != nil; c = ann.next(pid, "label") {
			ann.submitOK(c.Assignment.ID, map[string]any{"answers": checklistAnswers("yes", "yes", "no", "yes")})
		}
		rid := lead.startRelease(pid, map[string]any{"name": "v1", "formats": []string{"jsonl"}, "options": map[string]any{"include_dropped": true, "raw": true}})
		v := lead.waitRelease(pid, rid)
		if v.Status != "done" {
			t.Fatalf("release: %+v", v)
		}
		files := lead.releaseFiles(pid, v)
		var all strings.Builder
		for path, b := range files {
			if strings.HasSuffix(path, ".jsonl") {
				all.Write(b)
			}
		}
		if !strings.Contains(all.String(), "p-1") || !strings.Contains(all.String(), "p-2") {
			t.Fatalf("the production items are not released: %s", all.String())
		}
		if strings.Contains(all.String(), "g-1") || strings.Contains(all.String(), "g-2") {
			t.Fatalf("a gold item was released: %s", all.String())
		}
	})
}

// TestGoldPauseAndLift: an annotator below gold_min_accuracy over the window is flagged and,
// with gold_pause, paused until a lead lifts it; both are audited and the window starts over.
func TestGoldPauseAndLift(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := checklistProject(t, lead, map[string]any{"overlap": 1, "gold_rate": 1, "gold_window": 5,
			"gold_min_accuracy": 0.8, "gold_pause": true})
		lead.member(pid, ann, "annotator")
		lines := []string{checklistLine("p-1", nil), checklistLine("p-2", nil)}
		for i := range 12 {
			lines = append(lines, checklistLine(fmt.Sprintf("g-%02d", i), allYes))
		}
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", lines...)
		wrong := checklistAnswers("no", "yes", "no", "yes")
		// three right, two wrong: 3/5 = 0.6 < 0.8 once the fifth is in
		for i := range 5 {
			c := ann.next(pid, "label")
			if c == nil {
				t.Fatalf("no work after %d gold answers", i)
			}
			a := checklistAnswers("yes", "yes", "no", "yes")
			if i >= 3 {
				a = wrong
			}
			ann.submitOK(c.Assignment.ID, map[string]any{"answers": a})
		}
		status, body := ann.do("POST", "/api/v1/projects/"+pid+"/queue/next", map[string]string{"stage": "label"})
		if status != 403 || errorCode(t, body) != "paused" {
			t.Fatalf("a paused annotator claims: %d %s", status, body)
		}
		var members []struct {
			UserID string `json:"user_id"`
			Paused bool   `json:"paused"`
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/members", nil, 200, &members)
		if !slices.ContainsFunc(members, func(m struct {
			UserID string `json:"user_id"`
			Paused bool   `json:"paused"`
		}) bool {
			return m.UserID == ann.user.ID && m.Paused
		}) {
			t.Fatalf("members: %+v", members)
		}
		q := quality(t, lead, pid)[ann.user.ID]
		if len(q.Flags) != 1 || q.Flags[0].Code != "low_gold_accuracy" || !q.Paused ||
			q.Gold.Answered != 5 || q.Gold.Correct != 3 || q.Gold.WindowAnswered != 5 || *q.Gold.WindowAccuracy != 0.6 {
			t.Fatalf("quality of the paused annotator: %+v", q)
		}
		if st, _ := ann.do("PUT", "/api/v1/projects/"+pid+"/members/"+ann.user.ID, map[string]any{"paused": false}); st != 403 {
			t.Fatalf("an annotator lifts their own pause: %d", st)
		}
		var res struct {
			Status string
			Paused *bool
			Roles  []string
		}
		lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+ann.user.ID, map[string]any{"paused": false}, 200, &res)
		if res.Status != "updated" || res.Paused == nil || *res.Paused || len(res.Roles) != 1 {
			t.Fatalf("lift: %+v", res)
		}
		if ann.next(pid, "label") == nil {
			t.Fatal("no work after the pause was lifted")
		}
		q = quality(t, lead, pid)[ann.user.ID]
		if len(q.Flags) != 0 || q.Paused || q.Gold.WindowAnswered != 0 || q.Gold.Answered != 5 {
			t.Fatalf("quality after the lift: %+v", q)
		}
		actions := dbStrings(t, e.store, "SELECT action FROM audit_events WHERE project_id = $1 AND action LIKE 'member.%pause' ORDER BY created_at", pid)
		if !slices.Equal(actions, []string{"member.pause", "member.unpause"}) {
			t.Fatalf("audit: %v", actions)
		}
		if st, body := lead.do("PUT", "/api/v1/projects/"+pid+"/members/nobody@example.org", map[string]any{"paused": false}); st != 422 ||
			!strings.Contains(string(body), `"paused"`) {
			t.Fatalf("lifting a non-member: %d %s", st, body)
		}
		if st, body := lead.do("PUT", "/api/v1/projects/"+pid+"/members/"+ann.user.ID, map[string]any{}); st != 422 {
			t.Fatalf("an empty member change: %d %s", st, body)
		}
	})
}

// annotatorQuality is one annotator of GET .../quality.
type annotatorQuality struct {
	UserID         string             `json:"user_id"`
	Name           string             `json:"name"`
	Labels         int                `json:"labels"`
	MedianSeconds  *float64           `json:"median_seconds"`
	P10Seconds     *float64           `json:"p10_seconds"`
	RushedShare    *float64           `json:"rushed_share"`
	PeerAgreement  *float64           `json:"peer_agreement"`
	TruthAgreement *float64           `json:"truth_agreement"`
	Paused         bool               `json:"paused"`
	YesRate        map[string]float64 `json:"yes_rate"`
	Gold           struct {
		Answered       int      `json:"answered"`
		Correct        int      `json:"correct"`
		Accuracy       *float64 `json:"accuracy"`
		WindowAnswered int      `json:"window_answered"`
		WindowAccuracy *float64 `json:"window_accuracy"`
	} `json:"gold"`
	Drafts struct {
		Labels         int      `json:"labels"`
		Agreement      *float64 `json:"agreement"`
		UnchangedShare *float64 `json:"unchanged_share"`
	} `json:"drafts"`
	Flags []struct{ Code, Reason string } `json:"flags"`
}

func quality(t *testing.T, lead *client, pid string) map[string]annotatorQuality {
	var rep struct {
		Annotators []annotatorQuality `json:"annotators"`
	}
	lead.must("GET", "/api/v1/projects/"+pid+"/quality", nil, 200, &rep)
	out := map[string]annotatorQuality{}
	for _, a := range rep.Annotators {
		out[a.UserID] = a
	}
	return out
}

// dbStrings runs a query of one text column.
func dbStrings(t *testing.T, st *store.Store, query string, args ...any) []string {
	t.Helper()
	rows, err := st.SQL().QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// dbInt runs a query of one integer.
func dbInt(t *testing.T, st *store.Store, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := st.SQL().QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
