package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// Release is an export of a project's ground truth, written by a background job.
type Release struct {
	ID            string `gorm:"primaryKey"`
	ProjectID     string
	Name          string
	SchemaVersion int
	Formats       JSON
	Options       JSON
	Status        flow.ReleaseStatus
	RecordsDone   int64
	RecordsTotal  int64
	BytesStored   int64 // counted toward the project's storage quota
	Manifest      JSON
	Error         *string
	CreatedBy     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	FinishedAt    *time.Time
}

// ReleaseFile is one file of a done release, as its manifest lists it.
type ReleaseFile struct {
	ReleaseID   string `gorm:"primaryKey"`
	Path        string `gorm:"primaryKey"`
	Format      string
	Bytes       int64
	SHA256      string `gorm:"column:sha256"`
	Records     int64
	ContentType string
	BlobKey     string
}

// CreateRelease records a queued release.
func (s *Store) CreateRelease(ctx context.Context, r *Release) error {
	if r.ID == "" {
		r.ID = newID()
	}
	r.CreatedAt, r.UpdatedAt = now(), now()
	return translate(s.db.WithContext(ctx).Create(r).Error)
}

// NewReleaseID returns an id for a release whose files are keyed by it.
func NewReleaseID() string { return newID() }

// Release returns a release of a project (any project when projectID is empty).
func (s *Store) Release(ctx context.Context, projectID, id string) (*Release, error) {
	var r Release
	q := s.db.WithContext(ctx).Where("id = ?", id)
	if projectID != "" {
		q = q.Where("project_id = ?", projectID)
	}
	return &r, translate(q.Take(&r).Error)
}

// Releases lists a project's releases, newest first.
func (s *Store) Releases(ctx context.Context, projectID string, limit int) ([]Release, error) {
	rs := []Release{}
	err := s.db.WithContext(ctx).Where("project_id = ?", projectID).Order("created_at DESC, id DESC").Limit(limit).Find(&rs).Error
	return rs, translate(err)
}

// StartRelease moves a queued release to running with the number of records it will read; it
// reports false, changing nothing, when the release was not queued.
func (s *Store) StartRelease(ctx context.Context, id string, total int64) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Release{}).Where("id = ? AND status = ?", id, flow.ReleaseQueued).
		Updates(map[string]any{"status": flow.ReleaseRunning, "records_total": total, "updated_at": now()})
	return res.RowsAffected == 1, translate(res.Error)
}

// ReleaseProgress records how many records a running release has read.
func (s *Store) ReleaseProgress(ctx context.Context, id string, done int64) error {
	return translate(s.db.WithContext(ctx).Model(&Release{}).Where("id = ? AND status = ?", id, flow.ReleaseRunning).
		Updates(map[string]any{"records_done": done, "updated_at": now()}).Error)
}

// FailRelease ends a release that is not finished yet as failed, with the error.
func (s *Store) FailRelease(ctx context.Context, id, message string) error {
	t := now()
	return translate(s.db.WithContext(ctx).Model(&Release{}).
		Where("id = ? AND status IN ?", id, []flow.ReleaseStatus{flow.ReleaseQueued, flow.ReleaseRunning}).
		Updates(map[string]any{"status": flow.ReleaseFailed, "error": message, "updated_at": t, "finished_at": t}).Error)
}

// UnfinishedReleases counts a project's releases that are queued or running.
func (s *Store) UnfinishedReleases(ctx context.Context, projectID string) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&Release{}).
		Where("project_id = ? AND status IN ?", projectID, []flow.ReleaseStatus{flow.ReleaseQueued, flow.ReleaseRunning}).Count(&n).Error
	return n, translate(err)
}

// ReserveReleaseBytes adds n bytes to what a running release holds in the blob store; false
// when the release is no longer running.
func (s *Store) ReserveReleaseBytes(ctx context.Context, id string, n int64) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Release{}).Where("id = ? AND status = ?", id, flow.ReleaseRunning).
		Update("bytes_stored", gorm.Expr("bytes_stored + ?", n))
	return res.RowsAffected == 1, translate(res.Error)
}

// ReleaseFilesRemoved records that a failed release's files are gone from the blob store, so
// they no longer count toward the quota.
func (s *Store) ReleaseFilesRemoved(ctx context.Context, id string) error {
	return translate(s.db.WithContext(ctx).Model(&Release{}).Where("id = ? AND status = ?", id, flow.ReleaseFailed).
		Update("bytes_stored", 0).Error)
}

// CompleteRelease marks a running release done with its manifest and lists its files, in one
// transaction: a release is never done without its files, nor its files listed before it is
// done. ErrConflict when the release was no longer running.
func (s *Store) CompleteRelease(ctx context.Context, id string, records int64, manifest JSON, files []ReleaseFile) error {
	return s.WithTx(ctx, func(tx *Store) error {
		t := now()
		var bytes int64
		for _, f := range files {
			bytes += f.Bytes
		}
		res := tx.db.WithContext(ctx).Model(&Release{}).Where("id = ? AND status = ?", id, flow.ReleaseRunning).
			Updates(map[string]any{"status": flow.ReleaseDone, "records_done": records, "manifest": manifest, "bytes_stored": bytes,
				"updated_at": t, "finished_at": t})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected != 1 {
			return ErrConflict
		}
		for i := range files {
			files[i].ReleaseID = id
		}
		if len(files) == 0 {
			return nil
		}
		return translate(tx.db.WithContext(ctx).CreateInBatches(files, 200).Error)
	})
}

// ReleaseFiles lists the files of a done release by path.
func (s *Store) ReleaseFiles(ctx context.Context, releaseID string) ([]ReleaseFile, error) {
	fs := []ReleaseFile{}
	err := s.db.WithContext(ctx).Where("release_id = ?", releaseID).Order("path").Find(&fs).Error
	return fs, translate(err)
}

// ReleaseFileAt returns one listed file of a release.
func (s *Store) ReleaseFileAt(ctx context.Context, releaseID, path string) (*ReleaseFile, error) {
	var f ReleaseFile
	err := s.db.WithContext(ctx).Where("release_id = ? AND path = ?", releaseID, path).Take(&f).Error
	return &f, translate(err)
}

// ReleaseKeys lists the blob keys of every listed file of a project's releases.
func (s *Store) ReleaseKeys(ctx context.Context, projectID string) ([]string, error) {
	var keys []string
	err := s.db.WithContext(ctx).Model(&ReleaseFile{}).
		Where("release_id IN (?)", s.db.Model(&Release{}).Select("id").Where("project_id = ?", projectID)).
		Pluck("blob_key", &keys).Error
	return keys, translate(err)
}

// ItemTruth is an item with its newest ground truth (nil when it has none).
type ItemTruth struct {
	Item
	Truth *GroundTruth
}

// ItemsWithTruth returns up to limit of a project's items in the given stages, each with its
// newest ground truth, in id order after the item id after ("" for the first page).
func (s *Store) ItemsWithTruth(ctx context.Context, projectID string, stages []flow.Stage, after string, limit int) ([]ItemTruth, error) {
	var out []ItemTruth
	_, err := s.readPage(ctx, func(db *gorm.DB) (int, error) {
		var err error
		out, err = itemsWithTruth(db, projectID, stages, after, limit)
		return len(out), err
	})
	return out, err
}

func itemsWithTruth(db *gorm.DB, projectID string, stages []flow.Stage, after string, limit int) ([]ItemTruth, error) {
	// note: the page's start bounds the ground truth too, or PostgreSQL's merge join reads the
	// project's ground truth from its first row on every page (quadratic over a release)
	q := db.Table("items i").
		Select("i.id, i.external_id, i.parent_id, i.inputs, i.drafted, i.meta, i.language, i.stage, i.drop_reason, i.flag, i.gt_revision, g.answers, "+
			"g.provenance, g.decided_by, g.rationale, g.details, g.texts").
		Joins("LEFT JOIN ground_truth_revisions g ON g.item_id = i.id AND g.revision = i.gt_revision AND g.item_id > ?", after).
		Where("i.project_id = ? AND i.stage IN ? AND i.id > ?", projectID, stages, after)
	// note: rows are scanned by hand; a release reads millions of them
	rows, err := q.Order("i.id").Limit(limit).Rows()
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	out := make([]ItemTruth, 0, limit)
	for rows.Next() {
		var it ItemTruth
		var gt GroundTruth
		var prov *string
		if err := rows.Scan(&it.ID, &it.ExternalID, &it.ParentID, &it.Inputs, &it.Drafted, &it.Meta, &it.Language, &it.Stage, &it.DropReason, &it.Flag, &it.GTRevision,
			&gt.Answers, &prov, &gt.DecidedBy, &gt.Rationale, &gt.Details, &gt.Texts); err != nil {
			return nil, err
		}
		it.ProjectID = projectID
		if prov != nil {
			gt.ItemID, gt.Revision, gt.Provenance = it.ID, it.GTRevision, flow.Provenance(*prov)
			it.Truth = &gt
		}
		out = append(out, it)
	}
	return out, translate(rows.Err())
}

// ItemMeta is an item's identity and metadata.
type ItemMeta struct {
	ID         string
	ExternalID string
	Meta       JSON
}

// ItemMetas is ItemsInStages reading only ids and metadata.
func (s *Store) ItemMetas(ctx context.Context, projectID string, stages []flow.Stage, after string, limit int) ([]ItemMeta, error) {
	var out []ItemMeta
	err := itemsInStages(s.db.WithContext(ctx), projectID, stages, after).Model(&Item{}).
		Select("id, external_id, meta").Order("id").Limit(limit).Scan(&out).Error
	return out, translate(err)
}

// CountItemsInStages counts a project's items in the given stages.
func (s *Store) CountItemsInStages(ctx context.Context, projectID string, stages []flow.Stage) (int64, error) {
	var n int64
	err := itemsInStages(s.db.WithContext(ctx), projectID, stages, "").Model(&Item{}).Count(&n).Error
	return n, translate(err)
}

func itemsInStages(db *gorm.DB, projectID string, stages []flow.Stage, after string) *gorm.DB {
	q := db.Where("project_id = ? AND stage IN ?", projectID, stages)
	if after != "" {
		q = q.Where("id > ?", after)
	}
	return q
}

// SubmittedWork returns the submitted, rejected and skipped labels, the submitted and skipped
// reviews and checklist refinements of the given items, oldest first, with the columns a
// release reads.
func (s *Store) SubmittedWork(ctx context.Context, itemIDs []string) ([]Assignment, error) {
	rows, err := s.db.WithContext(ctx).Model(&Assignment{}).
		Select("id, item_id, user_id, stage, status, answers, effective, target_id, verdict, comment, comments, skip_reason, review_status").
		Where("item_id IN ? AND stage IN ? AND status IN ?", itemIDs, []flow.Stage{flow.StageChecklist, flow.StageLabel, flow.StageReview},
			[]flow.AssignmentStatus{flow.AssignSubmitted, flow.AssignRejected, flow.AssignSkipped}).
		Order("created_at, id").Rows()
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	as := make([]Assignment, 0, 2*len(itemIDs))
	for rows.Next() {
		var a Assignment
		if err := rows.Scan(&a.ID, &a.ItemID, &a.UserID, &a.Stage, &a.Status, &a.Answers, &a.Effective, &a.TargetID,
			&a.Verdict, &a.Comment, &a.Comments, &a.SkipReason, &a.ReviewStatus); err != nil {
			return nil, err
		}
		as = append(as, a)
	}
	return as, translate(rows.Err())
}

// AssetsByIDs returns the project's assets with the given ids, keyed by id.
func (s *Store) AssetsByIDs(ctx context.Context, projectID string, ids []string) (map[string]*Asset, error) {
	var as []Asset
	err := s.db.WithContext(ctx).Where("project_id = ? AND id IN ?", projectID, ids).Find(&as).Error
	out := make(map[string]*Asset, len(as))
	for i := range as {
		out[as[i].ID] = &as[i]
	}
	return out, translate(err)
}
