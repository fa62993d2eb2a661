package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// Import is a background import of an NDJSON file.
type Import struct {
	ID         string            `gorm:"primaryKey" json:"id"`
	ProjectID  string            `json:"project_id"`
	Kind       flow.ImportKind   `json:"kind"`
	Filename   string            `json:"filename"`
	Status     flow.ImportStatus `json:"status"`
	BlobKey    string            `json:"-"`
	BytesTotal int64             `json:"bytes_total"`
	BytesDone  int64             `json:"bytes_done"`
	LinesDone  int64             `json:"lines_done"`
	Report     JSON              `json:"report,omitempty"`
	Error      *string           `json:"error,omitempty"`
	CreatedBy  string            `json:"created_by"`
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
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

// UpdateImport writes an import's progress, status, report and error.
func (s *Store) UpdateImport(ctx context.Context, im *Import) error {
	im.UpdatedAt = now()
	return translate(s.db.WithContext(ctx).Model(im).
		Select("status", "bytes_done", "lines_done", "report", "error", "updated_at").Updates(im).Error)
}
