package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// Criterion is one free-form criterion written for an item.
type Criterion struct {
	ID           string `gorm:"primaryKey"`
	ProjectID    string
	ItemID       string
	AssignmentID string
	AuthorID     string
	Text         string
	Status       flow.CriterionStatus
	ReviewedBy   *string
	ChildItemID  *string
	// DuplicateOf is the criterion of the same item this one repeats (status duplicate).
	DuplicateOf *string
	CreatedAt   time.Time
	UpdatedAt   time.Time
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

// CriteriaCount is the number of a project's criteria by one author with one status.
type CriteriaCount struct {
	AuthorID    string
	Name, Email string
	Status      flow.CriterionStatus
	N           int64
}

// CriteriaCounts counts a project's criteria per author (with the author's name) and status.
func (s *Store) CriteriaCounts(ctx context.Context, projectID string) ([]CriteriaCount, error) {
	var out []CriteriaCount
	err := s.db.WithContext(ctx).Raw(`SELECT c.author_id, COALESCE(u.name, '') AS name, COALESCE(u.email, '') AS email, c.status, COUNT(*) AS n
FROM criteria c LEFT JOIN users u ON u.id = c.author_id WHERE c.project_id = ?
GROUP BY c.author_id, u.name, u.email, c.status ORDER BY u.email, c.author_id, c.status`, projectID).Scan(&out).Error
	return out, translate(err)
}

// CriteriaItems counts a project's items with criteria, and the submitted criteria
// assignments behind them.
func (s *Store) CriteriaItems(ctx context.Context, projectID string) (items, authorships int64, err error) {
	var row struct{ Items, Authorships int64 }
	err = s.db.WithContext(ctx).Raw(`SELECT COUNT(DISTINCT item_id) AS items, COUNT(*) AS authorships FROM assignments
WHERE project_id = ? AND stage = 'criteria' AND status = 'submitted'`, projectID).Scan(&row).Error
	return row.Items, row.Authorships, translate(err)
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
