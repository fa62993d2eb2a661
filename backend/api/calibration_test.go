package api_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The calibration pool of the RoboJudge tests: four items, with gold on the scores and the
// checklists (not on the evidence texts).
var (
	calPool    = []string{"p1", "p2", "p3", "p4"}
	calGoldPA  = map[string]int{"p1": 4, "p2": 2, "p3": 5, "p4": 3}
	calGoldIA  = map[string]int{"p1": 3, "p2": 3, "p3": 4, "p4": 1}
	calGoldPAC = map[string][3]int{"p1": {2, 1, 2}, "p2": {1, 0, 1}, "p3": {2, 2, 2}, "p4": {1, 1, 0}}
	calGoldIAC = map[string][3]int{"p1": {2, 2, 1}, "p2": {1, 1, 1}, "p3": {2, 2, 2}, "p4": {0, 1, 0}}
	paKeys     = []string{"agent_consistency", "scene_consistency", "interaction_realism"}
	iaKeys     = []string{"agent_match", "object_correctness", "goal_completion"}
	ordinalQs  = []string{"physical_adherence", "pa_checklist", "instruction_alignment", "ia_checklist"}
)

func checklist(keys []string, v [3]int) map[string]int {
	return map[string]int{keys[0]: v[0], keys[1]: v[1], keys[2]: v[2]}
}

func calPoolLine(id string, gold bool) string {
	line := map[string]any{"external_id": id, "inputs": map[string]any{"video": "media/robot_rollout.mp4", "first_frame": "media/robot_first_frame.png",
		"instruction": "Pick up the cube " + id + ".", "generator": "gen-" + id}}
	if gold {
		line["ground_truth"] = map[string]any{"answers": map[string]any{
			"physical_adherence": calGoldPA[id], "instruction_alignment": calGoldIA[id],
			"pa_checklist": checklist(paKeys, calGoldPAC[id]), "ia_checklist": checklist(iaKeys, calGoldIAC[id])}}
	}
	b, _ := json.Marshal(line)
	return string(b)
}

// calAnswer is what participant u answers on item id in round r: gold moved by a fixed,
// participant-specific pattern, so that the figures differ between people and rounds.
func calAnswer(r, u int, id string) tasks.Answers {
	i := slices.Index(calPool, id)
	shift := func(v, lo, hi, k int) int {
		d := []int{0, 1, -1, 2, -2}[(k)%5]
		return max(lo, min(hi, v+d))
	}
	pa := shift(calGoldPA[id], 1, 5, (u*(i+1)+r*2)%5*map[bool]int{true: 1, false: 0}[u > 0])
	ia := shift(calGoldIA[id], 1, 5, (u+i+r)%3*map[bool]int{true: 1, false: 0}[u > 0 || r > 1])
	pac, iac := calGoldPAC[id], calGoldIAC[id]
	if (i+u+r)%2 == 0 && u > 0 {
		pac[u%3] = (pac[u%3] + u) % 3
		iac[(u+1)%3] = (iac[(u+1)%3] + 1) % 3
	}
	return answers("physical_adherence", pa, "instruction_alignment", ia, "pa_checklist", checklist(paKeys, pac),
		"ia_checklist", checklist(iaKeys, iac), "pa_evidence", "the gripper stays intact throughout", "ia_evidence", "the cube ends where it was asked to")
}

// calData is what the test knows was submitted in one round: user → item external id → answers.
type calData struct {
	users []string // user ids, in the report's order (by name)
	items []string // external ids in round order
	ans   map[string]map[string]tasks.Answers
	secs  map[string][]float64
}

// ratings are the numeric ratings of an ordinal question: unit → rater → value (gold as "gold").
func (d *calData) ratings(q string, withGold bool) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	add := func(unit, rater string, v float64) {
		if out[unit] == nil {
			out[unit] = map[string]float64{}
		}
		out[unit][rater] = v
	}
	read := func(id, rater string, raw json.RawMessage) {
		if raw == nil {
			return
		}
		if q == "pa_checklist" || q == "ia_checklist" {
			var m map[string]float64
			json.Unmarshal(raw, &m)
			for k, v := range m {
				add(id+"/"+k, rater, v)
			}
			return
		}
		v, _ := strconv.ParseFloat(string(raw), 64)
		add(id, rater, v)
	}
	for _, id := range d.items {
		for _, u := range d.users {
			if a, ok := d.ans[u][id]; ok {
				read(id, u, a[q])
			}
		}
		if withGold {
			g := answers("physical_adherence", calGoldPA[id], "instruction_alignment", calGoldIA[id],
				"pa_checklist", checklist(paKeys, calGoldPAC[id]), "ia_checklist", checklist(iaKeys, calGoldIAC[id]))
			read(id, "gold", g[q])
		}
	}
	return out
}

// pairwise is RoboJudge's Table 5 over every pair of ratings of each unit among raters:
// exact, within ±1 and mean absolute difference.
func pairwise(units map[string]map[string]float64, raters []string) (exact, within, mad float64, n int) {
	for _, u := range units {
		var vs []float64
		for _, r := range raters {
			if v, ok := u[r]; ok {
				vs = append(vs, v)
			}
		}
		for i := range vs {
			for j := i + 1; j < len(vs); j++ {
				d := math.Abs(vs[i] - vs[j])
				n++
				if d == 0 {
					exact++
				}
				if d <= 1 {
					within++
				}
				mad += d
			}
		}
	}
	return exact / float64(n), within / float64(n), mad / float64(n), n
}

// ordinalAlpha is Krippendorff's alpha with the ordinal metric, from its definition: the
// coincidence matrix of pairable units and δ²(c,k) = (Σ_{g=c..k} n_g − (n_c+n_k)/2)².
func ordinalAlpha(units map[string]map[string]float64, raters []string) float64 {
	o := map[[2]float64]float64{}
	for _, u := range units {
		var vs []float64
		for _, r := range raters {
			if v, ok := u[r]; ok {
				vs = append(vs, v)
			}
		}
		if len(vs) < 2 {
			continue
		}
		for i := range vs {
			for j := range vs {
				if i != j {
					o[[2]float64{vs[i], vs[j]}] += 1 / float64(len(vs)-1)
				}
			}
		}
	}
	nc := map[float64]float64{}
	var n float64
	for k, v := range o {
		nc[k[0]] += v
		n += v
	}
	var cats []float64
	for c := range nc {
		cats = append(cats, c)
	}
	sort.Float64s(cats)
	delta := func(c, k float64) float64 {
		if c > k {
			c, k = k, c
		}
		var s float64
		for _, g := range cats {
			if g >= c && g <= k {
				s += nc[g]
			}
		}
		s -= (nc[c] + nc[k]) / 2
		return s * s
	}
	var do, de float64
	for k, v := range o {
		do += v * delta(k[0], k[1])
	}
	for _, c := range cats {
		for _, k := range cats {
			de += nc[c] * nc[k] * delta(c, k)
		}
	}
	return 1 - (n-1)*do/de
}

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > 1e-9 {
		t.Errorf("%s = %v, want %.12f", what, fmtPtr(got), want)
	}
}

func fmtPtr(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

type pairFig struct {
	Exact     *float64 `json:"exact"`
	WithinOne *float64 `json:"within_one"`
	MAD       *float64 `json:"mad"`
	Alpha     *float64 `json:"alpha"`
}

type calReport struct {
	Annotators []struct {
		UserID        string   `json:"user_id"`
		ItemsDone     int      `json:"items_done"`
		MedianSeconds *float64 `json:"median_seconds"`
		Score         *float64 `json:"score"`
		Passed        bool     `json:"passed"`
		Questions     map[string]struct {
			Accuracy      *float64           `json:"accuracy"`
			Exact         *float64           `json:"exact"`
			WithinOne     *float64           `json:"within_one"`
			MAD           *float64           `json:"mad"`
			PeerAgreement *float64           `json:"peer_agreement"`
			Peers         map[string]pairFig `json:"peers"`
		} `json:"questions"`
	} `json:"annotators"`
	Questions []struct {
		Key       string    `json:"key"`
		Level     string    `json:"level"`
		Alpha     *float64  `json:"alpha"`
		AlphaCI   []float64 `json:"alpha_ci"`
		Exact     *float64  `json:"exact"`
		WithinOne *float64  `json:"within_one"`
		MAD       *float64  `json:"mad"`
		NUnits    int       `json:"n_units"`
		NRatings  int       `json:"n_ratings"`
	} `json:"questions"`
	Pooled *struct {
		Questions []string  `json:"questions"`
		Alpha     *float64  `json:"alpha"`
		AlphaCI   []float64 `json:"alpha_ci"`
		Exact     *float64  `json:"exact"`
		WithinOne *float64  `json:"within_one"`
		MAD       *float64  `json:"mad"`
		NUnits    int       `json:"n_units"`
		NRatings  int       `json:"n_ratings"`
	} `json:"pooled"`
	Matrix struct {
		Annotators []struct {
			UserID string `json:"user_id"`
		} `json:"annotators"`
		Values [][]*float64 `json:"values"`
	} `json:"matrix"`
	Disputed []struct {
		ItemID   string `json:"item_id"`
		Question string `json:"question"`
	} `json:"disputed"`
	Trend struct {
		Rounds    []int `json:"rounds"`
		Questions map[string]struct {
			Alpha     []*float64 `json:"alpha"`
			Exact     []*float64 `json:"exact"`
			WithinOne []*float64 `json:"within_one"`
			MAD       []*float64 `json:"mad"`
		} `json:"questions"`
		Pooled *struct {
			Alpha     []*float64 `json:"alpha"`
			Exact     []*float64 `json:"exact"`
			WithinOne []*float64 `json:"within_one"`
			MAD       []*float64 `json:"mad"`
		} `json:"pooled"`
	} `json:"trend"`
}

// runRound has every participant claim and submit the round's items through queue/next; skip
// names a participant who leaves their last item claimed but unsubmitted (its assignment id is
// returned).
func runRound(t *testing.T, e *env, pid string, r int, people []*client, byID map[string]string, skip *client) (*calData, string) {
	t.Helper()
	d := &calData{ans: map[string]map[string]tasks.Answers{}, secs: map[string][]float64{}}
	left := ""
	for u, c := range people {
		d.ans[c.user.ID] = map[string]tasks.Answers{}
		for k := 0; ; k++ {
			cl := c.next(pid, "calibration")
			if cl == nil {
				break
			}
			if cl.Assignment.Stage != "calibration" {
				t.Fatalf("a calibration claim of stage %q", cl.Assignment.Stage)
			}
			for _, secret := range []string{"gen-p", `"p1"`, `"p2"`, "ground_truth", "gold"} {
				if strings.Contains(string(cl.raw), secret) {
					t.Fatalf("the calibration claim leaks %q: %s", secret, cl.raw)
				}
			}
			a, _ := e.store.Assignment(t.Context(), cl.Assignment.ID)
			ext := byID[a.ItemID]
			if c == skip && k == 3 {
				left = cl.Assignment.ID
				break
			}
			ans := calAnswer(r, u, ext)
			ms := int64(1000*(u+1) + 250*k)
			// the same draft path as production, with the questions of the pass shown
			draft := tasks.Answers{}
			for _, q := range cl.Item.Schema.Questions {
				if v, ok := ans[q.Key]; ok {
					draft[q.Key] = v
				}
			}
			c.must("PUT", "/api/v1/projects/"+pid+"/assignments/"+cl.Assignment.ID+"/draft", map[string]any{"answers": draft, "version": 0}, 200, nil)
			c.submitOK(cl.Assignment.ID, map[string]any{"answers": ans, "time_spent_ms": ms})
			d.ans[c.user.ID][ext] = ans
			d.secs[c.user.ID] = append(d.secs[c.user.ID], float64(ms)/1000)
		}
	}
	return d, left
}

func medianOf(vs []float64) float64 {
	s := slices.Clone(vs)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// checkReport compares every figure of a report with the test's own computation from the
// submitted answers; it returns the expected group figures per question for the trend.
func checkReport(t *testing.T, rep *calReport, d *calData, metric string, passQs []string, threshold float64) map[string][4]float64 {
	t.Helper()
	group := map[string][4]float64{}
	byKey := map[string]int{}
	for i, q := range rep.Questions {
		byKey[q.Key] = i
	}
	for _, q := range ordinalQs {
		units := d.ratings(q, false)
		ex, w, m, _ := pairwise(units, d.users)
		al := ordinalAlpha(units, d.users)
		group[q] = [4]float64{al, ex, w, m}
		f := rep.Questions[byKey[q]]
		if f.Level != "ordinal" {
			t.Errorf("%s level %s", q, f.Level)
		}
		near(t, q+" alpha", f.Alpha, al)
		near(t, q+" exact", f.Exact, ex)
		near(t, q+" within_one", f.WithinOne, w)
		near(t, q+" mad", f.MAD, m)
		if len(f.AlphaCI) != 2 || f.AlphaCI[0] > f.AlphaCI[1] || f.AlphaCI[0] < -1 || f.AlphaCI[1] > 1 {
			t.Errorf("%s alpha interval %v", q, f.AlphaCI)
		}
		n := 0
		for _, u := range units {
			n += len(u)
		}
		if f.NUnits != len(units) || f.NRatings != n {
			t.Errorf("%s n_units %d n_ratings %d, want %d %d", q, f.NUnits, f.NRatings, len(units), n)
		}
	}
	// Table 5's figure: every pair of annotators' PA and IA scores pooled
	pooled := map[string]map[string]float64{}
	for _, q := range []string{"physical_adherence", "instruction_alignment"} {
		for unit, rs := range d.ratings(q, false) {
			pooled[q+"/"+unit] = rs
		}
	}
	ex, w, m, _ := pairwise(pooled, d.users)
	al := ordinalAlpha(pooled, d.users)
	group["pooled"] = [4]float64{al, ex, w, m}
	if p := rep.Pooled; p == nil || !slices.Equal(p.Questions, []string{"physical_adherence", "instruction_alignment"}) || p.NUnits != len(pooled) || len(p.AlphaCI) != 2 {
		t.Errorf("pooled figures %+v over %d units", p, len(pooled))
	} else {
		near(t, "pooled alpha", p.Alpha, al)
		near(t, "pooled exact", p.Exact, ex)
		near(t, "pooled within_one", p.WithinOne, w)
		near(t, "pooled mad", p.MAD, m)
	}
	for _, a := range rep.Annotators {
		me := a.UserID
		if a.ItemsDone != len(d.ans[me]) {
			t.Errorf("%s items_done %d, want %d", me, a.ItemsDone, len(d.ans[me]))
		}
		near(t, me+" median_seconds", a.MedianSeconds, medianOf(d.secs[me]))
		var perQ []float64
		for _, q := range ordinalQs {
			units := d.ratings(q, true)
			aq := a.Questions[q]
			var right, total float64
			for _, u := range units {
				g, ok1 := u["gold"]
				v, ok2 := u[me]
				if ok1 && ok2 {
					total++
					if g == v {
						right++
					}
				}
			}
			near(t, me+" "+q+" accuracy", aq.Accuracy, right/total)
			ex, w, m, _ := pairwise(units, []string{"gold", me})
			near(t, me+" "+q+" exact vs gold", aq.Exact, ex)
			near(t, me+" "+q+" within_one vs gold", aq.WithinOne, w)
			near(t, me+" "+q+" mad vs gold", aq.MAD, m)
			var peerEx, peerW float64
			for _, peer := range d.users {
				if peer == me {
					continue
				}
				pe, pw, pm, _ := pairwise(units, []string{me, peer})
				pf := aq.Peers[peer]
				near(t, me+" "+q+" exact with "+peer, pf.Exact, pe)
				near(t, me+" "+q+" within_one with "+peer, pf.WithinOne, pw)
				near(t, me+" "+q+" mad with "+peer, pf.MAD, pm)
				peerEx += pe / float64(len(d.users)-1)
				peerW += pw / float64(len(d.users)-1)
			}
			near(t, me+" "+q+" peer_agreement", aq.PeerAgreement, peerEx)
			if slices.Contains(passQs, q) {
				switch metric {
				case "accuracy_vs_gold":
					perQ = append(perQ, right/total)
				case "within_one_with_peers":
					perQ = append(perQ, peerW)
				}
			}
		}
		var score float64
		for _, v := range perQ {
			score += v / float64(len(perQ))
		}
		near(t, me+" score", a.Score, score)
		if want := len(d.ans[me]) == len(d.items) && score >= threshold; a.Passed != want {
			t.Errorf("%s passed %v, want %v (score %v, %d of %d items)", me, a.Passed, want, score, len(d.ans[me]), len(d.items))
		}
	}
	// the matrix: pairwise share of equal answers over the pass questions
	for i, a := range rep.Matrix.Annotators {
		for j, b := range rep.Matrix.Annotators {
			want := 1.0
			if i != j {
				var eq, n float64
				for _, q := range passQs {
					for _, u := range d.ratings(q, false) {
						va, ok1 := u[a.UserID]
						vb, ok2 := u[b.UserID]
						if ok1 && ok2 {
							n++
							if va == vb {
								eq++
							}
						}
					}
				}
				want = eq / n
			}
			near(t, fmt.Sprintf("matrix[%d][%d]", i, j), rep.Matrix.Values[i][j], want)
		}
	}
	if len(rep.Disputed) == 0 || len(rep.Disputed) > 10 {
		t.Errorf("%d disputed pairs", len(rep.Disputed))
	}
	return group
}

// TestCalibrationRounds runs two rounds on the robojudge template with four annotators and
// gold, checks every figure of the reports against the test's own computation, and the
// qualification gate with passes, grants and revokes.
func TestCalibrationRounds(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		var people []*client
		for _, n := range []string{"ann1", "ann2", "ann3", "ann4"} {
			people = append(people, e.newUser(n+"@example.org", false))
		}
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "require_qualification": true})
		for _, c := range people {
			lead.member(pid, c, "annotator")
		}
		base := "/api/v1/projects/" + pid
		var lines []string
		for _, id := range calPool {
			lines = append(lines, calPoolLine(id, true))
		}
		if rep := lead.importNDJSON(base+"/items?pool=calibration", lines...); rep["imported"].(float64) != 4 {
			t.Fatalf("pool import: %v", rep)
		}
		lead.importNDJSON(base+"/items", robojudgeLine("prod-1", "g"), robojudgeLine("prod-2", "g"), robojudgeLine("prod-3", "g"), robojudgeLine("prod-4", "g"), robojudgeLine("prod-5", "g"))
		byID := map[string]string{}
		for _, it := range lead.items(pid, "stage=calibration") {
			byID[it.ID] = it.ExternalID
			if it.GroundTruth != nil {
				t.Fatalf("gold became ground truth: %+v", it)
			}
		}
		if len(byID) != 4 {
			t.Fatalf("pool items: %v", byID)
		}
		var stats struct{ Items []struct{ Stage string } }
		lead.must("GET", base+"/stats", nil, 200, &stats)
		for _, s := range stats.Items {
			if s.Stage == "calibration" {
				t.Fatalf("the pool is counted in production stats: %+v", stats)
			}
		}
		// the gate: nobody is qualified yet
		if st, body := people[0].do("POST", base+"/queue/next", map[string]string{"stage": "label"}); st != 403 || errorCode(t, body) != "not_qualified" {
			t.Fatalf("label claim before qualifying: %d %s", st, body)
		}

		var r1 struct {
			ID     string
			Number int
			Status string
		}
		pass1 := map[string]any{"metric": "accuracy_vs_gold", "threshold": 0.5, "questions": []string{"physical_adherence", "instruction_alignment"}}
		lead.must("POST", base+"/calibration-rounds", map[string]any{"name": "Round one", "external_ids": calPool,
			"participants": []string{people[0].user.ID, people[1].user.Email, people[2].user.Email, people[3].user.ID}, "pass": pass1}, 201, &r1)
		if r1.Number != 1 || r1.Status != "open" {
			t.Fatalf("round 1: %+v", r1)
		}
		d1, left := runRound(t, e, pid, 1, people, byID, people[3])
		d1.items = calPool
		for _, c := range people {
			d1.users = append(d1.users, c.user.ID)
		}
		if people[0].next(pid, "calibration") != nil {
			t.Fatal("a participant got an item of the round twice")
		}
		var list struct {
			Rounds []struct {
				Completion   float64
				Participants []struct {
					UserID string `json:"user_id"`
				}
			}
		}
		people[2].must("GET", base+"/calibration-rounds", nil, 200, &list)
		if len(list.Rounds) != 1 || len(list.Rounds[0].Participants) != 1 || list.Rounds[0].Participants[0].UserID != people[2].user.ID {
			t.Fatalf("an annotator's round list: %+v", list)
		}
		lead.must("GET", base+"/calibration-rounds", nil, 200, &list)
		if math.Abs(list.Rounds[0].Completion-15.0/16) > 1e-12 || len(list.Rounds[0].Participants) != 4 {
			t.Fatalf("completion: %+v", list)
		}
		if st, body := lead.do("POST", base+"/calibration-rounds/"+r1.ID+"/notes", map[string]any{"item_id": "x", "question": "physical_adherence", "note": "n"}); st != 422 {
			t.Fatalf("note on an item outside the round: %d %s", st, body)
		}
		lead.must("POST", base+"/calibration-rounds/"+r1.ID+"/close", nil, 200, nil)
		if st, body := lead.do("POST", base+"/calibration-rounds/"+r1.ID+"/close", nil); st != 409 || errorCode(t, body) != "round_closed" {
			t.Fatalf("closing twice: %d %s", st, body)
		}
		ans := calAnswer(1, 3, "p4")
		if st, body := people[3].do("POST", base+"/assignments/"+left+"/submit", map[string]any{"answers": ans}); st != 409 || errorCode(t, body) != "round_closed" {
			t.Fatalf("submit to a closed round: %d %s", st, body)
		}
		if st, body := people[0].do("POST", base+"/queue/next", map[string]string{"stage": "calibration"}); st != 204 {
			t.Fatalf("calibration work after the close: %d %s", st, body)
		}
		var rep1 calReport
		lead.must("GET", base+"/calibration-rounds/"+r1.ID+"/report", nil, 200, &rep1)
		g1 := checkReport(t, &rep1, d1, "accuracy_vs_gold", []string{"physical_adherence", "instruction_alignment"}, 0.5)
		passed := map[string]bool{}
		for _, a := range rep1.Annotators {
			passed[a.UserID] = a.Passed
		}
		if !passed[people[0].user.ID] || passed[people[3].user.ID] {
			t.Fatalf("passes of round 1: %v", passed)
		}

		// the gate after round 1: passing qualified; a lead grants and revokes
		for i, c := range people {
			st, body := c.do("POST", base+"/queue/next", map[string]string{"stage": "label"})
			if passed[c.user.ID] && st != 200 || !passed[c.user.ID] && (st != 403 || errorCode(t, body) != "not_qualified") {
				t.Fatalf("annotator %d (passed %v) label claim: %d %s", i, passed[c.user.ID], st, body)
			}
		}
		var m struct {
			Status    string
			Qualified *bool
		}
		lead.must("PUT", base+"/members/"+people[3].user.Email, map[string]any{"qualified": true}, 200, &m)
		if m.Status != "updated" || m.Qualified == nil || !*m.Qualified {
			t.Fatalf("grant: %+v", m)
		}
		if c := people[3].next(pid, "label"); c == nil {
			t.Fatal("a granted annotator cannot claim labels")
		}
		lead.must("PUT", base+"/members/"+people[0].user.ID, map[string]any{"qualified": false}, 200, nil)
		if st, body := people[0].do("POST", base+"/queue/next", map[string]string{"stage": "label"}); st != 403 || errorCode(t, body) != "not_qualified" {
			t.Fatalf("a revoked annotator claims labels: %d %s", st, body)
		}
		var members []struct {
			UserID    string `json:"user_id"`
			Qualified bool
		}
		lead.must("GET", base+"/members", nil, 200, &members)
		for _, mv := range members {
			if mv.UserID == people[0].user.ID && mv.Qualified || mv.UserID == people[3].user.ID && !mv.Qualified {
				t.Fatalf("members: %+v", members)
			}
		}

		// feedback
		var p1ID string
		for id, ext := range byID {
			if ext == "p1" {
				p1ID = id
			}
		}
		lead.must("POST", base+"/calibration-rounds/"+r1.ID+"/notes", map[string]any{"item_id": p1ID, "question": "physical_adherence", "note": "Look at the grasp at 0:02."}, 201, nil)
		var mine struct {
			Passed bool
			Items  []struct {
				ItemID    string `json:"item_id"`
				Position  int
				Questions []struct {
					Key           string
					Mine          json.RawMessage
					Reference     json.RawMessage
					ReferenceKind *string `json:"reference_kind"`
					Agrees        *bool
					Notes         []string
				}
			}
		}
		people[1].must("GET", base+"/calibration-rounds/"+r1.ID+"/mine", nil, 200, &mine)
		if len(mine.Items) != 4 || mine.Passed != passed[people[1].user.ID] {
			t.Fatalf("mine: %+v", mine)
		}
		sawNote := false
		for _, it := range mine.Items {
			ext := byID[it.ItemID]
			for _, q := range it.Questions {
				if q.Key == "physical_adherence" {
					if q.ReferenceKind == nil || *q.ReferenceKind != "gold" || string(q.Reference) != strconv.Itoa(calGoldPA[ext]) {
						t.Fatalf("reference of %s: %+v", ext, q)
					}
					want := calAnswer(1, 1, ext)["physical_adherence"]
					if string(q.Mine) != string(want) || *q.Agrees != (string(want) == strconv.Itoa(calGoldPA[ext])) {
						t.Fatalf("mine of %s: %+v", ext, q)
					}
					sawNote = sawNote || (ext == "p1" && len(q.Notes) == 1)
				}
			}
		}
		if !sawNote {
			t.Fatal("the lead's note is not in the participant's feedback")
		}
		if st, _ := lead.do("GET", base+"/calibration-rounds/"+r1.ID+"/mine", nil); st != 403 {
			t.Fatalf("a lead who is not an annotator reads /mine: %d", st)
		}

		// round 2 reuses pool items; every participant again
		var r2 struct {
			ID     string
			Number int
		}
		lead.must("POST", base+"/calibration-rounds", map[string]any{"name": "Round two", "external_ids": []string{"p3", "p1", "p2"},
			"participants": []string{people[0].user.ID, people[1].user.ID, people[2].user.ID, people[3].user.ID},
			"pass":         map[string]any{"metric": "within_one_with_peers", "threshold": 0.8}}, 201, &r2)
		if r2.Number != 2 {
			t.Fatalf("round 2 number %d", r2.Number)
		}
		d2, _ := runRound(t, e, pid, 2, people, byID, nil)
		d2.items = []string{"p3", "p1", "p2"}
		d2.users = d1.users
		lead.must("POST", base+"/calibration-rounds/"+r2.ID+"/close", nil, 200, nil)
		var rep2 calReport
		lead.must("GET", base+"/calibration-rounds/"+r2.ID+"/report", nil, 200, &rep2)
		g2 := checkReport(t, &rep2, d2, "within_one_with_peers", ordinalQs, 0.8)
		if !slices.Equal(rep2.Trend.Rounds, []int{1, 2}) {
			t.Fatalf("trend rounds %v", rep2.Trend.Rounds)
		}
		for _, q := range ordinalQs {
			tr := rep2.Trend.Questions[q]
			for i, g := range []map[string][4]float64{g1, g2} {
				near(t, fmt.Sprintf("trend %s alpha[%d]", q, i), tr.Alpha[i], g[q][0])
				near(t, fmt.Sprintf("trend %s exact[%d]", q, i), tr.Exact[i], g[q][1])
				near(t, fmt.Sprintf("trend %s within_one[%d]", q, i), tr.WithinOne[i], g[q][2])
				near(t, fmt.Sprintf("trend %s mad[%d]", q, i), tr.MAD[i], g[q][3])
			}
		}
		if tr := rep2.Trend.Pooled; tr == nil || len(tr.Exact) != 2 {
			t.Fatalf("pooled trend %+v", tr)
		}
		for i, g := range []map[string][4]float64{g1, g2} {
			tr := rep2.Trend.Pooled
			near(t, fmt.Sprintf("trend pooled alpha[%d]", i), tr.Alpha[i], g["pooled"][0])
			near(t, fmt.Sprintf("trend pooled exact[%d]", i), tr.Exact[i], g["pooled"][1])
			near(t, fmt.Sprintf("trend pooled within_one[%d]", i), tr.WithinOne[i], g["pooled"][2])
			near(t, fmt.Sprintf("trend pooled mad[%d]", i), tr.MAD[i], g["pooled"][3])
		}
		if len(rep1.Trend.Rounds) != 1 {
			t.Fatalf("round 1's trend covers rounds %v", rep1.Trend.Rounds)
		}

		var audit struct{ Items []struct{ Action string } }
		lead.must("GET", base+"/audit?limit=1000", nil, 200, &audit)
		seen := map[string]int{}
		for _, a := range audit.Items {
			seen[a.Action]++
		}
		for _, want := range []string{"calibration_round.create", "calibration_round.close", "calibration_round.pass", "member.qualify", "member.disqualify"} {
			if seen[want] == 0 {
				t.Errorf("no %s in the audit trail", want)
			}
		}
		// the pool never entered production: only the two production items were labeled
		for _, it := range lead.items(pid, "stage=calibration") {
			if it.Stage != "calibration" {
				t.Fatalf("a pool item moved: %+v", it)
			}
		}
	})
}
