package calibration_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// value is a metric's value, NaN (which no figure is near) when it is undefined.
func value(v float64, err error) float64 {
	if err != nil {
		return math.NaN()
	}
	return v
}

// table builds agreement's table of one question of roundOneAnswers over the given people
// (and gold, named "gold"), the plain way.
func table(t *testing.T, level agreement.Level, key string, raters ...string) *agreement.Table {
	t.Helper()
	gold := map[string]tasks.Answers{"c1": answers("score", 4, "ok", "yes"), "c2": answers("score", 2, "ok", "no"), "c3": answers("score", 5)}
	b := agreement.NewBuilder(level, 0)
	for _, item := range []string{"c1", "c2", "c3"} {
		for _, r := range raters {
			a := roundOneAnswers[r][item]
			if r == "gold" {
				a = gold[item]
			}
			if raw, ok := a[key]; ok {
				b.Add(item, r, string(raw))
			}
		}
	}
	tab, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestRoundReport: round one's report counted by hand: each participant's items, time,
// accuracy against gold (Yes and No apart), exact, ±1 and MAD against gold and each peer, the
// score by the pass rule; the group figures per question (alpha as agreement computes it on the
// same answers, with its interval); the matrix over the pass questions; the disputed pairs,
// least agreed first; the trend of one round; no pooled figures, with one Likert question.
func TestRoundReport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		r := runRoundOne(t, st)
		p := r.project()
		if _, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, r.round.ID); err != nil {
			t.Fatal(err)
		}
		rep, err := r.cal.Report(r.ctx, p, r.round.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Round.Status != flow.RoundClosed || rep.Pass.Metric != flow.PassAccuracyVsGold || len(rep.Annotators) != 3 {
			t.Fatalf("report %+v", rep)
		}
		ann, ben, cat := rep.Annotators[0], rep.Annotators[1], rep.Annotators[2]
		if ann.Name != "Ann" || ann.ItemsDone != 3 || !ann.Passed || ben.Passed || cat.Passed || cat.ItemsDone != 2 {
			t.Fatalf("annotators %+v", rep.Annotators)
		}
		near(t, "Ann median", ann.MedianSeconds, 4)
		near(t, "Cat median", cat.MedianSeconds, 3)
		near(t, "Ann score", ann.Score, 1)
		near(t, "Ben score", ben.Score, (1.0/3+1.0/2)/2)
		near(t, "Cat score", cat.Score, (1.0/2+1.0/2)/2)
		// against gold on score: Ben 3/4, 2/2, 4/5; Cat 4/4, 1/2
		for _, c := range []struct {
			who                     calibration.ReportAnnotator
			acc, exact, within, mad float64
			okAcc, yesAcc, noAcc    float64
			peerScore, peerOK       float64
		}{
			{ann, 1, 1, 1, 0, 1, 1, 1, (1.0/3 + 1.0/2) / 2, (2.0/3 + 1.0/2) / 2},
			{ben, 1.0 / 3, 1.0 / 3, 1, 2.0 / 3, 1.0 / 2, 1, 0, (1.0/3 + 0) / 2, (2.0/3 + 0) / 2},
			{cat, 1.0 / 2, 1.0 / 2, 1, 1.0 / 2, 1.0 / 2, 0, 1, (1.0/2 + 0) / 2, (1.0/2 + 0) / 2},
		} {
			s, ok := c.who.Questions["score"], c.who.Questions["ok"]
			near(t, c.who.Name+" score accuracy", s.Accuracy, c.acc)
			near(t, c.who.Name+" score exact", s.Exact, c.exact)
			near(t, c.who.Name+" score within one", s.WithinOne, c.within)
			near(t, c.who.Name+" score mad", s.MAD, c.mad)
			near(t, c.who.Name+" ok accuracy", ok.Accuracy, c.okAcc)
			near(t, c.who.Name+" yes accuracy", ok.YesAccuracy, c.yesAcc)
			near(t, c.who.Name+" no accuracy", ok.NoAccuracy, c.noAcc)
			near(t, c.who.Name+" score peers", s.PeerAgreement, c.peerScore)
			near(t, c.who.Name+" ok peers", ok.PeerAgreement, c.peerOK)
			if ok.Exact != nil || ok.MAD != nil || s.YesAccuracy != nil || len(s.Peers) != 2 {
				t.Errorf("%s: ok %+v, score %+v", c.who.Name, ok, s)
			}
		}
		ab := ann.Questions["score"].Peers[r.ben.ID]
		near(t, "Ann–Ben exact", ab.Exact, 1.0/3)
		near(t, "Ann–Ben mad", ab.MAD, 2.0/3)
		near(t, "Ann–Ben alpha", ab.Alpha, value(agreement.Alpha(table(t, agreement.Ordinal, "score", "Ann", "Ben"))))
		near(t, "Ann–Cat ok exact", ann.Questions["ok"].Peers[r.cat.ID].Exact, 1.0/2)
		checkGroup(t, rep.Questions)
		checkMatrix(t, rep.Matrix, [][]float64{{1, 0.5, 0.5}, {0.5, 1, 0}, {0.5, 0, 1}})
		var disputed []string
		for _, d := range rep.Disputed {
			disputed = append(disputed, r.extOf(d.ItemID)+"/"+d.Question)
		}
		if want := []string{"c3/score", "c1/score", "c1/ok", "c2/score", "c2/ok"}; !slices.Equal(disputed, want) {
			t.Errorf("disputed %v, want %v", disputed, want)
		}
		if d := rep.Disputed[0]; string(d.Gold) != "5" || d.ExternalID != "c3" || len(d.Answers) != 2 || d.Answers[0].Name != "Ann" || string(d.Answers[1].Answer) != "4" {
			t.Errorf("first disputed %+v", d)
		}
		if !slices.Equal(rep.Trend.Rounds, []int{1}) || len(rep.Trend.Questions["score"].Exact) != 1 || rep.Trend.Questions["ok"].Exact[0] != nil {
			t.Errorf("trend %+v", rep.Trend)
		}
		near(t, "trend exact", rep.Trend.Questions["score"].Exact[0], 2.0/7)
		if rep.Pooled != nil || rep.Trend.Pooled != nil {
			t.Errorf("a form with one Likert question has pooled figures %+v, %+v", rep.Pooled, rep.Trend.Pooled)
		}
		if _, err := r.cal.Report(r.ctx, p, "no-such-round"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("report of an unknown round: %v", err)
		}
	})
}

// checkGroup: score over c1 (4, 3, 4), c2 (2, 2, 1), c3 (5, 4): 2 of 7 pairs equal, all within
// one, 5/7 apart on average; ok is nominal, with alpha only.
func checkGroup(t *testing.T, qs []calibration.QuestionFigures) {
	t.Helper()
	if len(qs) != 2 || qs[0].Key != "score" || qs[1].Key != "ok" {
		t.Fatalf("questions %+v", qs)
	}
	score, ok := qs[0], qs[1]
	if score.Level != tasks.LevelOrdinal || score.Type != tasks.KindLikert || score.NUnits != 3 || score.NRatings != 8 {
		t.Errorf("score %+v", score)
	}
	near(t, "group exact", score.Exact, 2.0/7)
	near(t, "group within one", score.WithinOne, 1)
	near(t, "group mad", score.MAD, 5.0/7)
	alpha := value(agreement.Alpha(table(t, agreement.Ordinal, "score", "Ann", "Ben", "Cat")))
	near(t, "group alpha", score.Alpha, alpha)
	if len(score.AlphaCI) != 2 || score.AlphaCI[0] > score.AlphaCI[1] || score.AlphaCI[0] < -1 || score.AlphaCI[1] > 1 {
		t.Errorf("alpha interval %v", score.AlphaCI)
	}
	if ok.Level != tasks.LevelNominal || ok.Exact != nil || ok.WithinOne != nil || ok.NRatings != 8 {
		t.Errorf("ok %+v", ok)
	}
	near(t, "ok alpha", ok.Alpha, value(agreement.Alpha(table(t, agreement.Nominal, "ok", "Ann", "Ben", "Cat"))))
}

func checkMatrix(t *testing.T, m calibration.Matrix, want [][]float64) {
	t.Helper()
	if len(m.Annotators) != len(want) || m.Annotators[0].Name != "Ann" {
		t.Fatalf("matrix %+v", m)
	}
	for i := range want {
		for j := range want[i] {
			near(t, m.Annotators[i].Name+"–"+m.Annotators[j].Name, m.Values[i][j], want[i][j])
		}
	}
}

// TestRoundTrend: a second round on c1 and c4 (no gold) under exact agreement with peers, where
// Ann and Ben agree on every score, passes both and qualifies Ben; its report's trend holds
// both rounds, round one's still only itself. On c4's ok they tie, so Ann's feedback has no
// reference there; on its score the majority is the reference.
func TestRoundTrend(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		r := runRoundOne(t, st)
		p := r.project()
		if _, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, r.round.ID); err != nil {
			t.Fatal(err)
		}
		two, err := r.cal.CreateRound(r.ctx, p, r.lead.ID, calibration.RoundSpec{Name: "Round two", ExternalIDs: []string{"c1", "c4"},
			Participants: []string{r.ann.ID, r.ben.ID}, Pass: calibration.PassRule{Metric: flow.PassExactWithPeers, Threshold: 0.5}})
		if err != nil || two.Number != 2 {
			t.Fatalf("round two %+v, %v", two, err)
		}
		second := map[string]map[string]tasks.Answers{
			"Ann": {"c1": answers("score", 4, "ok", "yes"), "c4": answers("score", 3, "ok", "yes")},
			"Ben": {"c1": answers("score", 4, "ok", "yes"), "c4": answers("score", 3, "ok", "no")},
		}
		for _, u := range []*store.User{r.ann, r.ben} {
			if got, _ := r.participate(u, func(ext string) tasks.Answers { return second[u.Name][ext] }, fixed(2000)); len(got) != 2 {
				t.Fatalf("%s worked %+v", u.Name, got)
			}
		}
		if _, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, two.ID); err != nil {
			t.Fatal(err)
		}
		rep, err := r.cal.Report(r.ctx, p, two.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range rep.Annotators {
			near(t, a.Name+" score", a.Score, 1)
			if !a.Passed {
				t.Errorf("%s did not pass", a.Name)
			}
		}
		if m, err := st.Member(r.ctx, r.pid, r.ben.ID); err != nil || !m.Qualified {
			t.Errorf("Ben qualified %v, %v", m.Qualified, err)
		}
		tr := rep.Trend
		if !slices.Equal(tr.Rounds, []int{1, 2}) || len(tr.Questions["score"].Exact) != 2 {
			t.Fatalf("trend %+v", tr)
		}
		for i, w := range [][3]float64{{2.0 / 7, 1, 5.0 / 7}, {1, 1, 0}} {
			s := tr.Questions["score"]
			near(t, "trend exact", s.Exact[i], w[0])
			near(t, "trend within one", s.WithinOne[i], w[1])
			near(t, "trend mad", s.MAD[i], w[2])
		}
		if len(rep.Disputed) != 1 || r.extOf(rep.Disputed[0].ItemID) != "c4" || rep.Disputed[0].Question != "ok" || rep.Disputed[0].Gold != nil {
			t.Errorf("disputed %+v", rep.Disputed)
		}
		one, err := r.cal.Report(r.ctx, p, r.round.ID)
		if err != nil || !slices.Equal(one.Trend.Rounds, []int{1}) {
			t.Fatalf("round one's trend %+v, %v", one.Trend, err)
		}
		mine, err := r.cal.Mine(r.ctx, p, r.ann.ID, two.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range mine.Items {
			if r.extOf(it.ItemID) != "c4" {
				continue
			}
			for _, q := range it.Questions {
				switch q.Key {
				case "ok":
					if q.Reference != nil || q.ReferenceKind != nil || q.Agrees != nil {
						t.Errorf("c4/ok on a tie: %+v", q)
					}
				case "score":
					if string(q.Reference) != "3" || q.ReferenceKind == nil || *q.ReferenceKind != flow.ReferenceMajority || !*q.Agrees {
						t.Errorf("c4/score: %+v", q)
					}
				}
			}
		}
	})
}

// TestPooledScores: on RoboJudge's form the report also gives Table 5's figure, every pair of
// annotators' PA and IA scores pooled: over c1 PA (4, 4, 3), c2 PA (2, 3, 5), c1 IA (5, 5, 5)
// and c2 IA (1, 2, 2), 5 of 12 pairs are equal, 10 within one, 10/12 apart on average; the
// trend carries it round by round.
func TestPooledScores(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, projects.ProjectSpec{Template: "robojudge"})
		line := func(ext string) string {
			return `{"external_id":"` + ext + `","inputs":{"video":"media/v.mp4","first_frame":"media/f.png","instruction":"Pick up the cube."}}`
		}
		f.importPool(line("c1"), line("c2"))
		tpl, _ := tasks.LookupTemplate("robojudge")
		scores := map[string]map[string][2]int{ // person → item → (PA, IA)
			"Ann": {"c1": {4, 5}, "c2": {2, 1}}, "Ben": {"c1": {4, 5}, "c2": {3, 2}}, "Cat": {"c1": {3, 5}, "c2": {5, 2}}}
		var people []*store.User
		for _, n := range []string{"Ann", "Ben", "Cat"} {
			people = append(people, f.user(n, store.RoleAnnotator))
		}
		ids := []string{people[0].ID, people[1].ID, people[2].ID}
		r, err := f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, calibration.RoundSpec{Name: "Round one", ExternalIDs: []string{"c1", "c2"},
			Participants: ids, Pass: calibration.PassRule{Metric: flow.PassWithinOneWithPeers, Threshold: 0.5, Questions: []string{"physical_adherence"}}})
		if err != nil {
			t.Fatal(err)
		}
		p := f.project()
		for _, u := range people {
			w := workflow.Worker{ID: u.ID, Roles: store.RoleSet{store.RoleAnnotator}}
			for n := 0; ; n++ {
				c, err := f.wf.Next(f.ctx, p, u, w.Roles, flow.StageCalibration, false)
				if err != nil || (c == nil && n != 4) {
					t.Fatalf("%s's claim %d: %v %v", u.Name, n, c, err)
				}
				if c == nil {
					break
				}
				s := scores[u.Name][f.extOf(c.Assignment.ItemID)]
				a := tpl.Schema.ExampleAnswers()
				a["physical_adherence"], a["instruction_alignment"] = answers("v", s[0])["v"], answers("v", s[1])["v"]
				maps.DeleteFunc(a, func(k string, _ json.RawMessage) bool { return p.Schema.PassOf(k) != c.Assignment.Pass })
				if _, err := f.wf.Submit(f.ctx, p, w, c.Assignment.ID, workflow.Submission{Answers: a, TimeSpentMS: 1000}); err != nil {
					t.Fatalf("%s submits: %v", u.Name, err)
				}
			}
		}
		if _, err := f.cal.CloseRound(f.ctx, p, f.lead.ID, r.ID); err != nil {
			t.Fatal(err)
		}
		rep, err := f.cal.Report(f.ctx, p, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		pl := rep.Pooled
		if pl == nil || !slices.Equal(pl.Questions, []string{"physical_adherence", "instruction_alignment"}) || pl.NUnits != 4 || pl.NRatings != 12 || len(pl.AlphaCI) != 2 {
			t.Fatalf("pooled %+v", pl)
		}
		near(t, "pooled exact", pl.Exact, 5.0/12)
		near(t, "pooled within one", pl.WithinOne, 10.0/12)
		near(t, "pooled mad", pl.MAD, 10.0/12)
		b := agreement.NewBuilder(agreement.Ordinal, 0)
		for who, items := range scores {
			for item, s := range items {
				b.Add("pa/"+item, who, fmt.Sprint(s[0]))
				b.Add("ia/"+item, who, fmt.Sprint(s[1]))
			}
		}
		tab, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		near(t, "pooled alpha", pl.Alpha, value(agreement.Alpha(tab)))
		for _, q := range rep.Questions {
			if q.Key == "physical_adherence" {
				near(t, "PA exact alone", q.Exact, 1.0/6)
			}
		}
		if tr := rep.Trend.Pooled; tr == nil || len(tr.Exact) != 1 {
			t.Fatalf("pooled trend %+v", tr)
		}
		near(t, "pooled trend exact", rep.Trend.Pooled.Exact[0], 5.0/12)
	})
}
