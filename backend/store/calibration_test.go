package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// round creates the project's next round over the items, with the participants.
func (f *fixture) round(p *store.Project, items []*store.Item, people ...*store.User) *store.Round {
	f.t.Helper()
	n, err := f.s.NextRoundNumber(f.ctx, p.ID)
	must(f.t, err)
	r := &store.Round{ProjectID: p.ID, Number: n, Name: unique("round"), Status: flow.RoundOpen, PassRule: store.JSON(`{"metric":"accuracy"}`), CreatedBy: p.CreatedBy}
	var userIDs []string
	for _, u := range people {
		userIDs = append(userIDs, u.ID)
	}
	must(f.t, f.s.CreateRound(f.ctx, r, idsOf(items...), userIDs))
	return r
}

// calibrate creates u's calibration assignment of an item of round r.
func (f *fixture) calibrate(r *store.Round, it *store.Item, u *store.User, status flow.AssignmentStatus) *store.Assignment {
	f.t.Helper()
	return f.assign(it, u, flow.StageCalibration, status, func(a *store.Assignment) { a.RoundID = &r.ID })
}

func TestRounds(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, bob := f.user("lead"), f.user("ann"), f.user("bob")
		p, other := f.project(lead), f.project(lead)
		pool := f.items(p, "pool", flow.StageCalibration, 3)
		f.item(p, "label", flow.StageLabel)
		ids, err := f.s.PoolItems(f.ctx, p.ID)
		must(t, err)
		equalIDs(t, "pool", ids, idsOf(pool...)...)

		first := f.round(p, []*store.Item{pool[2], pool[0]}, ann, bob)
		second := f.round(p, pool[1:2], bob)
		equal(t, "numbers", []int{first.Number, second.Number}, []int{1, 2})
		dup := &store.Round{ProjectID: p.ID, Number: 2, Name: "dup", Status: flow.RoundOpen, PassRule: store.JSON(`{}`), CreatedBy: lead.ID}
		if err := f.s.CreateRound(f.ctx, dup, nil, nil); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a round number taken twice: %v, want ErrConflict", err)
		}
		if got, err := f.s.Round(f.ctx, p.ID, first.ID); err != nil || got.Name != first.Name || string(got.PassRule) != `{"metric":"accuracy"}` {
			t.Fatalf("round %+v, %v", got, err)
		}
		if _, err := f.s.Round(f.ctx, other.ID, first.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a round of another project: %v, want ErrNotFound", err)
		}
		must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error {
			_, err := tx.RoundForUpdate(f.ctx, p.ID, second.ID)
			return err
		}))
		roundIDs := func(rs []store.Round) []string {
			var out []string
			for _, r := range rs {
				out = append(out, r.ID)
			}
			return out
		}
		all, err := f.s.Rounds(f.ctx, p.ID, "")
		must(t, err)
		equalIDs(t, "rounds, newest first", roundIDs(all), second.ID, first.ID)
		anns, err := f.s.Rounds(f.ctx, p.ID, ann.ID)
		must(t, err)
		equalIDs(t, "ann's rounds", roundIDs(anns), first.ID)

		items, err := f.s.RoundItems(f.ctx, first.ID)
		must(t, err)
		equal(t, "round items", items, []store.RoundItem{{ItemID: pool[2].ID, ExternalID: "pool-003", Position: 1}, {ItemID: pool[0].ID, ExternalID: "pool-001", Position: 2}})
		counts, err := f.s.RoundItemCounts(f.ctx, []string{first.ID, second.ID})
		must(t, err)
		equal(t, "round item counts", counts, map[string]int{first.ID: 2, second.ID: 1})

		must(t, f.s.PutGold(f.ctx, pool[0].ID, store.JSON(`{"q":"a"}`)))
		gold, err := f.s.Gold(f.ctx, idsOf(pool...))
		must(t, err)
		if len(gold) != 1 || string(gold[pool[0].ID]) != `{"q":"a"}` {
			t.Fatalf("gold %v", gold)
		}
	})
}

func TestRoundWork(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, bob, cid := f.user("lead"), f.user("ann"), f.user("bob"), f.user("cid")
		p := f.project(lead)
		pool := f.items(p, "pool", flow.StageCalibration, 3)
		de := f.item(p, "pool-de", flow.StageCalibration, inLanguage("de"))
		first := f.round(p, []*store.Item{pool[0], pool[1], de}, ann, bob)
		second := f.round(p, []*store.Item{pool[0], pool[2]}, ann)
		closed := f.round(p, pool, ann)
		must(t, f.s.CloseRound(f.ctx, closed.ID, lead.ID, time.Now().UTC()))
		f.member(p, ann, store.RoleAnnotator)
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, ann.ID, []string{"en"}))

		done := f.calibrate(first, pool[0], ann, flow.AssignSubmitted)
		open := f.calibrate(first, pool[1], bob, flow.AssignActive)
		f.calibrate(second, pool[0], ann, flow.AssignActive) // the same pool item in another round
		f.assign(pool[0], cid, flow.StageCalibration, flow.AssignActive, func(a *store.Assignment) { a.RoundID = &first.ID })
		if err := f.s.CreateAssignment(f.ctx, &store.Assignment{ProjectID: p.ID, ItemID: pool[0].ID, UserID: ann.ID, Stage: flow.StageCalibration,
			RoundID: &first.ID, Status: flow.AssignActive, LeaseExpiresAt: time.Now().UTC()}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("an item twice in one round: %v, want ErrConflict", err)
		}

		cands, err := f.s.CalibrationCandidates(f.ctx, p.ID, ann.ID, 10)
		must(t, err)
		equal(t, "ann's candidates", cands, []store.RoundCandidate{{RoundID: first.ID, ItemID: pool[1].ID}, {RoundID: second.ID, ItemID: pool[2].ID}})
		cands, err = f.s.CalibrationCandidates(f.ctx, p.ID, bob.ID, 1)
		must(t, err)
		equal(t, "bob's first candidate", cands, []store.RoundCandidate{{RoundID: first.ID, ItemID: pool[0].ID}})

		people, err := f.s.RoundPeople(f.ctx, []string{first.ID})
		must(t, err)
		if len(people) != 2 || people[0].UserID != ann.ID || people[0].Done != 1 || people[1].UserID != bob.ID || people[1].Done != 0 || people[0].Passed != nil {
			t.Fatalf("round people %+v", people)
		}
		must(t, f.s.SetRoundOutcome(f.ctx, first.ID, ann.ID, true, new(0.75)))
		must(t, f.s.SetRoundOutcome(f.ctx, first.ID, bob.ID, false, nil))
		people, err = f.s.RoundPeople(f.ctx, []string{first.ID})
		must(t, err)
		if !*people[0].Passed || *people[0].Score != 0.75 || *people[1].Passed || people[1].Score != nil {
			t.Fatalf("round outcomes %+v", people)
		}

		expired, err := f.s.ExpireRoundWork(f.ctx, first.ID)
		must(t, err)
		if len(expired) != 2 || !containsAll(expired, open.ID) {
			t.Fatalf("expired %v", expired)
		}
		assertStatus(t, f.ctx, f.s, done.ID, flow.AssignSubmitted)
		work, err := f.s.RoundWork(f.ctx, []string{first.ID, second.ID})
		must(t, err)
		equalIDs(t, "submitted round work", assignmentIDs(work), done.ID)

		must(t, f.s.CloseRound(f.ctx, first.ID, lead.ID, time.Now().UTC()))
		r, err := f.s.Round(f.ctx, p.ID, first.ID)
		if err != nil || r.Status != flow.RoundClosed || r.ClosedAt == nil || *r.ClosedBy != lead.ID {
			t.Fatalf("closed round %+v, %v", r, err)
		}
	})
}

// containsAll reports whether every one of want is in got.
func containsAll(got []string, want ...string) bool {
	seen := map[string]bool{}
	for _, g := range got {
		seen[g] = true
	}
	for _, w := range want {
		if !seen[w] {
			return false
		}
	}
	return true
}

func TestRoundNotes(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p := f.project(lead)
		pool := f.items(p, "pool", flow.StageCalibration, 1)
		r := f.round(p, pool)
		for _, text := range []string{"first", "second"} {
			must(t, f.s.AddRoundNote(f.ctx, &store.RoundNote{RoundID: r.ID, ItemID: pool[0].ID, Question: "q", Note: text, CreatedBy: lead.ID}))
		}
		ns, err := f.s.RoundNotes(f.ctx, r.ID)
		must(t, err)
		if len(ns) != 2 || ns[0].Note != "first" || ns[1].Note != "second" || ns[0].ID == ns[1].ID {
			t.Fatalf("notes %+v", ns)
		}
	})
}
