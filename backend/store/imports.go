package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// Import is a background import of an NDJSON file.
type Import struct {
	ID         string `gorm:"primaryKey"`
	ProjectID  string
	Kind       flow.ImportKind
	Filename   string
	Status     flow.ImportStatus
	BlobKey    string
	BytesTotal int64
	BytesDone  int64
	LinesDone  int64
	Report     JSON
	Error      *string
	CreatedBy  string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// CreateImport records a queued import.
func (s *Store) CreateImport(ctx context.Context, im *Import) error {
	if im.ID == "" {
		im.ID = newID()
	}
	im.CreatedAt, im.UpdatedAt = now(), now()
	return translate(s.db.WithContext(ctx).Create(im).Error)
}

// Import returns an import of a project (any project when projectID is empty).
func (s *Store) Import(ctx context.Context, projectID, id string) (*Import, error) {
	var im Import
	q := s.db.WithContext(ctx).Where("id = ?", id)
	if projectID != "" {
		q = q.Where("project_id = ?", projectID)
	}
	return &im, translate(q.Take(&im).Error)
}

// Imports lists a project's recent imports, newest first.
func (s *Store) Imports(ctx context.Context, projectID string, limit int) ([]Import, error) {
	var ims []Import
	err := s.db.WithContext(ctx).Where("project_id = ?", projectID).Order("created_at DESC").Limit(limit).Find(&ims).Error
	return ims, translate(err)
}

// UnfinishedImports counts a project's background imports that are queued or running.
func (s *Store) UnfinishedImports(ctx context.Context, projectID string) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&Import{}).
		Where("project_id = ? AND status IN ?", projectID, []flow.ImportStatus{flow.ImportQueued, flow.ImportRunning}).Count(&n).Error
	return n, translate(err)
}

// UpdateImport writes an import's progress, status, report and error.
func (s *Store) UpdateImport(ctx context.Context, im *Import) error {
	im.UpdatedAt = now()
	return translate(s.db.WithContext(ctx).Model(im).
		Select("status", "bytes_done", "lines_done", "report", "error", "updated_at").Updates(im).Error)
}
