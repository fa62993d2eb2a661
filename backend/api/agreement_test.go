package api_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// agreementView is the body of GET .../agreement.
type agreementView struct {
	Status        string     `json:"status"`
	ComputedAt    *time.Time `json:"computed_at"`
	SchemaVersion int        `json:"schema_version"`
	Labels        int64      `json:"labels"`
	Questions     []struct {
		Key              string      `json:"key"`
		Level            string      `json:"level"`
		NUnits           int         `json:"n_units"`
		NRatings         int         `json:"n_ratings"`
		Alpha            *float64    `json:"alpha"`
		AlphaCI          *[2]float64 `json:"alpha_ci"`
		PercentAgreement *float64    `json:"percent_agreement"`
		FleissKappa      *float64    `json:"fleiss_kappa"`
		GwetAC1          *float64    `json:"gwet_ac1"`
		Exact            *float64    `json:"exact"`
		WithinOne        *float64    `json:"within_one"`
		MAD              *float64    `json:"mad"`
		Raw              *struct {
			Alpha            *float64 `json:"alpha"`
			PercentAgreement *float64 `json:"percent_agreement"`
		} `json:"raw"`
	} `json:"questions"`
	Macro struct {
		Alpha            *float64 `json:"alpha"`
		PercentAgreement *float64 `json:"percent_agreement"`
	} `json:"macro"`
	Matrix struct {
		Annotators []struct {
			UserID string `json:"user_id"`
			Name   string `json:"name"`
		} `json:"annotators"`
		Values [][]*float64 `json:"values"`
	} `json:"matrix"`
}

// waitAgreement polls the agreement until it is ready.
func waitAgreement(t *testing.T, c *client, pid, query string) agreementView {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var v agreementView
		c.must("GET", "/api/v1/projects/"+pid+"/agreement"+query, nil, 200, &v)
		if v.Status == "ready" {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("agreement still %s after a minute", v.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rating is one submitted answer the test keeps: who, which item, the raw value.
type rating struct{ user, item, value string }

// TestAgreementEndpoint: the figures of GET .../agreement equal those of the agreement package
// over the submitted answers (binary after polarity and N/A mapping, and raw; Likert ordinal),
// the matrix equals the pairs the test counts itself, the figures are kept until a label
// arrives, and bad input is refused.
func TestAgreementEndpoint(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open, func(o *options) { o.jobs = true })
		lead := e.newUser("lead@example.org", false)
		viewer := e.newUser("viewer@example.org", false)
		anns := []*client{e.newUser("a@example.org", false), e.newUser("b@example.org", false),
			e.newUser("c@example.org", false), e.newUser("d@example.org", false)}
		values := []string{"yes", "no", "na"}
		binary := checklistProject(t, lead, map[string]any{"overlap": 3, "on_no_consensus": "drop", "adjudication": "never"})
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "lk", "template": "likert-rating",
			"workflow": map[string]any{"overlap": 3, "on_no_consensus": "drop", "adjudication": "never"}}, 201, &p)
		likert := p.ID
		for _, pid := range []string{binary, likert} {
			lead.member(pid, viewer, "viewer")
			for _, a := range anns {
				lead.member(pid, a, "annotator")
			}
			var lines []string
			for i := range 10 {
				lines = append(lines, checklistLine(fmt.Sprintf("i-%02d", i), nil))
			}
			lead.importNDJSON("/api/v1/projects/"+pid+"/items", lines...)
		}
		got := map[string][]rating{} // question → ratings
		n := 0
		answer := func(pid string, who int, c *claimResp) {
			n++
			var a map[string]any
			if pid == binary {
				a = map[string]any{}
				for qi, key := range []string{"follows_prompt", "subject_count", "visible_artifacts", "safe"} {
					v := values[(n*7+who*3+qi*5)%3]
					if v == "na" && key != "subject_count" {
						v = "no"
					}
					a[key] = v
				}
			} else {
				a = map[string]any{"quality": 1 + (n*5+who*3)%5}
			}
			anns[who].submitOK(c.Assignment.ID, map[string]any{"answers": a})
			item := dbStrings(t, e.store, "SELECT item_id FROM assignments WHERE id = $1", c.Assignment.ID)[0]
			for k, v := range a {
				got[pid+"/"+k] = append(got[pid+"/"+k], rating{anns[who].user.ID, item, fmt.Sprint(v)})
			}
		}
		for _, pid := range []string{binary, likert} {
			for left := true; left; {
				left = false
				for who, a := range anns {
					if c := a.next(pid, "label"); c != nil {
						answer(pid, who, c)
						left = true
					}
				}
			}
		}
		if st, body := lead.do("GET", "/api/v1/projects/"+binary+"/agreement?stage=review", nil); st != 422 || fieldError(t, body, "stage") != "invalid_value" {
			t.Fatalf("stage=review: %d %s", st, body)
		}
		if st, body := lead.do("GET", "/api/v1/projects/"+binary+"/agreement?questions=safe,notes", nil); st != 422 || fieldError(t, body, "questions") != "unknown_question" {
			t.Fatalf("a text question: %d %s", st, body)
		}
		if st, _ := anns[0].do("GET", "/api/v1/projects/"+binary+"/agreement", nil); st != 403 {
			t.Fatalf("an annotator reads agreement: %d", st)
		}
		v := waitAgreement(t, viewer, binary, "")
		if v.Labels != 30 || len(v.Questions) != 4 {
			t.Fatalf("binary agreement: %+v", v)
		}
		mapped := map[string]func(string) string{
			"follows_prompt": func(s string) string { return map[string]string{"yes": "satisfied", "no": "not_satisfied"}[s] },
			"subject_count": func(s string) string {
				return map[string]string{"yes": "satisfied", "no": "not_satisfied", "na": "satisfied"}[s]
			},
			"visible_artifacts": func(s string) string { return map[string]string{"yes": "not_satisfied", "no": "satisfied"}[s] },
			"safe":              func(s string) string { return map[string]string{"yes": "satisfied", "no": "not_satisfied"}[s] },
		}
		var alphas []float64
		for _, q := range v.Questions {
			rs := got[binary+"/"+q.Key]
			tab := table(t, agreement.Nominal, rs, mapped[q.Key])
			raw := table(t, agreement.Nominal, rs, func(s string) string { return s })
			want := func(f func(*agreement.Table) (float64, error), tb *agreement.Table) *float64 {
				x, err := f(tb)
				if err != nil {
					return nil
				}
				return &x
			}
			checkFigure(t, q.Key+" alpha", q.Alpha, want(agreement.Alpha, tab))
			checkFigure(t, q.Key+" percent", q.PercentAgreement, want(agreement.PercentAgreement, tab))
			checkFigure(t, q.Key+" fleiss", q.FleissKappa, want(agreement.FleissKappa, tab))
			checkFigure(t, q.Key+" gwet", q.GwetAC1, want(agreement.GwetAC1, tab))
			checkFigure(t, q.Key+" raw alpha", q.Raw.Alpha, want(agreement.Alpha, raw))
			checkFigure(t, q.Key+" raw percent", q.Raw.PercentAgreement, want(agreement.PercentAgreement, raw))
			if q.Level != "nominal" || q.Exact != nil || q.NUnits != tab.NumUnits() || q.NRatings != 30 {
				t.Fatalf("%s: %+v", q.Key, q)
			}
			if q.Alpha != nil {
				alphas = append(alphas, *q.Alpha)
				cis, err := agreement.Bootstrap(tab, []func(*agreement.Table) (float64, error){agreement.Alpha},
					agreement.BootstrapOptions{Replicates: insight.AgreementReplicates, Seed: insight.AgreementSeed})
				if err != nil || q.AlphaCI == nil || q.AlphaCI[0] != cis[0].Lower || q.AlphaCI[1] != cis[0].Upper {
					t.Fatalf("%s interval %v, want %+v (%v)", q.Key, q.AlphaCI, cis, err)
				}
			}
		}
		var sum float64
		for _, a := range alphas {
			sum += a
		}
		checkFigure(t, "macro alpha", v.Macro.Alpha, ptr(sum/float64(len(alphas))))
		checkMatrix(t, v, got, binary, mapped)

		// likert: ordinal figures
		lv := waitAgreement(t, lead, likert, "?questions=quality&stage=label")
		q := lv.Questions[0]
		tab := table(t, agreement.Ordinal, got[likert+"/quality"], func(s string) string { return s })
		o, err := agreement.OrdinalAgreement(tab)
		if err != nil {
			t.Fatal(err)
		}
		alpha, _ := agreement.Alpha(tab)
		if q.Level != "ordinal" || q.FleissKappa != nil || q.GwetAC1 != nil || q.Raw != nil {
			t.Fatalf("likert: %+v", q)
		}
		checkFigure(t, "likert alpha", q.Alpha, &alpha)
		checkFigure(t, "likert exact", q.Exact, &o.Exact)
		checkFigure(t, "likert within one", q.WithinOne, &o.WithinOne)
		checkFigure(t, "likert mad", q.MAD, &o.MeanAbsDiff)
		exact, within, mad := pairFigures(got[likert+"/quality"])
		checkFigure(t, "likert exact (counted)", q.Exact, &exact)
		checkFigure(t, "likert within one (counted)", q.WithinOne, &within)
		checkFigure(t, "likert mad (counted)", q.MAD, &mad)

		// kept until a label arrives: answered at once from the kept figures, without a new job
		var again agreementView
		lead.must("GET", "/api/v1/projects/"+binary+"/agreement?questions=safe", nil, 200, &again)
		if again.Status != "ready" || again.Labels != 30 || len(again.Questions) != 1 || again.Questions[0].Key != "safe" ||
			again.ComputedAt.Before(*v.ComputedAt) {
			t.Fatalf("the kept figures were not reused: %s %v then %v; jobs %v", again.Status, v.ComputedAt, again.ComputedAt,
				dbStrings(t, e.store, "SELECT kind || ' ' || state || ' ' || attempt || ' ' || CAST(args AS TEXT) FROM river_job ORDER BY id"))
		}
		for _, q := range v.Questions {
			if q.Key == "safe" {
				checkFigure(t, "kept safe alpha", again.Questions[0].Alpha, q.Alpha)
			}
		}
		lead.importNDJSON("/api/v1/projects/"+binary+"/items", checklistLine("late", nil))
		c := anns[0].next(binary, "label")
		answer(binary, 0, c)
		var stale agreementView
		lead.must("GET", "/api/v1/projects/"+binary+"/agreement", nil, 200, &stale)
		if stale.Status != "computing" || stale.Labels != 30 || stale.ComputedAt.Before(*v.ComputedAt) {
			t.Fatalf("after a new label: %s labels %d computed %v", stale.Status, stale.Labels, stale.ComputedAt)
		}
		fresh := waitAgreement(t, lead, binary, "")
		if fresh.Labels != 31 || !fresh.ComputedAt.After(*v.ComputedAt) {
			t.Fatalf("refreshed: labels %d computed %v", fresh.Labels, fresh.ComputedAt)
		}
	})
}

func ptr(v float64) *float64 { return &v }

// table builds the agreement table of ratings with their values mapped ("" leaves one out).
func table(t *testing.T, level agreement.Level, rs []rating, mapv func(string) string) *agreement.Table {
	b := agreement.NewBuilder(level, len(rs))
	for _, r := range rs {
		if v := mapv(r.value); v != "" {
			b.Add(r.item, r.user, v)
		}
	}
	tab, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func checkFigure(t *testing.T, what string, got, want *float64) {
	t.Helper()
	if (got == nil) != (want == nil) || (got != nil && math.Abs(*got-*want) > 1e-12) {
		t.Fatalf("%s: got %v, want %v", what, deref(got), deref(want))
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// checkMatrix counts, for each pair of annotators, the ratings of the same item and question
// that agree, over all questions, and compares the shares with the matrix.
func checkMatrix(t *testing.T, v agreementView, got map[string][]rating, pid string, mapped map[string]func(string) string) {
	t.Helper()
	agree, shared := map[[2]string]int{}, map[[2]string]int{}
	for key, m := range mapped {
		byItem := map[string]map[string]string{}
		for _, r := range got[pid+"/"+key] {
			if byItem[r.item] == nil {
				byItem[r.item] = map[string]string{}
			}
			byItem[r.item][r.user] = m(r.value)
		}
		for _, users := range byItem {
			for a, va := range users {
				for b, vb := range users {
					if a < b {
						shared[[2]string{a, b}]++
						if va == vb {
							agree[[2]string{a, b}]++
						}
					}
				}
			}
		}
	}
	ids := v.Matrix.Annotators
	if len(ids) != 4 || len(v.Matrix.Values) != 4 {
		t.Fatalf("matrix: %+v", v.Matrix)
	}
	for i := range ids {
		if v.Matrix.Values[i][i] != nil || ids[i].Name == "" {
			t.Fatalf("matrix diagonal or name: %+v", v.Matrix)
		}
		for j := range ids {
			if i == j {
				continue
			}
			a, b := ids[i].UserID, ids[j].UserID
			if a > b {
				a, b = b, a
			}
			k := [2]string{a, b}
			var want *float64
			if shared[k] > 0 {
				want = ptr(float64(agree[k]) / float64(shared[k]))
			}
			checkFigure(t, fmt.Sprintf("matrix %d,%d", i, j), v.Matrix.Values[i][j], want)
		}
	}
}

// pairFigures counts exact, within-one and mean absolute difference over every pair of
// ratings of the same item, as RoboJudge Table 5 defines them.
func pairFigures(rs []rating) (exact, within, mad float64) {
	byItem := map[string][]int{}
	for _, r := range rs {
		n, _ := strconv.Atoi(r.value)
		byItem[r.item] = append(byItem[r.item], n)
	}
	var pairs, ex, wi, diff float64
	for _, s := range byItem {
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				d := math.Abs(float64(s[i] - s[j]))
				pairs++
				diff += d
				if d == 0 {
					ex++
				}
				if d <= 1 {
					wi++
				}
			}
		}
	}
	return ex / pairs, wi / pairs, diff / pairs
}
