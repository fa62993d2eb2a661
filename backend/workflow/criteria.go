package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow/flow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// collectCriteria stores the criteria an annotator wrote; the item waits for their review.
func (s *Service) collectCriteria(ctx context.Context, tx *store.Store, p *Project, a *store.Assignment, answers tasks.Answers) (flow.Stage, error) {
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
	it, err := tx.ItemForUpdate(ctx, a.ItemID)
	if err != nil {
		return "", err
	}
	return flow.StageCriteriaReview, s.moveItem(ctx, tx, p, it, flow.StageCriteriaReview, nil)
}

// ReviewCriterion marks a criterion. A valid one becomes a child unit (the item with the
// criterion as an input) that enters labeling. When every criterion of an item is marked,
// the item is split, or dropped if none was valid.
func (s *Service) ReviewCriterion(ctx context.Context, p *Project, actorID, criterionID string, verdict flow.CriterionStatus) (*store.Criterion, error) {
	if !verdict.IsVerdict() {
		return nil, tasks.Field("status", "invalid_value", "status must be one of %v", flow.CriterionVerdicts)
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
		return s.closeCriteria(ctx, tx, p, c.ItemID)
	})
	return out, err
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
		ParentID: &parent.ID, Inputs: encode(inputs), Meta: parent.Meta, Stage: flow.StageLabel}
	if _, err = tx.UpsertItem(ctx, child); err != nil {
		return nil, err
	}
	// note: the author worked the child in the criteria stage, so it is never queued to them
	_, err = tx.FirstStage(ctx, child.ID, c.AuthorID, flow.StageCriteria)
	return child, err
}

// closeCriteria splits or drops an item once all its criteria are marked.
func (s *Service) closeCriteria(ctx context.Context, tx *store.Store, p *Project, itemID string) error {
	cs, err := tx.Criteria(ctx, p.ID, "", itemID, 1000)
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
	it, err := tx.ItemForUpdate(ctx, itemID)
	if err != nil {
		return err
	}
	if valid == 0 {
		reason := "no valid criteria"
		return s.moveItem(ctx, tx, p, it, flow.StageDropped, &reason)
	}
	return s.moveItem(ctx, tx, p, it, flow.StageSplit, nil)
}
