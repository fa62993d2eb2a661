package projects

import (
	"context"
	"encoding/json"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// FamilyKey is the metadata key that ties a D3-Omni seed to its perturbed negatives; each
// member's meta says whether it is the seed (is_seed), the dimensions its perturbation flips
// (flip_set) and the operator that made it (operator).
const FamilyKey = store.SeedKey

// familyCap bounds the members listed (a seed has about one negative per dimension).
const familyCap = 200

// ItemFamily is the seed family an item belongs to.
type ItemFamily struct {
	SeedID    string         `json:"seed_id"`
	Members   []FamilyMember `json:"members"`
	Truncated bool           `json:"truncated"`
}

// FamilyMember is one item of a seed family.
type FamilyMember struct {
	ID         string     `json:"id"`
	ExternalID string     `json:"external_id"`
	Stage      flow.Stage `json:"stage"`
	IsSeed     bool       `json:"is_seed"`
	FlipSet    []string   `json:"flip_set"`
	Operator   string     `json:"operator,omitempty"`
}

// itemFamily lists the family of an item whose metadata names a seed (nil otherwise): the
// seed first, then its negatives in external id order.
func (s *Service) itemFamily(ctx context.Context, it *store.Item) (*ItemFamily, error) {
	seed := workflow.MetaStrings(it.Meta)[FamilyKey]
	if seed == "" {
		return nil, nil
	}
	rows, err := s.store.SeedFamily(ctx, it.ProjectID, seed, familyCap+1)
	if err != nil {
		return nil, err
	}
	f := &ItemFamily{SeedID: seed, Members: []FamilyMember{}, Truncated: len(rows) > familyCap}
	for _, r := range rows[:min(len(rows), familyCap)] {
		var m struct {
			IsSeed   bool     `json:"is_seed"`
			FlipSet  []string `json:"flip_set"`
			Operator string   `json:"operator"`
		}
		json.Unmarshal(r.Meta, &m)
		if m.FlipSet == nil {
			m.FlipSet = []string{}
		}
		mem := FamilyMember{ID: r.ID, ExternalID: r.ExternalID, Stage: r.Stage, IsSeed: m.IsSeed, FlipSet: m.FlipSet, Operator: m.Operator}
		if mem.IsSeed {
			f.Members = append([]FamilyMember{mem}, f.Members...)
		} else {
			f.Members = append(f.Members, mem)
		}
	}
	return f, nil
}
