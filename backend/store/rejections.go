package store

import (
	"context"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// Rejection is one of a person's labels its reviewer rejected, with that review.
type Rejection struct {
	Label  Assignment
	Review Assignment
}

// RejectionsOf returns a person's own labels in a project that a review rejected, each with
// its submitted review, the latest review first, at most limit.
func (s *Store) RejectionsOf(ctx context.Context, projectID, userID string, limit int) ([]Rejection, error) {
	var reviews []Assignment
	err := s.db.WithContext(ctx).Table("assignments r").Select("r.*").
		Joins("JOIN assignments l ON l.id = r.target_id").
		Where("l.project_id = ? AND l.user_id = ? AND l.stage = ? AND l.review_status = ?", projectID, userID, flow.StageLabel, flow.ReviewRejected).
		Where("r.stage = ? AND r.status = ? AND r.verdict = ?", flow.StageReview, flow.AssignSubmitted, flow.VerdictReject).
		Order("r.submitted_at DESC, r.id").Limit(limit).Scan(&reviews).Error
	if err != nil || len(reviews) == 0 {
		return nil, translate(err)
	}
	ids := make([]string, len(reviews))
	for i, r := range reviews {
		ids[i] = *r.TargetID
	}
	var labels []Assignment
	if err := s.db.WithContext(ctx).Where("id IN ?", ids).Find(&labels).Error; err != nil {
		return nil, translate(err)
	}
	byID := make(map[string]Assignment, len(labels))
	for _, l := range labels {
		byID[l.ID] = l
	}
	out := make([]Rejection, 0, len(reviews))
	for _, r := range reviews {
		out = append(out, Rejection{Label: byID[*r.TargetID], Review: r})
	}
	return out, nil
}
