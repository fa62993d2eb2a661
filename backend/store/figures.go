package store

import (
	"context"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// StageWork is the work submitted in one stage of a project: how many people did it and how
// many assignments they submitted (labels a reviewer rejected included).
type StageWork struct {
	Stage     flow.Stage
	People    int64
	Submitted int64
}

// StageWork counts a project's submitted work per stage, calibration rounds left out.
func (s *Store) StageWork(ctx context.Context, projectID string) ([]StageWork, error) {
	out := []StageWork{}
	err := s.db.WithContext(ctx).Model(&Assignment{}).
		Select("stage, COUNT(DISTINCT user_id) AS people, COUNT(*) AS submitted").
		Where("project_id = ? AND status IN ? AND stage <> ?", projectID, []flow.AssignmentStatus{flow.AssignSubmitted, flow.AssignRejected}, flow.StageCalibration).
		Group("stage").Order("stage").Scan(&out).Error
	return out, translate(err)
}

// VerdictCount is the number of reviews that gave one verdict.
type VerdictCount struct {
	Verdict flow.Verdict
	Count   int64
}

// ReviewVerdicts counts a project's submitted reviews by verdict.
func (s *Store) ReviewVerdicts(ctx context.Context, projectID string) ([]VerdictCount, error) {
	out := []VerdictCount{}
	err := s.db.WithContext(ctx).Model(&Assignment{}).Select("verdict, COUNT(*) AS count").
		Where("project_id = ? AND stage = ? AND status = ? AND verdict IS NOT NULL", projectID, flow.StageReview, flow.AssignSubmitted).
		Group("verdict").Order("verdict").Scan(&out).Error
	return out, translate(err)
}

// DropReasonCount is the number of a project's items dropped for one reason.
type DropReasonCount struct {
	Reason string
	Items  int64
}

// DropReasons counts a project's dropped items by reason, most common first.
func (s *Store) DropReasons(ctx context.Context, projectID string) ([]DropReasonCount, error) {
	out := []DropReasonCount{}
	err := s.db.WithContext(ctx).Model(&Item{}).Select("COALESCE(drop_reason, '') AS reason, COUNT(*) AS items").
		Where("project_id = ? AND stage = ?", projectID, flow.StageDropped).
		Group("COALESCE(drop_reason, '')").Order("items DESC, reason").Scan(&out).Error
	return out, translate(err)
}

// MultiLabelItems returns the ids of up to limit of a project's items that have at least min
// submitted (not rejected) labels, in id order.
func (s *Store) MultiLabelItems(ctx context.Context, projectID string, min, limit int) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&Assignment{}).Select("item_id").
		Where("project_id = ? AND stage = ? AND status = ?", projectID, flow.StageLabel, flow.AssignSubmitted).
		Where("item_id NOT IN (SELECT g.id FROM items g WHERE g.project_id = ? AND g.stage = ?)", projectID, flow.StageGold).
		Group("item_id").Having("COUNT(*) >= ?", min).Order("item_id").Limit(limit).Pluck("item_id", &ids).Error
	return ids, translate(err)
}
