package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// Round is a calibration round: fixed pool items that every participant labels once.
type Round struct {
	ID        string `gorm:"primaryKey"`
	ProjectID string
	Number    int // the round's number in its project, from 1
	Name      string
	Status    flow.RoundStatus
	PassRule  JSON // metric, threshold, questions
	CreatedBy string
	CreatedAt time.Time
	ClosedAt  *time.Time
	ClosedBy  *string
}

// TableName names the rounds table.
func (Round) TableName() string { return "calibration_rounds" }

// RoundItem is an item of a round, in round order.
type RoundItem struct {
	ItemID     string
	ExternalID string
	Position   int
}

// RoundPerson is a participant of a round with their name and what they submitted so far.
type RoundPerson struct {
	RoundID string
	UserID  string
	Name    string
	Email   string
	Done    int64
	Passed  *bool
	Score   *float64
}

// NextRoundNumber is the number the project's next round gets; callers hold the project's row
// lock so two rounds cannot take the same number.
func (s *Store) NextRoundNumber(ctx context.Context, projectID string) (int, error) {
	var n int
	err := s.db.WithContext(ctx).Model(&Round{}).Select("COALESCE(MAX(number), 0)").Where("project_id = ?", projectID).Scan(&n).Error
	return n + 1, translate(err)
}

// CreateRound inserts a round with its items (in the given order) and participants.
func (s *Store) CreateRound(ctx context.Context, r *Round, itemIDs, userIDs []string) error {
	db := s.db.WithContext(ctx)
	if r.ID == "" {
		r.ID = newID()
	}
	r.CreatedAt = now()
	if err := db.Create(r).Error; err != nil {
		return translate(err)
	}
	for i, id := range itemIDs {
		if err := db.Exec("INSERT INTO calibration_round_items (round_id, item_id, position) VALUES (?, ?, ?)", r.ID, id, i+1).Error; err != nil {
			return translate(err)
		}
	}
	for _, id := range userIDs {
		if err := db.Exec("INSERT INTO calibration_round_people (round_id, user_id) VALUES (?, ?)", r.ID, id).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// Round returns a round of a project.
func (s *Store) Round(ctx context.Context, projectID, id string) (*Round, error) {
	var r Round
	err := s.db.WithContext(ctx).Where("project_id = ? AND id = ?", projectID, id).Take(&r).Error
	return &r, translate(err)
}

// RoundForUpdate returns a round of a project locked for the rest of the transaction.
func (s *Store) RoundForUpdate(ctx context.Context, projectID, id string) (*Round, error) {
	var r Round
	q := s.db.WithContext(ctx).Where("project_id = ? AND id = ?", projectID, id)
	if s.dialect == Postgres {
		q = q.Clauses(lockingUpdate())
	}
	err := q.Take(&r).Error
	return &r, translate(err)
}

// Rounds lists a project's rounds, newest first; with userID, only the rounds that user takes
// part in.
func (s *Store) Rounds(ctx context.Context, projectID, userID string) ([]Round, error) {
	q := s.db.WithContext(ctx).Where("project_id = ?", projectID).Order("number DESC")
	if userID != "" {
		q = q.Where("id IN (SELECT round_id FROM calibration_round_people WHERE user_id = ?)", userID)
	}
	rs := []Round{}
	return rs, translate(q.Find(&rs).Error)
}

// RoundItems returns the items of a round in round order.
func (s *Store) RoundItems(ctx context.Context, roundID string) ([]RoundItem, error) {
	out := []RoundItem{}
	err := s.db.WithContext(ctx).Table("calibration_round_items ri").
		Select("ri.item_id, i.external_id, ri.position").Joins("JOIN items i ON i.id = ri.item_id").
		Where("ri.round_id = ?", roundID).Order("ri.position").Scan(&out).Error
	return out, translate(err)
}

// RoundItemCounts counts the items of each given round.
func (s *Store) RoundItemCounts(ctx context.Context, roundIDs []string) (map[string]int, error) {
	var rows []struct {
		RoundID string
		N       int
	}
	err := s.db.WithContext(ctx).Table("calibration_round_items").Select("round_id, COUNT(*) AS n").
		Where("round_id IN ?", roundIDs).Group("round_id").Scan(&rows).Error
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.RoundID] = r.N
	}
	return out, translate(err)
}

// RoundPeople returns the participants of the given rounds with the number of items each
// submitted in the round, by name.
func (s *Store) RoundPeople(ctx context.Context, roundIDs []string) ([]RoundPerson, error) {
	out := []RoundPerson{}
	err := s.db.WithContext(ctx).Table("calibration_round_people p").
		Select(`p.round_id, p.user_id, u.name, u.email, p.passed, p.score,
  (SELECT COUNT(*) FROM assignments a WHERE a.round_id = p.round_id AND a.user_id = p.user_id AND a.status = 'submitted') AS done`).
		Joins("JOIN users u ON u.id = p.user_id").
		Where("p.round_id IN ?", roundIDs).Order("u.name, u.email").Scan(&out).Error
	return out, translate(err)
}

// CloseRound marks a round closed by a person at a time.
func (s *Store) CloseRound(ctx context.Context, id, by string, at time.Time) error {
	return translate(s.db.WithContext(ctx).Model(&Round{}).Where("id = ?", id).
		Updates(map[string]any{"status": flow.RoundClosed, "closed_at": at, "closed_by": by}).Error)
}

// SetRoundOutcome records whether a participant passed a round, and their score.
func (s *Store) SetRoundOutcome(ctx context.Context, roundID, userID string, passed bool, score *float64) error {
	return translate(s.db.WithContext(ctx).Exec("UPDATE calibration_round_people SET passed = ?, score = ? WHERE round_id = ? AND user_id = ?",
		passed, score, roundID, userID).Error)
}

// ExpireRoundWork ends the open assignments of a round (their drafts stay) and returns their
// ids; as ExpireOpenAssignments, a submit that commits first stays submitted.
func (s *Store) ExpireRoundWork(ctx context.Context, roundID string) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Raw(`UPDATE assignments SET status = ? WHERE round_id = ? AND status = ? RETURNING id`,
		flow.AssignExpired, roundID, flow.AssignActive).Scan(&ids).Error
	return ids, translate(err)
}

// RoundWork returns the submitted assignments of the given rounds, oldest first.
func (s *Store) RoundWork(ctx context.Context, roundIDs []string) ([]Assignment, error) {
	as := []Assignment{}
	err := s.db.WithContext(ctx).Where("round_id IN ? AND status = ?", roundIDs, flow.AssignSubmitted).
		Order("created_at, id").Find(&as).Error
	return as, translate(err)
}

// RoundCandidate is an item of a round that a participant has not worked on yet.
type RoundCandidate struct {
	RoundID string
	ItemID  string
}

// CalibrationCandidates returns up to limit items of the open rounds of a project that the
// user takes part in and has no assignment of yet and whose language the user reads, oldest
// round first, in round order.
func (s *Store) CalibrationCandidates(ctx context.Context, projectID, userID string, limit int) ([]RoundCandidate, error) {
	out := []RoundCandidate{}
	err := s.db.WithContext(ctx).Raw(`SELECT ri.round_id, ri.item_id FROM calibration_round_items ri
JOIN calibration_rounds r ON r.id = ri.round_id
JOIN calibration_round_people p ON p.round_id = r.id AND p.user_id = ?
JOIN items i ON i.id = ri.item_id
WHERE r.project_id = ? AND r.status = ?
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ri.round_id AND a.item_id = ri.item_id AND a.user_id = ?)
  AND `+readsItem("?")+`
ORDER BY r.number, ri.position LIMIT ?`, userID, projectID, flow.RoundOpen, userID, userID, userID, limit).Scan(&out).Error
	return out, translate(err)
}

// PoolItems returns the ids of a project's calibration pool items, in id order.
func (s *Store) PoolItems(ctx context.Context, projectID string) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&Item{}).Where("project_id = ? AND stage = ?", projectID, flow.StageCalibration).
		Order("id").Pluck("id", &ids).Error
	return ids, translate(err)
}

// PutGold stores the gold answers of a pool item.
func (s *Store) PutGold(ctx context.Context, itemID string, answers JSON) error {
	return translate(s.db.WithContext(ctx).Exec("INSERT INTO calibration_gold (item_id, answers, created_at) VALUES (?, ?, ?)",
		itemID, answers, now()).Error)
}

// Gold returns the gold answers of the given pool items that have them, keyed by item id.
func (s *Store) Gold(ctx context.Context, itemIDs []string) (map[string]JSON, error) {
	var rows []struct {
		ItemID  string
		Answers JSON
	}
	err := s.db.WithContext(ctx).Table("calibration_gold").Select("item_id, answers").Where("item_id IN ?", itemIDs).Scan(&rows).Error
	out := make(map[string]JSON, len(rows))
	for _, r := range rows {
		out[r.ItemID] = r.Answers
	}
	return out, translate(err)
}

// RoundNote is a lead's feedback on an (item, question) of a round.
type RoundNote struct {
	ID        string `gorm:"primaryKey"`
	RoundID   string
	ItemID    string
	Question  string
	Note      string
	CreatedBy string
	CreatedAt time.Time
}

// TableName names the notes table.
func (RoundNote) TableName() string { return "calibration_notes" }

// AddRoundNote stores a note.
func (s *Store) AddRoundNote(ctx context.Context, n *RoundNote) error {
	n.ID, n.CreatedAt = newID(), now()
	return translate(s.db.WithContext(ctx).Create(n).Error)
}

// RoundNotes returns a round's notes, oldest first.
func (s *Store) RoundNotes(ctx context.Context, roundID string) ([]RoundNote, error) {
	ns := []RoundNote{}
	err := s.db.WithContext(ctx).Where("round_id = ?", roundID).Order("created_at, id").Find(&ns).Error
	return ns, translate(err)
}

// SetQualified sets a member's qualification for production labeling.
func (s *Store) SetQualified(ctx context.Context, projectID, userID string, qualified bool) error {
	return translate(s.db.WithContext(ctx).Model(&Member{}).Where("project_id = ? AND user_id = ?", projectID, userID).
		Updates(map[string]any{"qualified": qualified, "updated_at": now()}).Error)
}
