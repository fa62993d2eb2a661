package store_test

import (
	"cmp"
	"errors"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestCriteria(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann := f.user("lead"), f.user("ann")
		p, other := f.project(lead), f.project(lead)
		its := f.items(p, "i", flow.StageCriteriaReview, 2)
		a := f.assign(its[0], ann, flow.StageCriteria, flow.AssignSubmitted)
		f.assign(its[1], ann, flow.StageCriteria, flow.AssignSubmitted)
		f.assign(its[0], lead, flow.StageCriteria, flow.AssignActive)
		criterion := func(it *store.Item, author, text string) *store.Criterion {
			c := &store.Criterion{ProjectID: p.ID, ItemID: it.ID, AssignmentID: a.ID, AuthorID: author, Text: text, Status: flow.CriterionPending}
			must(t, f.s.CreateCriterion(f.ctx, c))
			return c
		}
		c1, c2 := criterion(its[0], ann.ID, "is polite"), criterion(its[0], ann.ID, "is polite.")
		c3 := criterion(its[1], "gone", "cites sources") // an author who is no longer a user

		err := f.s.WithTx(f.ctx, func(tx *store.Store) error {
			c, err := tx.CriterionForUpdate(f.ctx, p.ID, c2.ID)
			if err != nil {
				return err
			}
			c.Status, c.DuplicateOf, c.ReviewedBy = flow.CriterionDuplicate, &c1.ID, &lead.ID
			return tx.SaveCriterion(f.ctx, c)
		})
		must(t, err)
		if _, err := f.s.CriterionForUpdate(f.ctx, other.ID, c1.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a criterion of another project: %v, want ErrNotFound", err)
		}
		critIDs := func(status flow.CriterionStatus, itemID string, limit int) []string {
			t.Helper()
			cs, err := f.s.Criteria(f.ctx, p.ID, status, itemID, limit)
			must(t, err)
			var ids []string
			for _, c := range cs {
				ids = append(ids, c.ID)
			}
			return ids
		}
		equalIDs(t, "all criteria, oldest first", critIDs("", "", 10), c1.ID, c2.ID, c3.ID)
		equalIDs(t, "first two", critIDs("", "", 2), c1.ID, c2.ID)
		equalIDs(t, "pending", critIDs(flow.CriterionPending, "", 10), c1.ID, c3.ID)
		equalIDs(t, "of the first item", critIDs("", its[0].ID, 10), c1.ID, c2.ID)
		dup, err := f.s.Criteria(f.ctx, p.ID, flow.CriterionDuplicate, "", 1)
		must(t, err)
		if *dup[0].DuplicateOf != c1.ID || *dup[0].ReviewedBy != lead.ID {
			t.Fatalf("saved duplicate %+v", dup[0])
		}

		counts, err := f.s.CriteriaCounts(f.ctx, p.ID)
		must(t, err)
		// note: the order of an author without a user row differs by engine (NULL emails)
		slices.SortFunc(counts, func(a, b store.CriteriaCount) int {
			return cmp.Or(cmp.Compare(a.Email, b.Email), cmp.Compare(a.Status, b.Status))
		})
		want := []store.CriteriaCount{
			{AuthorID: "gone", Status: flow.CriterionPending, N: 1},
			{AuthorID: ann.ID, Name: "ann", Email: ann.Email, Status: flow.CriterionDuplicate, N: 1},
			{AuthorID: ann.ID, Name: "ann", Email: ann.Email, Status: flow.CriterionPending, N: 1},
		}
		equal(t, "criteria counts", counts, want)
		items, authorships, err := f.s.CriteriaItems(f.ctx, p.ID)
		must(t, err)
		if items != 2 || authorships != 2 {
			t.Fatalf("criteria items %d, authorships %d", items, authorships)
		}
		statuses, err := f.s.CriteriaStatusCounts(f.ctx, p.ID)
		must(t, err)
		equal(t, "status counts", statuses, []store.CountRow{{Value: "duplicate", Count: 1}, {Value: "pending", Count: 2}})
	})
}
