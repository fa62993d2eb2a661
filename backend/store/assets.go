package store

import (
	"context"

	"time"

	"github.com/google/uuid"
)

// Asset is a media file uploaded to a project; its bytes live in the blob store.
type Asset struct {
	ID          string `gorm:"primaryKey"`
	ProjectID   string
	BlobKey     string
	Filename    string
	ContentType string
	Bytes       int64
	SHA256      string `gorm:"column:sha256"`
	CreatedBy   string
	CreatedAt   time.Time
}

// CreateAsset records an uploaded asset.
func (s *Store) CreateAsset(ctx context.Context, a *Asset) error {
	if a.ID == "" {
		a.ID = newID()
	}
	return translate(s.db.WithContext(ctx).Create(a).Error)
}

// Asset returns an asset by id.
func (s *Store) Asset(ctx context.Context, id string) (*Asset, error) {
	var a Asset
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&a).Error
	return &a, translate(err)
}

// NewAssetID returns an id for an asset whose bytes are stored before its row. Asset ids are
// random, not time-ordered: they reach annotators' browsers, and ids that sort by upload time
// would give back the stored order of the candidates a pairwise view shuffles.
func NewAssetID() string { return uuid.NewString() }

// NewImportID returns an id for a background import whose file is stored before its row.
func NewImportID() string { return newID() }

// AssetBySHA256 returns an asset of the project with these bytes, if one was uploaded.
func (s *Store) AssetBySHA256(ctx context.Context, projectID, sha string) (*Asset, error) {
	var a Asset
	err := s.db.WithContext(ctx).Where("project_id = ? AND sha256 = ?", projectID, sha).Order("created_at").Take(&a).Error
	return &a, translate(err)
}

// AssetKeys lists the blob keys of a project's assets.
func (s *Store) AssetKeys(ctx context.Context, projectID string) ([]string, error) {
	var keys []string
	err := s.db.WithContext(ctx).Model(&Asset{}).Where("project_id = ?", projectID).Pluck("blob_key", &keys).Error
	return keys, translate(err)
}

// StorageUse is what a project holds in the blob store: its assets and its releases' files
// (those written so far by running releases).
type StorageUse struct {
	Assets   int64
	Releases int64
}

// Total is every byte the project holds.
func (u StorageUse) Total() int64 { return u.Assets + u.Releases }

// StorageUsed is the bytes of a project's assets and releases.
func (s *Store) StorageUsed(ctx context.Context, projectID string) (StorageUse, error) {
	var u StorageUse
	err := s.db.WithContext(ctx).Model(&Asset{}).Where("project_id = ?", projectID).Select("COALESCE(SUM(bytes), 0)").Scan(&u.Assets).Error
	if err != nil {
		return u, translate(err)
	}
	err = s.db.WithContext(ctx).Model(&Release{}).Where("project_id = ?", projectID).Select("COALESCE(SUM(bytes_stored), 0)").Scan(&u.Releases).Error
	return u, translate(err)
}

// HasAssets reports whether any file was uploaded to the project.
func (s *Store) HasAssets(ctx context.Context, projectID string) (bool, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&Asset{}).Where("project_id = ?", projectID).Limit(1).Pluck("id", &ids).Error
	return len(ids) > 0, translate(err)
}
