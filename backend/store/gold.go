package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// goldWork: gold items of a project the user never worked on, in any stage, in a language the
// user reads (gold is mixed into label work and follows its language rule).
func goldWork(projectID, userID string) workQuery {
	return workQuery{id: "i.id", from: "FROM items i", order: "RANDOM()", lockTable: "i",
		where: `i.project_id = ? AND i.stage = ? AND i.flag IS NULL
  AND NOT EXISTS (SELECT 1 FROM item_people x WHERE x.item_id = i.id AND x.user_id = ?)
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.user_id = ?)
  AND ` + readsItem("?"),
		args: []any{projectID, flow.StageGold, userID, userID, userID, userID}}
}

// GoldCandidates returns up to limit gold items the user may be given, in random order, so
// that people do not meet the gold items in one shared sequence.
func (s *Store) GoldCandidates(ctx context.Context, projectID, userID string, limit int) ([]string, error) {
	return s.candidates(ctx, goldWork(projectID, userID), limit)
}

// AvailableGold counts the gold items the user could still be given, up to limit.
func (s *Store) AvailableGold(ctx context.Context, projectID, userID string, limit int) (int64, error) {
	return s.count(ctx, goldWork(projectID, userID), limit)
}

// GoldWindow returns whether each of the user's latest gold answers (at most limit, submitted
// after since when it is set) matched the gold, newest first.
func (s *Store) GoldWindow(ctx context.Context, projectID, userID string, since *time.Time, limit int) ([]bool, error) {
	q := s.db.WithContext(ctx).Model(&Assignment{}).
		Where("project_id = ? AND user_id = ? AND gold_correct IS NOT NULL AND status = ?", projectID, userID, flow.AssignSubmitted)
	if since != nil {
		q = q.Where("submitted_at > ?", *since)
	}
	var out []bool
	err := q.Order("submitted_at DESC, id DESC").Limit(limit).Pluck("gold_correct", &out).Error
	return out, translate(err)
}

// GoldAnswer is one submitted answer to a gold item.
type GoldAnswer struct {
	UserID      string
	Correct     bool
	SubmittedAt time.Time
}

// GoldAnswers returns every submitted gold answer of a project, each person's newest first.
func (s *Store) GoldAnswers(ctx context.Context, projectID string) ([]GoldAnswer, error) {
	var out []GoldAnswer
	err := s.db.WithContext(ctx).Model(&Assignment{}).Select("user_id, gold_correct AS correct, submitted_at").
		Where("project_id = ? AND gold_correct IS NOT NULL AND status = ?", projectID, flow.AssignSubmitted).
		Order("user_id, submitted_at DESC, id DESC").Scan(&out).Error
	return out, translate(err)
}

// SetMemberPaused pauses a member or lifts the pause; lifting starts the gold window over.
func (s *Store) SetMemberPaused(ctx context.Context, projectID, userID string, paused bool) error {
	t := now()
	set := map[string]any{"paused": paused, "updated_at": t}
	if !paused {
		set["gold_since"] = t
	}
	res := s.db.WithContext(ctx).Model(&Member{}).Where("project_id = ? AND user_id = ?", projectID, userID).Updates(set)
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}

// MembersState maps a project's members onto their membership rows (pause and gold window).
func (s *Store) MembersState(ctx context.Context, projectID string) (map[string]Member, error) {
	var ms []Member
	if err := s.db.WithContext(ctx).Where("project_id = ?", projectID).Find(&ms).Error; err != nil {
		return nil, translate(err)
	}
	out := make(map[string]Member, len(ms))
	for _, m := range ms {
		out[m.UserID] = m
	}
	return out, nil
}

// GoldLabel is a submitted label of a gold item, with the item's gold answers.
type GoldLabel struct {
	ItemID, UserID string
	Answers, Gold  JSON
}

// GoldLabels returns the submitted labels of a project's gold items in id order.
func (s *Store) GoldLabels(ctx context.Context, projectID string) ([]GoldLabel, error) {
	var out []GoldLabel
	err := s.db.WithContext(ctx).Raw(`SELECT a.item_id, a.user_id, a.answers, i.gold FROM assignments a JOIN items i ON i.id = a.item_id
WHERE a.project_id = ? AND a.stage = ? AND a.status = ? AND i.stage = ? ORDER BY a.id`,
		projectID, flow.StageLabel, flow.AssignSubmitted, flow.StageGold).Scan(&out).Error
	return out, translate(err)
}
