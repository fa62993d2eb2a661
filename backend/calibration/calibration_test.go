package calibration_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestCreateRoundRefusals: every field of a round is checked against the pool, the members
// and the schema, each refusal on its field with its code, and nothing is written.
func TestCreateRoundRefusals(t *testing.T) {
	f := newFixture(t, openSQLite(t), projects.ProjectSpec{})
	ann, vic := f.user("Ann", store.RoleAnnotator), f.user("Vic", store.RoleViewer)
	f.importPool(poolLine("c1", `{"score": 4}`), poolLine("c4", ""))
	f.importItems(poolLine("prod1", ""))
	one := 1
	sample := func(n int) *int { return &n }
	for _, c := range []struct {
		name, field, code string
		edit              func(*calibration.RoundSpec)
	}{
		{"no name", "name", "invalid_length", func(s *calibration.RoundSpec) { s.Name = "  " }},
		{"long name", "name", "invalid_length", func(s *calibration.RoundSpec) { s.Name = strings.Repeat("n", 201) }},
		{"unknown metric", "pass.metric", "invalid_value", func(s *calibration.RoundSpec) { s.Pass.Metric = "kappa" }},
		{"threshold above 1", "pass.threshold", "out_of_range", func(s *calibration.RoundSpec) { s.Pass.Threshold = 1.5 }},
		{"negative accuracy", "pass.threshold", "out_of_range", func(s *calibration.RoundSpec) {
			s.Pass = calibration.PassRule{Metric: flow.PassAccuracyVsGold, Threshold: -0.1}
		}},
		{"alpha below -1", "pass.threshold", "out_of_range", func(s *calibration.RoundSpec) {
			s.Pass = calibration.PassRule{Metric: flow.PassAlphaWithPeers, Threshold: -1.5}
		}},
		{"unknown question", "pass.questions[0]", "unknown_question", func(s *calibration.RoundSpec) { s.Pass.Questions = []string{"nope"} }},
		{"free text", "pass.questions[0]", "unknown_question", func(s *calibration.RoundSpec) { s.Pass.Questions = []string{"notes"} }},
		{"nominal for exact", "pass.questions[1]", "not_ordinal", func(s *calibration.RoundSpec) { s.Pass.Questions = []string{"score", "ok"} }},
		{"question twice", "pass.questions[1]", "duplicate", func(s *calibration.RoundSpec) { s.Pass.Questions = []string{"score", "score"} }},
		{"sample and ids", "external_ids", "invalid_value", func(s *calibration.RoundSpec) { s.Sample = &one }},
		{"sample of none", "sample", "out_of_range", func(s *calibration.RoundSpec) { s.ExternalIDs, s.Sample = nil, sample(0) }},
		{"sample over the pool", "sample", "out_of_range", func(s *calibration.RoundSpec) { s.ExternalIDs, s.Sample = nil, sample(3) }},
		{"no items", "external_ids", "required", func(s *calibration.RoundSpec) { s.ExternalIDs = []string{} }},
		{"item twice", "external_ids[1]", "duplicate", func(s *calibration.RoundSpec) { s.ExternalIDs = []string{"c1", "c1"} }},
		{"production item", "external_ids[0]", "not_in_pool", func(s *calibration.RoundSpec) { s.ExternalIDs = []string{"prod1"} }},
		{"unknown item", "external_ids[1]", "not_in_pool", func(s *calibration.RoundSpec) { s.ExternalIDs = []string{"c1", "zzz"} }},
		{"no participants", "participants", "required", func(s *calibration.RoundSpec) { s.Participants = nil }},
		{"a viewer", "participants[0]", "not_annotator", func(s *calibration.RoundSpec) { s.Participants = []string{vic.ID} }},
		{"a stranger", "participants[0]", "not_annotator", func(s *calibration.RoundSpec) { s.Participants = []string{"nobody@example.org"} }},
		{"the lead", "participants[0]", "not_annotator", func(s *calibration.RoundSpec) { s.Participants = []string{f.lead.ID} }},
		{"one person twice", "participants[1]", "duplicate", func(s *calibration.RoundSpec) { s.Participants = []string{ann.ID, "Ann@Example.org"} }},
		{"accuracy without gold", "pass.metric", "no_gold", func(s *calibration.RoundSpec) {
			s.ExternalIDs, s.Pass = []string{"c1", "c4"}, calibration.PassRule{Metric: flow.PassAccuracyVsGold, Threshold: 0.5}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := calibration.RoundSpec{Name: "r", ExternalIDs: []string{"c1"}, Participants: []string{ann.ID},
				Pass: calibration.PassRule{Metric: flow.PassExactWithPeers, Threshold: 0.5}}
			c.edit(&spec)
			rv, err := f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, spec)
			if rv != nil || fieldCode(err, c.field) != c.code {
				t.Fatalf("got %+v, %v; want %s on %s", rv, err, c.code, c.field)
			}
		})
	}
	if rs, err := f.cal.Rounds(f.ctx, f.project(), f.lead.ID, store.RoleSet{store.RoleLead}); err != nil || len(rs) != 0 {
		t.Fatalf("rounds after refusals: %+v, %v", rs, err)
	}
	// a schema without ordinal questions has none for exact agreement
	bc := newFixture(t, openSQLite(t), projects.ProjectSpec{Template: "binary-checklist"})
	_, err := bc.cal.CreateRound(bc.ctx, bc.project(), bc.lead.ID, calibration.RoundSpec{Name: "r", ExternalIDs: []string{"x"},
		Participants: []string{"x"}, Pass: calibration.PassRule{Metric: flow.PassWithinOneWithPeers, Threshold: 0.5}})
	if fieldCode(err, "pass.questions") != "required" {
		t.Fatalf("no ordinal question: %v", err)
	}
}

// TestCreateRoundEmptyPool: a round over a pool with nothing in it is refused as an empty pool
// (not as a sample out of a range of 1 to 0), with the way to fill it; so is an item that is
// not in the pool, without naming an API parameter.
func TestCreateRoundEmptyPool(t *testing.T) {
	f := newFixture(t, openSQLite(t), projects.ProjectSpec{})
	ann := f.user("Ann", store.RoleAnnotator)
	f.importItems(poolLine("prod1", ""))
	one := 1
	spec := calibration.RoundSpec{Name: "r", Sample: &one, Participants: []string{ann.ID},
		Pass: calibration.PassRule{Metric: flow.PassExactWithPeers, Threshold: 0.5}}
	_, err := f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, spec)
	msg := fieldMessage(err, "sample")
	if fieldCode(err, "sample") != "empty_pool" || !strings.Contains(msg, "calibration pool is empty") || !strings.Contains(msg, "Items") ||
		strings.Contains(msg, "1 to 0") {
		t.Fatalf("empty pool: %v", err)
	}
	spec.Sample, spec.ExternalIDs = nil, []string{"prod1"}
	_, err = f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, spec)
	if msg := fieldMessage(err, "external_ids[0]"); fieldCode(err, "external_ids[0]") != "not_in_pool" || strings.Contains(msg, "?pool=") || !strings.Contains(msg, "Items") {
		t.Fatalf("a production item: %v", err)
	}
}

// TestCreateRound: rounds are numbered in order; the pass rule's questions default to those
// its metric applies to (every levelled one for alpha, the ordinal ones for exact agreement);
// a sample draws from the pool.
func TestCreateRound(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, projects.ProjectSpec{})
		ann, ben := f.user("Ann", store.RoleAnnotator), f.user("Ben", store.RoleAnnotator, store.RoleReviewer)
		f.importPool(poolLine("c1", `{"score": 4}`), poolLine("c2", ""), poolLine("c3", ""))
		two := 2
		first, err := f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, calibration.RoundSpec{Name: "first", ExternalIDs: []string{"c2", "c1"},
			Participants: []string{ben.Email, ann.ID}, Pass: calibration.PassRule{Metric: flow.PassAlphaWithPeers, Threshold: -1}})
		if err != nil {
			t.Fatal(err)
		}
		if first.Number != 1 || first.Name != "first" || first.Status != flow.RoundOpen || first.Items != 2 || first.Completion != 0 ||
			!slices.Equal(first.Pass.Questions, []string{"score", "ok"}) || len(first.Participants) != 2 || first.Participants[0].Name != "Ann" {
			t.Fatalf("first round %+v", first)
		}
		second, err := f.cal.CreateRound(f.ctx, f.project(), f.lead.ID, calibration.RoundSpec{Name: "second", Sample: &two,
			Participants: []string{ann.ID}, Pass: calibration.PassRule{Metric: flow.PassExactWithPeers, Threshold: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if second.Number != 2 || second.Items != 2 || !slices.Equal(second.Pass.Questions, []string{"score"}) {
			t.Fatalf("second round %+v", second)
		}
		d, err := f.cal.Round(f.ctx, f.project(), first.ID)
		if err != nil || len(d.ItemIDs) != 2 || d.ItemIDs[0].ExternalID != "c2" || d.ItemIDs[1].ExternalID != "c1" || d.ItemIDs[0].ID != f.itemID("c2") {
			t.Fatalf("first round's items %+v, %v", d, err)
		}
		s, err := f.cal.Round(f.ctx, f.project(), second.ID)
		if err != nil || len(s.ItemIDs) != 2 || s.ItemIDs[0].ExternalID == s.ItemIDs[1].ExternalID || !strings.HasPrefix(s.ItemIDs[0].ExternalID, "c") {
			t.Fatalf("sampled items %+v, %v", s, err)
		}
		if _, err := f.cal.Round(f.ctx, f.project(), "no-such-round"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an unknown round: %v", err)
		}
	})
}

// TestRoundLifecycle: each participant claims every item of the round once; the lead sees
// every participant and the completion, an annotator only the rounds they take part in and
// only themselves; closing freezes the open work, records the passes and qualifies who
// passed for label work; a closed round is not closed twice.
func TestRoundLifecycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		r := runRoundOne(t, st)
		p := r.project()
		annotator := store.RoleSet{store.RoleAnnotator}
		if got, _ := r.participate(r.ann, func(string) tasks.Answers { return answers("score", 1) }, fixed(1)); len(got) != 0 {
			t.Fatalf("Ann got the round's items again: %+v", got)
		}
		if _, err := r.wf.Next(r.ctx, p, r.ann, annotator, flow.StageLabel, false); !errors.Is(err, workflow.ErrNotQualified) {
			t.Fatalf("label work before qualifying: %v", err)
		}
		lead, err := r.cal.Rounds(r.ctx, p, r.lead.ID, store.RoleSet{store.RoleLead})
		if err != nil || len(lead) != 1 || len(lead[0].Participants) != 3 || math.Abs(lead[0].Completion-8.0/9) > 1e-12 {
			t.Fatalf("the lead's rounds %+v, %v", lead, err)
		}
		if done := []int64{lead[0].Participants[0].Done, lead[0].Participants[1].Done, lead[0].Participants[2].Done}; !slices.Equal(done, []int64{3, 3, 2}) {
			t.Fatalf("done %v", done)
		}
		mine, err := r.cal.Rounds(r.ctx, p, r.ben.ID, annotator)
		if err != nil || len(mine) != 1 || len(mine[0].Participants) != 1 || mine[0].Participants[0].UserID != r.ben.ID {
			t.Fatalf("Ben's rounds %+v, %v", mine, err)
		}
		if none, err := r.cal.Rounds(r.ctx, p, r.vic.ID, store.RoleSet{store.RoleViewer}); err != nil || len(none) != 0 {
			t.Fatalf("Vic's rounds %+v, %v", none, err)
		}

		closed, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, r.round.ID)
		if err != nil || closed.Status != flow.RoundClosed || closed.ClosedAt == nil {
			t.Fatalf("close: %+v, %v", closed, err)
		}
		if _, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, r.round.ID); !errors.Is(err, workflow.ErrRoundClosed) {
			t.Fatalf("closing twice: %v", err)
		}
		if _, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, "no-such-round"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("closing an unknown round: %v", err)
		}
		// Cat's open claim is frozen
		_, err = r.wf.Submit(r.ctx, p, workflow.Worker{ID: r.cat.ID, Roles: annotator}, r.left.aid, workflow.Submission{Answers: answers("score", 5, "ok", "yes")})
		if !errors.Is(err, workflow.ErrRoundClosed) {
			t.Fatalf("submit to a closed round: %v", err)
		}
		if a, err := st.Assignment(r.ctx, r.left.aid); err != nil || a.Status == flow.AssignActive || a.Status == flow.AssignSubmitted {
			t.Fatalf("Cat's open work after the close: %+v, %v", a, err)
		}
		if got, left := r.participate(r.cat, func(string) tasks.Answers { return answers("score", 5) }, fixed(1)); len(got) != 0 || left != nil {
			t.Fatalf("calibration work after the close: %+v %+v", got, left)
		}
		// Ann passed (all right against gold); Ben (5/12) and Cat (2 of 3 items) did not
		people, err := st.RoundPeople(r.ctx, []string{r.round.ID})
		if err != nil || len(people) != 3 {
			t.Fatal(people, err)
		}
		for _, pp := range people {
			if pp.Passed == nil || *pp.Passed != (pp.UserID == r.ann.ID) {
				t.Errorf("%s passed %v (score %v)", pp.Name, pp.Passed, show(pp.Score))
			}
		}
		for _, u := range []*store.User{r.ann, r.ben, r.cat} {
			m, err := st.Member(r.ctx, r.pid, u.ID)
			if err != nil || m.Qualified != (u == r.ann) {
				t.Errorf("%s qualified %v, %v", u.Name, m.Qualified, err)
			}
		}
		if c, err := r.wf.Next(r.ctx, p, r.ann, annotator, flow.StageLabel, false); err != nil || c == nil || r.extOf(c.Assignment.ItemID) != "prod1" {
			t.Fatalf("Ann's label work after passing: %+v, %v", c, err)
		}
		if _, err := r.wf.Next(r.ctx, p, r.ben, annotator, flow.StageLabel, false); !errors.Is(err, workflow.ErrNotQualified) {
			t.Fatalf("Ben's label work after failing: %v", err)
		}
		events, err := st.AuditEvents(r.ctx, r.pid, 1000)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string][]string{}
		for _, e := range events {
			seen[e.Action] = append(seen[e.Action], e.Target)
		}
		for action, targets := range map[string][]string{"calibration_round.create": {"round:" + r.round.ID}, "calibration_round.close": {"round:" + r.round.ID},
			"calibration_round.pass": {"user:" + r.ann.ID}, "member.qualify": {"user:" + r.ann.ID}} {
			if !slices.Equal(seen[action], targets) {
				t.Errorf("audit %s: %v, want %v", action, seen[action], targets)
			}
		}
	})
}

// TestFeedback: a lead's notes come after the close, on an item and question of the round;
// each participant reads their own answers beside gold, or else the participants' majority
// (none on a tie), with the notes; someone who did not take part gets not found.
func TestFeedback(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		r := runRoundOne(t, st)
		p := r.project()
		c1 := r.itemID("c1")
		if _, err := r.cal.AddNote(r.ctx, p, r.lead.ID, r.round.ID, c1, "score", "Look again."); !errors.Is(err, calibration.ErrRoundOpen) {
			t.Fatalf("a note on an open round: %v", err)
		}
		if _, err := r.cal.Mine(r.ctx, p, r.ann.ID, r.round.ID); !errors.Is(err, calibration.ErrRoundOpen) {
			t.Fatalf("feedback of an open round: %v", err)
		}
		if _, err := r.cal.CloseRound(r.ctx, p, r.lead.ID, r.round.ID); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name, item, question, note, field, code string
		}{
			{"item outside the round", r.itemID("c4"), "score", "n", "item_id", "not_in_round"},
			{"unknown question", c1, "nope", "n", "question", "unknown_question"},
			{"empty note", c1, "score", "   ", "note", "invalid_length"},
			{"long note", c1, "score", strings.Repeat("x", 4001), "note", "invalid_length"},
		} {
			if id, err := r.cal.AddNote(r.ctx, p, r.lead.ID, r.round.ID, c.item, c.question, c.note); id != "" || fieldCode(err, c.field) != c.code {
				t.Errorf("%s: %q, %v", c.name, id, err)
			}
		}
		if _, err := r.cal.AddNote(r.ctx, p, r.lead.ID, "no-such-round", c1, "score", "n"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a note on an unknown round: %v", err)
		}
		if id, err := r.cal.AddNote(r.ctx, p, r.lead.ID, r.round.ID, c1, "score", "  Look at the second half.  "); err != nil || id == "" {
			t.Fatalf("note: %q, %v", id, err)
		}
		if _, err := r.cal.Mine(r.ctx, p, r.vic.ID, r.round.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("feedback for someone who did not take part: %v", err)
		}
		if _, err := r.cal.Mine(r.ctx, p, r.ann.ID, "no-such-round"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("feedback of an unknown round: %v", err)
		}
		ben, err := r.cal.Mine(r.ctx, p, r.ben.ID, r.round.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ben.Passed || ben.Score == nil || len(ben.Items) != 3 || len(ben.Round.Participants) != 1 || ben.Round.Participants[0].UserID != r.ben.ID {
			t.Fatalf("Ben's feedback %+v", ben)
		}
		near(t, "Ben's score", ben.Score, (1.0/3+1.0/2)/2)
		got := map[string]calibration.MineQuestion{}
		for _, it := range ben.Items {
			if it.Position < 0 || len(it.Questions) != 2 {
				t.Fatalf("item %+v", it)
			}
			for _, q := range it.Questions {
				got[r.extOf(it.ItemID)+"/"+q.Key] = q
			}
		}
		for key, w := range map[string]struct {
			mine, ref, kind string
			agrees          bool
			notes           int
		}{
			"c1/score": {"3", "4", "gold", false, 1}, "c1/ok": {`"yes"`, `"yes"`, "gold", true, 0},
			"c2/ok": {`"yes"`, `"no"`, "gold", false, 0}, "c3/score": {"4", "5", "gold", false, 0},
			"c3/ok": {`"yes"`, `"yes"`, "majority", true, 0}, // no gold: Ann and Ben said Yes
		} {
			q := got[key]
			if string(q.Mine) != w.mine || string(q.Reference) != w.ref || q.ReferenceKind == nil || string(*q.ReferenceKind) != w.kind ||
				q.Agrees == nil || *q.Agrees != w.agrees || len(q.Notes) != w.notes {
				t.Errorf("%s: %+v", key, q)
			}
		}
		if n := got["c1/score"].Notes; len(n) != 1 || n[0] != "Look at the second half." {
			t.Errorf("notes %q", n)
		}
		// Cat never answered c3: no answer of hers, and the majority is still the reference
		cat, err := r.cal.Mine(r.ctx, p, r.cat.ID, r.round.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range cat.Items {
			for _, q := range it.Questions {
				if r.extOf(it.ItemID) == "c3" && (q.Mine != nil || q.Agrees == nil || *q.Agrees) {
					t.Errorf("Cat's c3/%s: %+v", q.Key, q)
				}
			}
		}
	})
}
