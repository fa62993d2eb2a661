package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/workflow/flow"
)

// Criterion is one free-form criterion written for an item.
type Criterion struct {
	ID           string               `gorm:"primaryKey" json:"id"`
	ProjectID    string               `json:"project_id"`
	ItemID       string               `json:"item_id"`
	AssignmentID string               `json:"assignment_id"`
	AuthorID     string               `json:"author_id"`
	Text         string               `json:"text"`
	Status       flow.CriterionStatus `json:"status"`
	ReviewedBy   *string              `json:"reviewed_by,omitempty"`
	ChildItemID  *string              `json:"child_item_id,omitempty"`
	CreatedAt    time.Time            `json:"created_at"`
	UpdatedAt    time.Time            `json:"updated_at"`
}

// TableName names the criteria table.
func (Criterion) TableName() string { return "criteria" }

// CreateCriterion stores a criterion.
func (s *Store) CreateCriterion(ctx context.Context, c *Criterion) error {
	c.ID = newID()
	c.CreatedAt, c.UpdatedAt = now(), now()
	return translate(s.db.WithContext(ctx).Create(c).Error)
}

// CriterionForUpdate returns a criterion of a project, locked.
func (s *Store) CriterionForUpdate(ctx context.Context, projectID, id string) (*Criterion, error) {
	var c Criterion
	q := s.db.WithContext(ctx).Where("project_id = ? AND id = ?", projectID, id)
	if s.dialect == Postgres {
		q = q.Clauses(lockingUpdate())
	}
	return &c, translate(q.Take(&c).Error)
}

// SaveCriterion writes a criterion.
func (s *Store) SaveCriterion(ctx context.Context, c *Criterion) error {
	c.UpdatedAt = now()
	return translate(s.db.WithContext(ctx).Save(c).Error)
}

// Criteria lists a project's criteria, optionally of one status or item, oldest first.
func (s *Store) Criteria(ctx context.Context, projectID string, status flow.CriterionStatus, itemID string, limit int) ([]Criterion, error) {
	q := s.db.WithContext(ctx).Where("project_id = ?", projectID).Order("created_at, id").Limit(limit)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	if itemID != "" {
		q = q.Where("item_id = ?", itemID)
	}
	var cs []Criterion
	return cs, translate(q.Find(&cs).Error)
}
