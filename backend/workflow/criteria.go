package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// collectCriteria stores the criteria an annotator wrote. Once the stage's overlap of authors
// have written, the item waits for the review of their criteria.
func (u *submission) collectCriteria(ctx context.Context, it *store.Item, answers tasks.Answers) (flow.Stage, error) {
	a, p, tx := u.a, u.p, u.tx
	var texts []string
	if raw, ok := answers[p.Policy.CriteriaStage.Question]; ok {
		if err := json.Unmarshal(raw, &texts); err != nil {
			return "", err
		}
	}
	for _, t := range texts {
		c := &store.Criterion{ProjectID: p.ID, ItemID: a.ItemID, AssignmentID: a.ID, AuthorID: a.UserID,
			Text: strings.TrimSpace(t), Status: flow.CriterionPending}
		if err := tx.CreateCriterion(ctx, c); err != nil {
			return "", err
		}
	}
	as, err := tx.ItemAssignments(ctx, a.ItemID, flow.StageCriteria)
	if err != nil {
		return "", err
	}
	authors := 0
	for _, w := range as {
		if w.Status == flow.AssignSubmitted {
			authors++
		}
	}
	if authors < p.slots(flow.StageCriteria) {
		return flow.StageCriteria, nil
	}
	if err := u.s.moveItem(ctx, tx, p, it, flow.StageCriteriaReview, nil); err != nil {
		return "", err
	}
	// note: a reviewer may have marked every criterion written so far while others still wrote
	return flow.StageCriteriaReview, u.s.closeCriteria(ctx, tx, p, it)
}

// CriterionVerdict is a reviewer's mark on a criterion; DuplicateOf names the criterion of the
// same item that a duplicate repeats.
type CriterionVerdict struct {
	Status      flow.CriterionStatus `json:"status"`
	DuplicateOf string               `json:"duplicate_of,omitempty"`
}

// ReviewCriterion marks a criterion. A valid one becomes a child unit (the item with the
// criterion as an input) that enters labeling; a duplicate of another criterion of the item
// (another author's) makes none. When every criterion of an item is marked and every author
// has written, the item is split, or dropped if none was valid.
func (s *Service) ReviewCriterion(ctx context.Context, p *Project, actorID, criterionID string, in CriterionVerdict) (*CriterionView, error) {
	verdict := in.Status
	if !verdict.IsVerdict() {
		return nil, tasks.Field("status", "invalid_value", "status must be one of %v", flow.CriterionVerdicts)
	}
	if (verdict == flow.CriterionDuplicate) != (in.DuplicateOf != "") {
		return nil, tasks.Field("duplicate_of", "invalid_value", "a duplicate names the criterion it repeats in duplicate_of, and only a duplicate does")
	}
	var out *store.Criterion
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		c, err := tx.CriterionForUpdate(ctx, p.ID, criterionID)
		if err != nil {
			return store.Missing(err, "criterion")
		}
		if c.AuthorID == actorID {
			return ErrOwnWork
		}
		if c.Status != flow.CriterionPending {
			return ErrAlreadyDone
		}
		c.Status, c.ReviewedBy = verdict, &actorID
		if verdict == flow.CriterionDuplicate {
			if err := checkDuplicate(ctx, tx, p, c, in.DuplicateOf); err != nil {
				return err
			}
			c.DuplicateOf = &in.DuplicateOf
		}
		if verdict == flow.CriterionValid {
			child, err := s.childUnit(ctx, tx, p, c)
			if err != nil {
				return err
			}
			c.ChildItemID = &child.ID
		}
		if err := tx.SaveCriterion(ctx, c); err != nil {
			return err
		}
		out = c
		if err := tx.Audit(ctx, p.ID, actorID, "criterion.review", "criterion:"+c.ID, nil, map[string]any{"status": verdict}); err != nil {
			return err
		}
		it, err := tx.ItemForUpdate(ctx, c.ItemID)
		if err != nil {
			return err
		}
		return s.closeCriteria(ctx, tx, p, it)
	})
	if err != nil {
		return nil, err
	}
	v := criterionView(out)
	return &v, nil
}

// CriterionView is a criterion as leads and reviewers see it.
type CriterionView struct {
	ID           string               `json:"id"`
	ProjectID    string               `json:"project_id"`
	ItemID       string               `json:"item_id"`
	AssignmentID string               `json:"assignment_id"`
	AuthorID     string               `json:"author_id"`
	Text         string               `json:"text"`
	Status       flow.CriterionStatus `json:"status"`
	ReviewedBy   *string              `json:"reviewed_by,omitempty"`
	ChildItemID  *string              `json:"child_item_id,omitempty"`
	// DuplicateOf is the criterion of the same item this one repeats (status duplicate).
	DuplicateOf *string   `json:"duplicate_of,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func criterionView(c *store.Criterion) CriterionView {
	return CriterionView{ID: c.ID, ProjectID: c.ProjectID, ItemID: c.ItemID, AssignmentID: c.AssignmentID, AuthorID: c.AuthorID,
		Text: c.Text, Status: c.Status, ReviewedBy: c.ReviewedBy, ChildItemID: c.ChildItemID, DuplicateOf: c.DuplicateOf,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// CriterionViews are the views of criteria (nil for nil).
func CriterionViews(cs []store.Criterion) []CriterionView {
	if cs == nil {
		return nil
	}
	out := make([]CriterionView, len(cs))
	for i := range cs {
		out[i] = criterionView(&cs[i])
	}
	return out
}

// childUnit creates the item × criterion unit.
func (s *Service) childUnit(ctx context.Context, tx *store.Store, p *Project, c *store.Criterion) (*store.Item, error) {
	parent, err := tx.ItemForUpdate(ctx, c.ItemID)
	if err != nil {
		return nil, err
	}
	var inputs map[string]json.RawMessage
	if err := json.Unmarshal(parent.Inputs, &inputs); err != nil {
		return nil, err
	}
	inputs[p.Policy.CriteriaStage.InputName] = mustJSON(c.Text)
	child := &store.Item{ProjectID: p.ID, ExternalID: fmt.Sprintf("%s#criterion-%s", parent.ExternalID, c.ID),
		ParentID: &parent.ID, Inputs: Encode(inputs), Meta: parent.Meta, Language: parent.Language, Stage: flow.StageLabel}
	// note: the rules of who may work an item read the criterion's author from the criteria
	// (store.RuleOneRole), so the unit has nobody on it yet
	_, err = tx.UpsertItem(ctx, child)
	return child, err
}

// Allowed is what the project's policy lets through the rules of who may work an item: with
// criteria_stage.authors_label, a criterion's author labels the unit made from it.
func (p *Project) Allowed() store.Allowed { return AllowedBy(p.Policy) }

// AllowedBy is what a policy lets through the rules of who may work an item.
func AllowedBy(pol Policy) store.Allowed {
	c := pol.CriteriaStage
	return store.Allowed{AuthorsLabel: c != nil && c.AuthorsLabel}
}

// checkDuplicate requires the original of a duplicate to be another criterion of the same item
// that is not itself a duplicate.
func checkDuplicate(ctx context.Context, tx *store.Store, p *Project, c *store.Criterion, originalID string) error {
	orig, err := tx.CriterionForUpdate(ctx, p.ID, originalID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return tasks.Field("duplicate_of", "not_found", "no criterion %s in this project", originalID)
	case err != nil:
		return err
	case orig.ID == c.ID || orig.ItemID != c.ItemID:
		return tasks.Field("duplicate_of", "invalid_value", "a duplicate repeats another criterion of the same item")
	case orig.Status == flow.CriterionDuplicate:
		return tasks.Field("duplicate_of", "invalid_value", "that criterion is itself a duplicate; name the one it repeats")
	}
	return nil
}

// closeCriteria splits or drops an item once every author has written and all its criteria are
// marked.
func (s *Service) closeCriteria(ctx context.Context, tx *store.Store, p *Project, it *store.Item) error {
	cs, err := tx.Criteria(ctx, p.ID, "", it.ID, 1000)
	if err != nil {
		return err
	}
	valid := 0
	for _, c := range cs {
		if c.Status == flow.CriterionPending {
			return nil
		}
		if c.Status == flow.CriterionValid {
			valid++
		}
	}
	if it.Stage != flow.StageCriteriaReview {
		return nil // note: more authors are still writing
	}
	if valid == 0 {
		reason := "no valid criteria"
		return s.moveItem(ctx, tx, p, it, flow.StageDropped, &reason)
	}
	return s.moveItem(ctx, tx, p, it, flow.StageSplit, nil)
}
