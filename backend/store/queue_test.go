package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// labelQueue is what the label queue offers u in p with slots per item, at a time: the
// candidates, the count and the first claimable item.
func labelQueue(t *testing.T, f *fixture, p *store.Project, u *store.User, slots int, at time.Time) []string {
	t.Helper()
	ids, err := f.s.NextItemCandidates(f.ctx, p.ID, u.ID, flow.StageLabel, slots, 50, at, store.Allowed{})
	must(t, err)
	n, err := f.s.AvailableItems(f.ctx, p.ID, u.ID, flow.StageLabel, slots, 50, at, store.Allowed{})
	must(t, err)
	equal(t, "available items", n, int64(len(ids)))
	next, err := f.s.NextItem(f.ctx, p.ID, u.ID, flow.StageLabel, slots, at, nil, store.Allowed{})
	must(t, err)
	if (next == nil) != (len(ids) == 0) || (next != nil && next.ID != ids[0]) {
		t.Fatalf("next item %+v, candidates %v", next, ids)
	}
	return ids
}

func TestItemQueue(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		f.run("the stage's unflagged items of the project in id order", func(t *testing.T, f *fixture) {
			lead, ann := f.user("lead"), f.user("ann")
			p, other := f.project(lead), f.project(lead)
			its := f.items(p, "l", flow.StageLabel, 3)
			f.item(p, "r", flow.StageReview)
			flagged := f.item(p, "f", flow.StageLabel)
			must(t, f.s.SetItemFlag(f.ctx, flagged.ID, store.JSON(`{"reason":"broken"}`)))
			f.item(other, "o", flow.StageLabel)
			now := time.Now().UTC()
			equalIDs(t, "queue", labelQueue(t, f, p, ann, 1, now), idsOf(its...)...)

			ids, err := f.s.NextItemCandidates(f.ctx, p.ID, ann.ID, flow.StageLabel, 1, 2, now, store.Allowed{})
			must(t, err)
			equalIDs(t, "first two", ids, its[0].ID, its[1].ID)
			n, err := f.s.AvailableItems(f.ctx, p.ID, ann.ID, flow.StageLabel, 1, 2, now, store.Allowed{})
			must(t, err)
			equal(t, "count up to 2", n, int64(2))
			next, err := f.s.NextItem(f.ctx, p.ID, ann.ID, flow.StageLabel, 1, now, idsOf(its[0]), store.Allowed{})
			must(t, err)
			equal(t, "next after the tried one", next.ID, its[1].ID)
			equal(t, "whole item", string(next.Inputs), string(its[1].Inputs))
			next, err = f.s.NextItem(f.ctx, p.ID, ann.ID, flow.StageLabel, 1, now, idsOf(its...), store.Allowed{})
			if err != nil || next != nil {
				t.Fatalf("every item tried: %+v, %v", next, err)
			}
		})
		f.run("an item nobody holds comes first, else the queue's first", func(t *testing.T, f *fixture) {
			lead, ann, o1, o2, o3 := f.user("lead"), f.user("ann"), f.user("o1"), f.user("o2"), f.user("o3")
			p := f.project(lead)
			its := f.items(p, "l", flow.StageLabel, 3)
			f.assign(its[0], o1, flow.StageLabel, flow.AssignActive)
			f.assign(its[1], o1, flow.StageLabel, flow.AssignSubmitted)
			f.assign(its[1], o2, flow.StageLabel, flow.AssignActive, leaseEnded)
			next := func(at time.Time, tried ...string) string {
				it, err := f.s.NextItem(f.ctx, p.ID, ann.ID, flow.StageLabel, 3, at, tried, store.Allowed{})
				must(t, err)
				return it.ExternalID
			}
			now := time.Now().UTC()
			equal(t, "held by a live lease: passed over", next(now), its[1].ExternalID)
			equal(t, "once its lease ends", next(now.Add(2*time.Hour)), its[0].ExternalID)
			equal(t, "the unheld ones tried", next(now, its[1].ID, its[2].ID), its[0].ExternalID)
			f.assign(its[1], o3, flow.StageLabel, flow.AssignActive)
			f.assign(its[2], o1, flow.StageLabel, flow.AssignActive)
			equal(t, "every item held", next(now), its[0].ExternalID)
		})
		f.run("never twice in a stage", func(t *testing.T, f *fixture) {
			lead, ann, bob := f.user("lead"), f.user("ann"), f.user("bob")
			p := f.project(lead)
			its := f.items(p, "l", flow.StageLabel, 4)
			f.assign(its[0], ann, flow.StageLabel, flow.AssignExpired)
			f.assign(its[1], ann, flow.StageLabel, flow.AssignSkipped)
			given := f.assign(its[2], ann, flow.StageLabel, flow.AssignActive)
			f.worked(its[2], ann, flow.StageLabel)
			equalIDs(t, "ann's queue", labelQueue(t, f, p, ann, 3, time.Now().UTC()), its[3].ID)
			equalIDs(t, "bob's queue", labelQueue(t, f, p, bob, 3, time.Now().UTC()), idsOf(its...)...)

			// an assignment given back untouched is deleted: the item is ann's to take again
			ok, err := f.s.DeleteUntouchedAssignment(f.ctx, given.ID)
			if err != nil || !ok {
				t.Fatalf("delete untouched: %v, %v", ok, err)
			}
			equalIDs(t, "ann's queue after giving one back", labelQueue(t, f, p, ann, 3, time.Now().UTC()), its[2].ID, its[3].ID)
		})
		f.run("never an item worked in another stage", func(t *testing.T, f *fixture) {
			lead, rev := f.user("lead"), f.user("rev")
			p := f.project(lead)
			its := f.items(p, "l", flow.StageLabel, 3)
			f.worked(its[0], rev, flow.StageReview)
			f.worked(its[1], rev, flow.StageAdjudicate)
			f.worked(its[2], rev, flow.StageLabel)
			equalIDs(t, "queue", labelQueue(t, f, p, rev, 3, time.Now().UTC()), its[2].ID)
		})
		f.run("slots held by submits and live leases", func(t *testing.T, f *fixture) {
			lead, ann := f.user("lead"), f.user("ann")
			p := f.project(lead)
			others := []*store.User{f.user("o1"), f.user("o2")}
			type hold struct {
				status flow.AssignmentStatus
				ended  bool // the lease ran out
			}
			submitted, live := hold{flow.AssignSubmitted, false}, hold{flow.AssignActive, false}
			holds := [][]hold{
				{submitted, submitted},                    // full
				{submitted, live},                         // full while the lease lives
				{submitted, {flow.AssignActive, true}},    // a slot free
				{submitted, {flow.AssignRejected, false}}, // a slot free
				{live, {flow.AssignExpired, false}},       // a slot free
				{},                                        // free
			}
			its := f.items(p, "l", flow.StageLabel, len(holds))
			for i, hs := range holds {
				for j, h := range hs {
					f.assign(its[i], others[j], flow.StageLabel, h.status, func(a *store.Assignment) {
						if h.ended {
							leaseEnded(a)
						}
					})
				}
			}
			now := time.Now().UTC()
			equalIDs(t, "now", labelQueue(t, f, p, ann, 2, now), its[2].ID, its[3].ID, its[4].ID, its[5].ID)
			equalIDs(t, "once the live leases end", labelQueue(t, f, p, ann, 2, now.Add(2*time.Hour)), its[1].ID, its[2].ID, its[3].ID, its[4].ID, its[5].ID)
			equalIDs(t, "three slots", labelQueue(t, f, p, ann, 3, now), idsOf(its...)...)
			for i, want := range []int64{2, 2, 1, 1, 1, 0} {
				n, err := f.s.TakenSlots(f.ctx, its[i].ID, flow.StageLabel, 0, "", now)
				must(t, err)
				equal(t, "taken slots of item "+its[i].ExternalID, n, want)
			}
			as, err := f.s.ItemAssignments(f.ctx, its[0].ID, flow.StageLabel)
			must(t, err)
			n, err := f.s.TakenSlots(f.ctx, its[0].ID, flow.StageLabel, 0, as[0].ID, now)
			must(t, err)
			equal(t, "taken slots but one's own", n, int64(1))
		})
		f.run("an item in its own pass counts that pass's slots", func(t *testing.T, f *fixture) {
			lead, ann, o1, o2 := f.user("lead"), f.user("ann"), f.user("o1"), f.user("o2")
			p := f.project(lead)
			its := f.items(p, "l", flow.StageLabel, 2)
			for _, it := range its {
				must(t, f.s.SetItemPass(f.ctx, it.ID, 1, store.Event{Action: "item.pass", Target: "item:" + it.ID}))
			}
			for _, u := range []*store.User{o1, o2} {
				f.assign(its[0], u, flow.StageLabel, flow.AssignSubmitted) // pass 0
				f.assign(its[1], u, flow.StageLabel, flow.AssignSubmitted, func(a *store.Assignment) { a.Pass = 1 })
			}
			equalIDs(t, "queue", labelQueue(t, f, p, ann, 2, time.Now().UTC()), its[0].ID)
			n, err := f.s.TakenSlots(f.ctx, its[0].ID, flow.StageLabel, 1, "", time.Now().UTC())
			must(t, err)
			equal(t, "pass 1 slots of the first item", n, int64(0))
		})
		f.run("languages the member reads", func(t *testing.T, f *fixture) {
			lead, zhEn, any := f.user("lead"), f.user("zh-en"), f.user("any")
			p, other := f.project(lead), f.project(lead)
			var its []*store.Item
			for _, tag := range []string{"", "en", "zh-Hans", "zh", "de", "zhx"} {
				its = append(its, f.item(p, "l-"+tag, flow.StageLabel, inLanguage(tag)))
			}
			f.member(p, zhEn, store.RoleAnnotator)
			f.member(p, any, store.RoleAnnotator)
			f.member(other, any, store.RoleAnnotator)
			must(t, f.s.SetMemberLanguages(f.ctx, p.ID, zhEn.ID, []string{"en", "zh"}))
			must(t, f.s.SetMemberLanguages(f.ctx, other.ID, any.ID, []string{"fr"}))
			equalIDs(t, "zh and en", labelQueue(t, f, p, zhEn, 1, time.Now().UTC()), its[0].ID, its[1].ID, its[2].ID, its[3].ID)
			equalIDs(t, "every language", labelQueue(t, f, p, any, 1, time.Now().UTC()), idsOf(its...)...)
		})
	})
}

// reviewQueue is what the review queue offers u in p at a time, candidates and count agreeing.
func reviewQueue(t *testing.T, f *fixture, p *store.Project, u *store.User, at time.Time) []string {
	t.Helper()
	ids, err := f.s.NextReviewCandidates(f.ctx, p.ID, u.ID, 50, at)
	must(t, err)
	n, err := f.s.AvailableReviews(f.ctx, p.ID, u.ID, 50, at)
	must(t, err)
	equal(t, "available reviews", n, int64(len(ids)))
	return ids
}

func TestReviewQueue(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, a, b, rev, other := f.user("lead"), f.user("a"), f.user("b"), f.user("rev"), f.user("other")
		p := f.project(lead)
		base := time.Now().UTC().Add(-time.Hour)
		label := func(it *store.Item, u *store.User, minute int, opts ...func(*store.Assignment)) *store.Assignment {
			return f.assign(it, u, flow.StageLabel, flow.AssignSubmitted, append([]func(*store.Assignment){awaitingReview,
				submittedAt(base.Add(time.Duration(minute) * time.Minute))}, opts...)...)
		}
		its := f.items(p, "i", flow.StageReview, 7)
		late := label(its[0], a, 5)
		early := label(its[0], b, 1)                                            // a reviewer may review every label of one item
		f.assign(its[1], a, flow.StageLabel, flow.AssignSubmitted)              // no review asked
		f.assign(its[1], b, flow.StageLabel, flow.AssignActive, awaitingReview) // not submitted
		own := label(its[2], rev, 2)                                            // rev's own label
		f.worked(its[2], rev, flow.StageLabel)
		reviewed := label(its[3], a, 3) // rev reviewed it before
		f.assign(its[3], rev, flow.StageReview, flow.AssignExpired, reviewOf(reviewed))
		taken := label(its[4], a, 4) // other is reviewing it
		reviewing := f.assign(its[4], other, flow.StageReview, flow.AssignActive, reviewOf(taken))
		free := label(its[5], a, 6) // other's review lease ended
		f.assign(its[5], other, flow.StageReview, flow.AssignActive, reviewOf(free), leaseEnded)
		label(its[6], a, 7) // its item is flagged
		must(t, f.s.SetItemFlag(f.ctx, its[6].ID, store.JSON(`{"reason":"x"}`)))
		equalIDs(t, "rev's reviews, oldest submit first", reviewQueue(t, f, p, rev, time.Now().UTC()), early.ID, late.ID, free.ID)
		equalIDs(t, "other's reviews", reviewQueue(t, f, p, other, time.Now().UTC()), early.ID, own.ID, reviewed.ID, late.ID)
		equalIDs(t, "rev's reviews once other's lease ended", reviewQueue(t, f, p, rev, time.Now().UTC().Add(2*time.Hour)), early.ID, taken.ID, late.ID, free.ID)

		for _, c := range []struct {
			name          string
			label, except string
			want          bool
		}{
			{"a live lease", taken.ID, "", true},
			{"a live lease but one's own", taken.ID, reviewing.ID, false},
			{"an ended lease", free.ID, "", false},
		} {
			got, err := f.s.ReviewSlotTaken(f.ctx, c.label, c.except, time.Now().UTC())
			must(t, err)
			equal(t, "review slot taken by "+c.name, got, c.want)
		}

		// rev reviewed the first label of item 0: its second label is still rev's to review
		f.worked(its[0], rev, flow.StageReview)
		f.assign(its[0], rev, flow.StageReview, flow.AssignSubmitted, reviewOf(early))
		equalIDs(t, "rev's reviews after one", reviewQueue(t, f, p, rev, time.Now().UTC()), late.ID, free.ID)
		if err := f.s.CreateAssignment(f.ctx, &store.Assignment{ProjectID: p.ID, ItemID: its[0].ID, UserID: rev.ID,
			Stage: flow.StageReview, Status: flow.AssignActive, TargetID: &early.ID, LeaseExpiresAt: time.Now().UTC()}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a second review of one label by one person: %v, want ErrConflict", err)
		}
		if taken, err := f.s.ReviewSlotTaken(f.ctx, early.ID, "", time.Now().UTC()); err != nil || !taken {
			t.Fatalf("a submitted review holds the label's slot: %v, %v", taken, err)
		}
	})
}

func TestAdjudicationQueue(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, adj, other := f.user("lead"), f.user("adj"), f.user("other")
		p := f.project(lead)
		its := f.items(p, "a", flow.StageAdjudicate, 6)
		f.item(p, "done", flow.StageDone)
		f.worked(its[0], adj, flow.StageLabel)                                       // adj labeled it
		f.assign(its[1], adj, flow.StageAdjudicate, flow.AssignExpired)              // adj had it
		f.assign(its[2], other, flow.StageAdjudicate, flow.AssignActive)             // someone has it
		f.assign(its[3], other, flow.StageAdjudicate, flow.AssignActive, leaseEnded) // their lease ended
		must(t, f.s.SetItemFlag(f.ctx, its[4].ID, store.JSON(`{}`)))
		f.item(p, "zz-de", flow.StageAdjudicate, inLanguage("de"))
		f.member(p, adj, store.RoleAdjudicator)
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, adj.ID, []string{"en"}))

		ids, err := f.s.NextAdjudicationCandidates(f.ctx, p.ID, adj.ID, 10, time.Now().UTC())
		must(t, err)
		equalIDs(t, "adjudications", ids, its[3].ID, its[5].ID)
		n, err := f.s.AvailableAdjudications(f.ctx, p.ID, adj.ID, 10, time.Now().UTC())
		must(t, err)
		equal(t, "available adjudications", n, int64(2))
		ids, err = f.s.NextAdjudicationCandidates(f.ctx, p.ID, adj.ID, 10, time.Now().UTC().Add(2*time.Hour))
		must(t, err)
		equalIDs(t, "once the live lease ended", ids, its[2].ID, its[3].ID, its[5].ID)
	})
}

func TestFirstStage(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, u := f.user("lead"), f.user("u")
		p := f.project(lead)
		it := f.item(p, "x", flow.StageLabel)
		if st, err := f.s.WorkedStage(f.ctx, it.ID, u.ID); err != nil || st != "" {
			t.Fatalf("worked stage before any work: %q, %v", st, err)
		}
		for _, c := range []struct{ record, want flow.Stage }{
			{flow.StageReview, flow.StageReview}, {flow.StageLabel, flow.StageReview}, {flow.StageReview, flow.StageReview},
		} {
			got, err := f.s.FirstStage(f.ctx, it.ID, u.ID, c.record)
			must(t, err)
			equal(t, "first stage recording "+string(c.record), got, c.want)
		}
		st, err := f.s.WorkedStage(f.ctx, it.ID, u.ID)
		must(t, err)
		equal(t, "worked stage", st, flow.StageReview)

	})
}

func TestClaimItem(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		claim := func(t *testing.T, f *fixture, it *store.Item, u *store.User, slots int) (*store.Assignment, bool, error) {
			a := &store.Assignment{ProjectID: it.ProjectID, ItemID: it.ID, UserID: u.ID, Stage: flow.StageLabel,
				Status: flow.AssignActive, LeaseExpiresAt: time.Now().UTC().Add(time.Hour)}
			var ok bool
			err := f.s.WithTx(f.ctx, func(tx *store.Store) error {
				if _, err := tx.ItemForUpdate(f.ctx, it.ID); err != nil {
					return err
				}
				var err error
				ok, err = tx.ClaimItem(f.ctx, store.NewClaim{Assignment: a, Slots: slots, At: time.Now().UTC(),
					Event: store.Event{ProjectID: it.ProjectID, ActorID: u.ID, Action: "assignment.claim", Target: "item:" + it.ID}})
				return err
			})
			return a, ok, err
		}
		// written reports what of a claim is in the database: its assignment, the person's
		// first stage on the item and the claim's audit event.
		written := func(t *testing.T, f *fixture, a *store.Assignment) (assignment bool, first flow.Stage, events int) {
			_, err := f.s.Assignment(f.ctx, a.ID)
			first, werr := f.s.WorkedStage(f.ctx, a.ItemID, a.UserID)
			must(t, werr)
			return err == nil, first, f.countRows("audit_events", "actor_id = "+f.ph(1)+" AND action = 'assignment.claim'", a.UserID)
		}
		f.run("a free slot is claimed with its first stage and audit event", func(t *testing.T, f *fixture) {
			lead, u := f.user("lead"), f.user("u")
			it := f.item(f.project(lead), "x", flow.StageLabel)
			a, ok, err := claim(t, f, it, u, 1)
			if err != nil || !ok {
				t.Fatalf("claim: %v, %v", ok, err)
			}
			got, first, events := written(t, f, a)
			if !got || first != flow.StageLabel || events != 1 {
				t.Fatalf("claim wrote assignment %v, first stage %q, %d events", got, first, events)
			}
			assertStatus(t, f.ctx, f.s, a.ID, flow.AssignActive)
			if _, _, err := claim(t, f, it, u, 2); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("the same person claiming the item again: %v, want ErrConflict", err)
			}
		})
		f.run("no free slot: nothing written", func(t *testing.T, f *fixture) {
			lead, u, o := f.user("lead"), f.user("u"), f.user("o")
			it := f.item(f.project(lead), "x", flow.StageLabel)
			f.assign(it, o, flow.StageLabel, flow.AssignActive)
			a, ok, err := claim(t, f, it, u, 1)
			if err != nil || ok {
				t.Fatalf("claim of a full item: %v, %v", ok, err)
			}
			if got, first, events := written(t, f, a); got || first != "" || events != 0 {
				t.Fatalf("a refused claim wrote assignment %v, first stage %q, %d events", got, first, events)
			}
		})
		f.run("worked in another stage: nothing written", func(t *testing.T, f *fixture) {
			lead, u := f.user("lead"), f.user("u")
			it := f.item(f.project(lead), "x", flow.StageLabel)
			f.worked(it, u, flow.StageReview)
			a, ok, err := claim(t, f, it, u, 3)
			if err != nil || ok {
				t.Fatalf("claim by a reviewer of the item: %v, %v", ok, err)
			}
			if got, first, events := written(t, f, a); got || first != flow.StageReview || events != 0 {
				t.Fatalf("a refused claim wrote assignment %v, first stage %q, %d events", got, first, events)
			}
		})
	})
}

// TestFirstStageUnderConcurrency: two transactions that record different first stages for one
// person and item meet on the key: the second waits for the first, then sees its stage.
func TestFirstStageUnderConcurrency(t *testing.T) {
	f := &fixture{t: t, ctx: context.Background(), s: sharedStore(t, "postgres")}
	lead, u := f.user("lead"), f.user("u")
	it := f.item(f.project(lead), "x", flow.StageLabel)
	tx, err := f.s.SQL().BeginTx(f.ctx, nil)
	must(t, err)
	defer tx.Rollback()
	if _, err := tx.ExecContext(f.ctx, `INSERT INTO item_people (item_id, user_id, stage, created_at) VALUES ($1, $2, 'label', now())`, it.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	type result struct {
		stage flow.Stage
		err   error
	}
	done := make(chan result, 1)
	go func() {
		st, err := f.s.FirstStage(f.ctx, it.ID, u.ID, flow.StageReview)
		done <- result{st, err}
	}()
	waitForLockWait(t, f.ctx, f.s.SQL())
	must(t, tx.Commit())
	r := <-done
	if r.err != nil || r.stage != flow.StageLabel {
		t.Fatalf("the second stage recorded: %q, %v; want the first's, label", r.stage, r.err)
	}
}

// TestMayWork: the rules of who may work an item, checked for one person and one piece of work,
// name the first rule they break, the same rules the queues apply.
func TestMayWork(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, labeler, reviewer, fresh := f.user("lead"), f.user("labeler"), f.user("reviewer"), f.user("fresh")
		p := f.project(lead)
		it := f.item(p, "x", flow.StageLabel)
		fr := f.item(p, "fr", flow.StageLabel)
		must(t, f.s.UpdateItemContent(f.ctx, fr.ID, fr.Inputs, fr.Meta, "fr"))
		must(t, f.s.SetMember(f.ctx, p.ID, fresh.ID, store.RoleSet{store.RoleAnnotator, store.RoleReviewer}))
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, fresh.ID, []string{"de"}))
		label := f.assign(it, labeler, flow.StageLabel, flow.AssignSubmitted)
		_, err := f.s.FirstStage(f.ctx, it.ID, labeler.ID, flow.StageLabel)
		must(t, err)
		f.assign(it, reviewer, flow.StageReview, flow.AssignExpired, reviewOf(label))
		_, err = f.s.FirstStage(f.ctx, it.ID, reviewer.ID, flow.StageReview)
		must(t, err)
		for _, c := range []struct {
			name   string
			stage  flow.Stage
			work   string
			user   string
			broken store.WorkRule
		}{
			{"a fresh person labels", flow.StageLabel, it.ID, fresh.ID, ""},
			{"nobody labels twice", flow.StageLabel, it.ID, labeler.ID, store.RuleNeverTwice},
			{"a reviewer does not label", flow.StageLabel, it.ID, reviewer.ID, store.RuleOneRole},
			{"the labeler does not review", flow.StageReview, label.ID, labeler.ID, store.RuleOneRole},
			{"nobody reviews a label twice", flow.StageReview, label.ID, reviewer.ID, store.RuleNeverTwice},
			{"a fresh person reviews", flow.StageReview, label.ID, fresh.ID, ""},
			{"a reviewer does not adjudicate", flow.StageAdjudicate, it.ID, reviewer.ID, store.RuleOneRole},
			{"nobody is given an item in a language they do not read", flow.StageLabel, fr.ID, fresh.ID, store.RuleLanguage},
			{"anyone else reads it", flow.StageLabel, fr.ID, labeler.ID, ""},
		} {
			got, err := f.s.MayWork(f.ctx, c.stage, c.work, c.user, store.Allowed{})
			must(t, err)
			equal(t, c.name, got, c.broken)
		}
		if _, err := f.s.MayWork(f.ctx, flow.StageLabel, "missing", fresh.ID, store.Allowed{}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing work: %v", err)
		}
	})
}

// TestCriterionAuthorRule: the author of the criterion a unit was made from worked the unit in
// the criteria stage: the queue, the hand-off check and stuck work give them none of its work,
// unless the project lets authors label their own criteria's units, and then only its labels.
func TestCriterionAuthorRule(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, author, other := f.user("lead"), f.user("author"), f.user("other")
		p := f.project(lead)
		f.member(p, author, store.RoleAnnotator, store.RoleReviewer, store.RoleAdjudicator)
		parent := f.item(p, "parent", flow.StageSplit)
		f.worked(parent, author, flow.StageCriteria)
		unit := f.item(p, "parent#criterion", flow.StageLabel, func(it *store.Item) { it.ParentID = &parent.ID })
		c := &store.Criterion{ProjectID: p.ID, ItemID: parent.ID, AssignmentID: "a", AuthorID: author.ID, Text: "calm", Status: flow.CriterionValid, ChildItemID: &unit.ID}
		must(t, f.s.CreateCriterion(f.ctx, c))
		label := f.assign(unit, other, flow.StageLabel, flow.AssignSubmitted, awaitingReview)
		f.worked(unit, other, flow.StageLabel)
		at := time.Now().UTC()
		for _, allowed := range []store.Allowed{{}, {AuthorsLabel: true}} {
			var labels store.WorkRule
			if !allowed.AuthorsLabel {
				labels = store.RuleOneRole
			}
			for _, c := range []struct {
				stage flow.Stage
				work  string
				want  store.WorkRule
			}{
				{flow.StageLabel, unit.ID, labels},
				{flow.StageReview, label.ID, store.RuleOneRole},
				{flow.StageAdjudicate, unit.ID, store.RuleOneRole},
			} {
				got, err := f.s.MayWork(f.ctx, c.stage, c.work, author.ID, allowed)
				must(t, err)
				equal(t, fmt.Sprintf("%s with %+v", c.stage, allowed), got, c.want)
			}
			ids, err := f.s.NextItemCandidates(f.ctx, p.ID, author.ID, flow.StageLabel, 3, 10, at, allowed)
			must(t, err)
			n, stuck, err := f.s.StuckWork(f.ctx, p.ID, flow.StageLabel, string(store.RoleAnnotator), 10, allowed)
			must(t, err)
			if allowed.AuthorsLabel {
				equalIDs(t, "the author's label queue", ids, unit.ID)
				equal(t, "stuck labels", n, int64(0))
			} else {
				equalIDs(t, "the author's label queue", ids)
				equal(t, "stuck labels", n, int64(1))
				equalIDs(t, "stuck units", stuck, unit.ID)
			}
		}
		reviews, err := f.s.NextReviewCandidates(f.ctx, p.ID, author.ID, 10, at)
		must(t, err)
		equalIDs(t, "the author's review queue", reviews)
	})
}
