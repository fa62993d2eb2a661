package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// JobLease is the lease of a running background job: the attempt that holds it and when its
// replica last renewed it.
type JobLease struct {
	JobID   int64 `gorm:"primaryKey"`
	Attempt int
	BeatAt  time.Time
}

// TakeJobLease records that this attempt of a job is running, replacing any lease an earlier
// attempt left.
func (s *Store) TakeJobLease(ctx context.Context, jobID int64, attempt int) error {
	l := JobLease{JobID: jobID, Attempt: attempt, BeatAt: now()}
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "job_id"}}, DoUpdates: clause.AssignmentColumns([]string{"attempt", "beat_at"}),
	}).Create(&l).Error)
}

// RenewJobLease renews the lease of this attempt of a job; false when the lease is gone or
// belongs to another attempt (the job was rescued and runs again).
func (s *Store) RenewJobLease(ctx context.Context, jobID int64, attempt int) (bool, error) {
	res := s.db.WithContext(ctx).Model(&JobLease{}).Where("job_id = ? AND attempt = ?", jobID, attempt).Update("beat_at", now())
	return res.RowsAffected == 1, translate(res.Error)
}

// DropJobLease removes the lease of this attempt of a job once it has ended.
func (s *Store) DropJobLease(ctx context.Context, jobID int64, attempt int) error {
	return translate(s.db.WithContext(ctx).Where("job_id = ? AND attempt = ?", jobID, attempt).Delete(&JobLease{}).Error)
}

// JobLeases returns the leases of the given jobs, by job id.
func (s *Store) JobLeases(ctx context.Context, jobIDs []int64) (map[int64]JobLease, error) {
	out := make(map[int64]JobLease, len(jobIDs))
	if len(jobIDs) == 0 {
		return out, nil
	}
	var ls []JobLease
	if err := s.db.WithContext(ctx).Where("job_id IN ?", jobIDs).Find(&ls).Error; err != nil {
		return nil, translate(err)
	}
	for _, l := range ls {
		out[l.JobID] = l
	}
	return out, nil
}
