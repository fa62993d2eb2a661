package store

import (
	"context"
	"time"
)

// skipLocked makes a candidate query skip rows other transactions hold, on PostgreSQL. SQLite
// has one writer at a time, so there is nothing to skip.
func (s *Store) skipLocked(table string) string {
	if s.dialect == Postgres {
		return " FOR UPDATE OF " + table + " SKIP LOCKED"
	}
	return ""
}

// slotTaken is the SQL condition for an assignment that holds a slot at time ?.
const slotTaken = "(a.status = 'submitted' OR (a.status = 'active' AND a.lease_expires_at > ?))"

// NextItemCandidates returns up to limit items of a stage that the user never worked on in
// any stage (so nobody labels an item they reviewed, nor reviews one they labeled) and that
// have fewer than slots slots taken, oldest first, locked on PostgreSQL.
func (s *Store) NextItemCandidates(ctx context.Context, projectID, userID, stage string, slots, limit int, at time.Time) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Raw(`
SELECT i.id FROM items i
WHERE i.project_id = ? AND i.stage = ? AND i.flag IS NULL
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.user_id = ?)
  AND (SELECT COUNT(*) FROM assignments a WHERE a.item_id = i.id AND a.stage = ? AND `+slotTaken+`) < ?
ORDER BY i.id LIMIT ?`+s.skipLocked("i"),
		projectID, stage, userID, stage, at, slots, limit).Scan(&ids).Error
	return ids, translate(err)
}

// NextAdjudicationCandidates returns items waiting for adjudication that the user did not
// label or review and that nobody is adjudicating.
func (s *Store) NextAdjudicationCandidates(ctx context.Context, projectID, userID string, limit int, at time.Time) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Raw(`
SELECT i.id FROM items i
WHERE i.project_id = ? AND i.stage = 'adjudicate' AND i.flag IS NULL
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.user_id = ?)
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.stage = 'adjudicate' AND `+slotTaken+`)
ORDER BY i.id LIMIT ?`+s.skipLocked("i"),
		projectID, userID, at, limit).Scan(&ids).Error
	return ids, translate(err)
}

// NextReviewCandidates returns submitted labels waiting for review, by someone who worked on
// neither the label's item nor reviewed it, and that nobody is reviewing.
func (s *Store) NextReviewCandidates(ctx context.Context, projectID, userID string, limit int, at time.Time) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Raw(`
SELECT l.id FROM assignments l
JOIN items i ON i.id = l.item_id AND i.flag IS NULL
WHERE l.project_id = ? AND l.stage = 'label' AND l.status = 'submitted' AND l.review_status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.item_id = l.item_id AND m.user_id = ?)
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.target_id = l.id AND a.stage = 'review' AND `+slotTaken+`)
ORDER BY l.submitted_at, l.id LIMIT ?`+s.skipLocked("l"),
		projectID, userID, at, limit).Scan(&ids).Error
	return ids, translate(err)
}

// ReviewSlotTaken reports whether a label already has a live or submitted review other than
// except.
func (s *Store) ReviewSlotTaken(ctx context.Context, labelID, except string, at time.Time) (bool, error) {
	var n int64
	err := s.db.WithContext(ctx).Table("assignments a").
		Where("a.target_id = ? AND a.stage = 'review' AND a.id <> ? AND "+slotTaken, labelID, except, at).Count(&n).Error
	return n > 0, translate(err)
}

// AvailableItems counts the items of a stage the user could still be given, up to limit.
func (s *Store) AvailableItems(ctx context.Context, projectID, userID, stage string, slots, limit int, at time.Time) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw(`
SELECT COUNT(*) FROM (SELECT i.id FROM items i
WHERE i.project_id = ? AND i.stage = ? AND i.flag IS NULL
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.user_id = ?)
  AND (SELECT COUNT(*) FROM assignments a WHERE a.item_id = i.id AND a.stage = ? AND `+slotTaken+`) < ?
LIMIT ?) x`, projectID, stage, userID, stage, at, slots, limit).Scan(&n).Error
	return n, translate(err)
}

// AvailableReviews counts labels the user could review, up to limit.
func (s *Store) AvailableReviews(ctx context.Context, projectID, userID string, limit int, at time.Time) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw(`
SELECT COUNT(*) FROM (SELECT l.id FROM assignments l
JOIN items i ON i.id = l.item_id AND i.flag IS NULL
WHERE l.project_id = ? AND l.stage = 'label' AND l.status = 'submitted' AND l.review_status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.item_id = l.item_id AND m.user_id = ?)
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.target_id = l.id AND a.stage = 'review' AND `+slotTaken+`)
LIMIT ?) x`, projectID, userID, at, limit).Scan(&n).Error
	return n, translate(err)
}

// AvailableAdjudications counts items the user could adjudicate, up to limit.
func (s *Store) AvailableAdjudications(ctx context.Context, projectID, userID string, limit int, at time.Time) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw(`
SELECT COUNT(*) FROM (SELECT i.id FROM items i
WHERE i.project_id = ? AND i.stage = 'adjudicate' AND i.flag IS NULL
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.user_id = ?)
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.stage = 'adjudicate' AND `+slotTaken+`)
LIMIT ?) x`, projectID, userID, at, limit).Scan(&n).Error
	return n, translate(err)
}
