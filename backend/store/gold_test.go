package store_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestGoldQueue(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u, o := f.user("lead"), f.user("u"), f.user("o")
		p := f.project(lead)
		f.member(p, u, store.RoleAnnotator)
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, u.ID, []string{"en"}))
		gold := f.items(p, "g", flow.StageGold, 6)
		f.worked(gold[0], u, flow.StageReview)                    // worked in any stage
		f.assign(gold[1], u, flow.StageLabel, flow.AssignExpired) // had it before
		must(t, f.s.SetItemFlag(f.ctx, gold[2].ID, store.JSON(`{}`)))
		f.assign(gold[3], o, flow.StageLabel, flow.AssignSubmitted) // others' work does not matter
		f.item(p, "g-de", flow.StageGold, inLanguage("de"))
		f.item(p, "label", flow.StageLabel)

		ids, err := f.s.GoldCandidates(f.ctx, p.ID, u.ID, 10)
		must(t, err)
		slices.Sort(ids)
		equalIDs(t, "gold candidates", ids, gold[3].ID, gold[4].ID, gold[5].ID)
		n, err := f.s.AvailableGold(f.ctx, p.ID, u.ID, 2)
		must(t, err)
		equal(t, "available gold up to 2", n, int64(2))
		if ids, err := f.s.GoldCandidates(f.ctx, p.ID, u.ID, 1); err != nil || len(ids) != 1 {
			t.Fatalf("one gold candidate: %v, %v", ids, err)
		}
	})
}

func TestGoldWindow(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u, o := f.user("lead"), f.user("u"), f.user("o")
		p, other := f.project(lead), f.project(lead)
		base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		answer := func(p *store.Project, u *store.User, minute int, correct *bool, status flow.AssignmentStatus) {
			it := f.item(p, "g-"+u.ID+"-"+time.Duration(minute).String(), flow.StageGold)
			f.assign(it, u, flow.StageLabel, status, submittedAt(base.Add(time.Duration(minute)*time.Minute)),
				func(a *store.Assignment) { a.GoldCorrect = correct })
		}
		yes, no := new(true), new(false)
		answer(p, u, 1, yes, flow.AssignSubmitted)
		answer(p, u, 2, no, flow.AssignSubmitted)
		answer(p, u, 3, yes, flow.AssignSubmitted)
		answer(p, u, 4, nil, flow.AssignSubmitted) // not a gold answer
		answer(p, u, 5, no, flow.AssignActive)     // not submitted
		answer(other, u, 6, no, flow.AssignSubmitted)
		answer(p, o, 7, no, flow.AssignSubmitted)

		for _, c := range []struct {
			name  string
			since *time.Time
			limit int
			want  []bool
		}{
			{"all", nil, 10, []bool{true, false, true}},
			{"latest two", nil, 2, []bool{true, false}},
			{"since the first", new(base.Add(time.Minute)), 10, []bool{true, false}},
		} {
			got, err := f.s.GoldWindow(f.ctx, p.ID, u.ID, c.since, c.limit)
			must(t, err)
			equal(t, c.name, got, c.want)
		}
		answers, err := f.s.GoldAnswers(f.ctx, p.ID)
		must(t, err)
		var got []string
		for _, a := range answers {
			got = append(got, a.UserID+":"+map[bool]string{true: "right", false: "wrong"}[a.Correct]+"@"+a.SubmittedAt.UTC().Sub(base).String())
		}
		want := []string{u.ID + ":right@3m0s", u.ID + ":wrong@2m0s", u.ID + ":right@1m0s", o.ID + ":wrong@7m0s"}
		if u.ID > o.ID {
			want = append(want[3:], want[:3]...)
		}
		equal(t, "gold answers", got, want)
	})
}

func TestMemberPause(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := f.project(lead)
		f.member(p, u, store.RoleAnnotator)
		must(t, f.s.SetMemberPaused(f.ctx, p.ID, u.ID, true))
		states, err := f.s.MembersState(f.ctx, p.ID)
		must(t, err)
		if m := states[u.ID]; !m.Paused || m.GoldSince != nil || len(states) != 2 {
			t.Fatalf("paused member %+v of %d", m, len(states))
		}
		before := time.Now().UTC().Add(-time.Second)
		must(t, f.s.SetMemberPaused(f.ctx, p.ID, u.ID, false))
		states, err = f.s.MembersState(f.ctx, p.ID)
		must(t, err)
		if m := states[u.ID]; m.Paused || m.GoldSince == nil || m.GoldSince.Before(before) {
			t.Fatalf("a lifted pause starts the gold window: %+v", m)
		}
		// the pause survives a change of roles
		must(t, f.s.SetMemberPaused(f.ctx, p.ID, u.ID, true))
		f.member(p, u, store.RoleAnnotator, store.RoleReviewer)
		if m, err := f.s.Member(f.ctx, p.ID, u.ID); err != nil || !m.Paused {
			t.Fatalf("member after a role change %+v, %v", m, err)
		}
		if err := f.s.SetMemberPaused(f.ctx, p.ID, lead.ID+"x", true); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("pausing a non-member: %v, want ErrNotFound", err)
		}
	})
}
