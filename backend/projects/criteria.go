package projects

import (
	"context"
	"encoding/json"
	"hash/fnv"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// CriteriaPage is a list of criteria with the items they were written for.
type CriteriaPage struct {
	Items []workflow.CriterionView `json:"items"`
	// Inputs holds each listed criterion's item, by item id, as the caller's role sees it in the
	// criteria-authoring form: a reviewer reads the prompt and media the authors read.
	Inputs map[string]tasks.View `json:"inputs"`
}

// CriteriaWithItems lists criteria like Criteria, with their items as role sees them in the
// project's criteria form. A project without a schema or a criteria form lists the criteria alone.
func (s *Service) CriteriaWithItems(ctx context.Context, projectID string, fp *workflow.Project, role tasks.Role, status flow.CriterionStatus, itemID string) (*CriteriaPage, error) {
	cs, err := s.Criteria(ctx, projectID, status, itemID)
	if err != nil {
		return nil, err
	}
	page := &CriteriaPage{Items: cs, Inputs: map[string]tasks.View{}}
	if fp == nil || fp.Policy.CriteriaStage == nil {
		return page, nil
	}
	form := fp.StageSchema(flow.StageCriteria)
	for _, c := range cs {
		if _, done := page.Inputs[c.ItemID]; done {
			continue
		}
		v, err := s.criterionItemView(ctx, projectID, form, role, c.ItemID)
		if err != nil {
			return nil, err
		}
		page.Inputs[c.ItemID] = v
	}
	return page, nil
}

// criterionItemView is what role sees of an item in the criteria form, candidates in an order
// fixed by the item.
func (s *Service) criterionItemView(ctx context.Context, projectID string, form *tasks.Schema, role tasks.Role, itemID string) (tasks.View, error) {
	it, err := s.store.Item(ctx, projectID, itemID)
	if err != nil {
		return tasks.View{}, err
	}
	item := tasks.Item{ExternalID: it.ExternalID}
	if err := json.Unmarshal(it.Inputs, &item.Inputs); err != nil {
		return tasks.View{}, err
	}
	if len(it.Meta) > 0 {
		if err := json.Unmarshal(it.Meta, &item.Meta); err != nil {
			return tasks.View{}, err
		}
	}
	h := fnv.New64a()
	h.Write([]byte(it.ID))
	return form.ViewFor(role, item, h.Sum64())
}
