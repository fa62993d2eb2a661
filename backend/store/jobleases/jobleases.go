// Package jobleases keeps the leases of running background jobs: the attempt that holds each and
// when its replica last renewed it, so that another replica can tell a job whose replica died.
package jobleases

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Lease is the lease of a running background job.
type Lease struct {
	JobID   int64 `gorm:"primaryKey"`
	Attempt int
	BeatAt  time.Time
}

// TableName names the leases' table.
func (Lease) TableName() string { return "job_leases" }

// Table is the leases' table on one database handle.
type Table struct{ db *gorm.DB }

// New returns the leases' table on db.
func New(db *gorm.DB) Table { return Table{db} }

func now() time.Time { return time.Now().UTC() }

// Take records that this attempt of a job is running, replacing any lease an earlier attempt
// left.
func (t Table) Take(ctx context.Context, jobID int64, attempt int) error {
	l := Lease{JobID: jobID, Attempt: attempt, BeatAt: now()}
	return t.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "job_id"}}, DoUpdates: clause.AssignmentColumns([]string{"attempt", "beat_at"}),
	}).Create(&l).Error
}

// Renew renews the lease of this attempt of a job; false when the lease is gone or belongs to
// another attempt (the job was rescued and runs again).
func (t Table) Renew(ctx context.Context, jobID int64, attempt int) (bool, error) {
	res := t.db.WithContext(ctx).Model(&Lease{}).Where("job_id = ? AND attempt = ?", jobID, attempt).Update("beat_at", now())
	return res.RowsAffected == 1, res.Error
}

// Drop removes the lease of this attempt of a job once it has ended.
func (t Table) Drop(ctx context.Context, jobID int64, attempt int) error {
	return t.db.WithContext(ctx).Where("job_id = ? AND attempt = ?", jobID, attempt).Delete(&Lease{}).Error
}

// Of returns the leases of the given jobs, by job id.
func (t Table) Of(ctx context.Context, jobIDs []int64) (map[int64]Lease, error) {
	out := make(map[int64]Lease, len(jobIDs))
	if len(jobIDs) == 0 {
		return out, nil
	}
	var ls []Lease
	if err := t.db.WithContext(ctx).Where("job_id IN ?", jobIDs).Find(&ls).Error; err != nil {
		return nil, err
	}
	for _, l := range ls {
		out[l.JobID] = l
	}
	return out, nil
}
