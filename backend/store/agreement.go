package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AgreementResult is a project's agreement figures of one stage, as a background job left them.
type AgreementResult struct {
	ProjectID     string     `gorm:"primaryKey"`
	Stage         flow.Stage `gorm:"primaryKey"`
	SchemaVersion int
	Stamp         *time.Time // the newest label or review submit the figures include
	Labels        int64
	Result        JSON
	ComputedAt    *time.Time
	RequestedAt   *time.Time
}

// AgreementResult returns the kept figures of a project's stage (ErrNotFound when none).
func (s *Store) AgreementResult(ctx context.Context, projectID string, stage flow.Stage) (*AgreementResult, error) {
	var r AgreementResult
	err := s.db.WithContext(ctx).Where("project_id = ? AND stage = ?", projectID, stage).Take(&r).Error
	return &r, translate(err)
}

// PutAgreementResult stores computed figures, keeping the time a job was last requested.
func (s *Store) PutAgreementResult(ctx context.Context, r *AgreementResult) error {
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "project_id"}, {Name: "stage"}},
		DoUpdates: clause.AssignmentColumns([]string{"schema_version", "stamp", "labels", "result", "computed_at"}),
	}).Omit("requested_at").Create(r).Error)
}

// RequestAgreement records that a job was queued for a project's stage at t. It reports false,
// recording nothing, when another request newer than after is pending (queued since the last
// figures were stored), so that one job at a time refreshes them.
func (s *Store) RequestAgreement(ctx context.Context, projectID string, stage flow.Stage, t, after time.Time) (bool, error) {
	db := s.db.WithContext(ctx)
	res := db.Exec(`INSERT INTO agreement_results (project_id, stage, requested_at) VALUES (?, ?, ?)
ON CONFLICT (project_id, stage) DO NOTHING`, projectID, stage, t)
	if res.Error != nil {
		return false, translate(res.Error)
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	res = db.Exec(`UPDATE agreement_results SET requested_at = ? WHERE project_id = ? AND stage = ?
  AND (requested_at IS NULL OR requested_at < ? OR (computed_at IS NOT NULL AND requested_at <= computed_at))`,
		t, projectID, stage, after)
	return res.RowsAffected == 1, translate(res.Error)
}

// LatestSubmit is the time of the newest label or review submit of a project (nil: none);
// two index lookups.
func (s *Store) LatestSubmit(ctx context.Context, projectID string) (*time.Time, error) {
	var ts []*time.Time
	for _, stage := range []flow.Stage{flow.StageLabel, flow.StageReview} {
		var t *time.Time
		err := s.db.WithContext(ctx).Raw(`SELECT submitted_at FROM assignments WHERE project_id = ? AND stage = ? AND submitted_at IS NOT NULL
ORDER BY submitted_at DESC LIMIT 1`, projectID, stage).Scan(&t).Error
		if err != nil {
			return nil, translate(err)
		}
		ts = append(ts, t)
	}
	out := ts[0]
	if ts[1] != nil && (out == nil || ts[1].After(*out)) {
		out = ts[1]
	}
	return out, nil
}

// LabelRow is one accepted production label: a reviewer's correction in place of the answers.
type LabelRow struct {
	ID, ItemID, UserID string
	Answers, Effective JSON
	Draft              JSON // the prefilled draft (revision 0), when the label started from one
	DraftSource        *string
	TimeSpentMS        int64
	ItemStage          flow.Stage
	Truth              JSON // the item's newest ground truth, when it has one
	Shuffle            JSON // the candidate order the label was given in (tasks.Shuffle)
}

const labelPage = 5000 // labels per query of EachProductionLabel on SQLite (a test may set its own)

// labelPageSize is the labels of one query; on PostgreSQL all, streamed from the id index (no sort) as they are read.
func (s *Store) labelPageSize() int {
	if s.labelPage > 0 {
		return s.labelPage
	} else if s.dialect == Postgres {
		return 1<<31 - 1
	}
	return labelPage
}

// productionLabels is the condition on a label (a) and its item (i) that EachProductionLabel reads.
const productionLabels = "a.project_id = ? AND a.stage = ? AND a.status = ? AND i.stage <> ?"

// ProductionLabelTotals counts what EachProductionLabel reads, and the people who wrote it.
func (s *Store) ProductionLabelTotals(ctx context.Context, projectID string) (labels, people int64, err error) {
	err = s.db.WithContext(ctx).Raw("SELECT COUNT(*), COUNT(DISTINCT a.user_id) FROM assignments a JOIN items i ON i.id = a.item_id WHERE "+
		productionLabels, projectID, flow.StageLabel, flow.AssignSubmitted, flow.StageGold).Row().Scan(&labels, &people)
	return labels, people, translate(err)
}

// EachProductionLabel calls fn for every submitted label of a project on an item that is not gold, in id order (pages
// on SQLite, whose one connection a long read would hold); with detail, the prefilled draft and newest ground truth too.
func (s *Store) EachProductionLabel(ctx context.Context, projectID string, detail bool, fn func(*LabelRow) error) error {
	cols := "a.id, a.item_id, a.user_id, a.answers, a.effective, a.draft_source, a.time_spent_ms, i.stage, a.shuffle"
	from := "FROM assignments a JOIN items i ON i.id = a.item_id"
	if detail {
		cols += ", r.answers, g.answers"
		from += ` LEFT JOIN assignment_revisions r ON r.assignment_id = a.id AND r.version = 0
LEFT JOIN ground_truth_revisions g ON g.item_id = i.id AND g.revision = i.gt_revision`
	}
	after := ""
	page := func(db *gorm.DB) (int, error) {
		rows, err := db.Raw("SELECT "+cols+" "+from+" WHERE "+productionLabels+` AND a.id > ?
ORDER BY a.id LIMIT ?`, projectID, flow.StageLabel, flow.AssignSubmitted, flow.StageGold, after, s.labelPageSize()).Rows()
		if err != nil {
			return 0, translate(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var r LabelRow
			dest := []any{&r.ID, &r.ItemID, &r.UserID, &r.Answers, &r.Effective, &r.DraftSource, &r.TimeSpentMS, &r.ItemStage, &r.Shuffle}
			if detail {
				dest = append(dest, &r.Draft, &r.Truth)
			}
			if err := rows.Scan(dest...); err != nil {
				return n, err
			}
			n, after = n+1, r.ID
			if err := fn(&r); err != nil {
				return n, err
			}
		}
		return n, translate(rows.Err())
	}
	for {
		n, err := s.readPage(ctx, page, "SET LOCAL enable_sort = off")
		if err != nil || n < s.labelPageSize() {
			return err
		}
	}
}

// UserNames maps user ids onto their names.
func (s *Store) UserNames(ctx context.Context, ids []string) (map[string]string, error) {
	var rows []struct{ ID, Name string }
	out := make(map[string]string, len(ids))
	for start := 0; start < len(ids); start += 500 {
		if err := s.db.WithContext(ctx).Table("users").Select("id, name").Where("id IN ?", ids[start:min(start+500, len(ids))]).
			Scan(&rows).Error; err != nil {
			return nil, translate(err)
		}
		for _, r := range rows {
			out[r.ID] = r.Name
		}
	}
	return out, nil
}
