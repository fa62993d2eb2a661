package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"github.com/arbiter-annotation/arbiter/backend/store/migrations"
	"strconv"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// FiguresResult is a project's derived figures of one kind (balance, report, judges), as a
// background job left them, with the fingerprint of the data they were computed from.
type FiguresResult struct {
	ProjectID   string `gorm:"primaryKey"`
	Kind        string `gorm:"primaryKey"`
	DataKey     string
	Result      JSON
	ComputedAt  *time.Time
	RequestedAt *time.Time
}

// TableName names the figures table.
func (FiguresResult) TableName() string { return "project_figures" }

// FiguresResult returns the kept figures of a kind (ErrNotFound when none).
func (s *Store) FiguresResult(ctx context.Context, projectID, kind string) (*FiguresResult, error) {
	var r FiguresResult
	err := s.db.WithContext(ctx).Where("project_id = ? AND kind = ?", projectID, kind).Take(&r).Error
	return &r, translate(err)
}

// PutFiguresResult stores computed figures, keeping the time a job was last requested.
func (s *Store) PutFiguresResult(ctx context.Context, r *FiguresResult) error {
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "project_id"}, {Name: "kind"}},
		DoUpdates: clause.AssignmentColumns([]string{"data_key", "result", "computed_at"}),
	}).Omit("requested_at").Create(r).Error)
}

// RequestFigures records that a job was queued for a project's figures of a kind at t, as
// RequestAgreement does for agreement: false, recording nothing, when another request newer
// than after is pending.
func (s *Store) RequestFigures(ctx context.Context, projectID, kind string, t, after time.Time) (bool, error) {
	db := s.db.WithContext(ctx)
	res := db.Exec(`INSERT INTO project_figures (project_id, kind, requested_at) VALUES (?, ?, ?)
ON CONFLICT (project_id, kind) DO NOTHING`, projectID, kind, t)
	if res.Error != nil {
		return false, translate(res.Error)
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	res = db.Exec(`UPDATE project_figures SET requested_at = ? WHERE project_id = ? AND kind = ?
  AND (requested_at IS NULL OR requested_at < ? OR (computed_at IS NOT NULL AND requested_at <= computed_at))`,
		t, projectID, kind, after)
	return res.RowsAffected == 1, translate(res.Error)
}

// FiguresKey fingerprints what a project's derived figures are computed from: the newest item
// change (imports, stage moves, ground truth), prediction, label or review submit and criterion
// change. Each part is one index lookup.
func (s *Store) FiguresKey(ctx context.Context, projectID string) (string, error) {
	newest := func(query string, args ...any) (string, error) {
		var t *time.Time
		if err := s.db.WithContext(ctx).Raw(query, args...).Scan(&t).Error; err != nil {
			return "", translate(err)
		}
		if t == nil {
			return "-", nil
		}
		return t.UTC().Format(time.RFC3339Nano), nil
	}
	item, err := newest(`SELECT updated_at FROM items WHERE project_id = ? ORDER BY updated_at DESC LIMIT 1`, projectID)
	if err != nil {
		return "", err
	}
	pred, err := newest(`SELECT created_at FROM predictions WHERE project_id = ? ORDER BY created_at DESC LIMIT 1`, projectID)
	if err != nil {
		return "", err
	}
	crit, err := newest(`SELECT updated_at FROM criteria WHERE project_id = ? ORDER BY updated_at DESC LIMIT 1`, projectID)
	if err != nil {
		return "", err
	}
	sub, err := s.LatestSubmit(ctx, projectID)
	if err != nil {
		return "", err
	}
	subS := "-"
	if sub != nil {
		subS = sub.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("items=%s predictions=%s submits=%s criteria=%s", item, pred, subS, crit), nil
}

// TruthRow is one item of a project (not gold, not the calibration pool) with its newest
// ground truth, when it has one.
type TruthRow struct {
	ID, ExternalID string
	Stage          flow.Stage
	DropReason     *string
	Meta           JSON
	Language       string
	Answers        JSON // the newest ground truth's answers (nil: none)
	Provenance     *flow.Provenance
	Details        JSON // its provenance's details
}

// truthPage is how many items one query of EachTruth reads.
const truthPage = 10000

// EachTruth calls fn for every item of a project outside gold and the calibration pool, in
// external id order (the order of a release), with its newest ground truth, a page at a time.
func (s *Store) EachTruth(ctx context.Context, projectID string, fn func(*TruthRow) error) error {
	after := ""
	for {
		rows, err := s.db.WithContext(ctx).Raw(`SELECT i.id, i.external_id, i.stage, i.drop_reason, i.meta, i.language, g.answers, g.provenance, g.details
FROM items i LEFT JOIN ground_truth_revisions g ON g.item_id = i.id AND g.revision = i.gt_revision AND i.gt_revision > 0
WHERE i.project_id = ? AND i.stage NOT IN (?, ?) AND i.external_id > ?
ORDER BY i.external_id LIMIT ?`, projectID, flow.StageGold, flow.StageCalibration, after, truthPage).Rows()
		if err != nil {
			return translate(err)
		}
		n := 0
		for rows.Next() {
			var r TruthRow
			if err := rows.Scan(&r.ID, &r.ExternalID, &r.Stage, &r.DropReason, &r.Meta, &r.Language, &r.Answers, &r.Provenance, &r.Details); err != nil {
				rows.Close()
				return err
			}
			n, after = n+1, r.ExternalID
			if err := fn(&r); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil || n < truthPage {
			return translate(err)
		}
	}
}

// TruthGroup is a number of decided items that share their newest ground truth's answers,
// their metadata and their language.
type TruthGroup struct {
	Answers  JSON
	Meta     JSON
	Language string
	Items    int64
}

// spotCheckFlag matches the flag of a failed spot check (the workflow writes it as compact JSON
// with sorted keys, so the category comes first).
var spotCheckFlag = `{"category":"` + string(flow.FlagSpotCheckMismatch) + `"%`

// EachDoneTruthGroup calls fn for every distinct (answers, metadata, language) of a project's
// decided items with ground truth, with how many items have it: one aggregating query, so
// that figures counting the items (the balance) read a row per distinct combination rather
// than per item. Items whose blind spot check disagreed with their imported ground truth are
// left out until the lead resolves the flag, as releases leave them out (D3-Omni removes
// them from the benchmark).
func (s *Store) EachDoneTruthGroup(ctx context.Context, projectID string, fn func(*TruthGroup) error) error {
	rows, err := s.db.WithContext(ctx).Raw(`SELECT g.answers, i.meta, i.language, COUNT(*)
FROM items i JOIN ground_truth_revisions g ON g.item_id = i.id AND g.revision = i.gt_revision
WHERE i.project_id = ? AND i.stage = ? AND i.gt_revision > 0 AND (i.flag IS NULL OR i.flag NOT LIKE ?)
GROUP BY g.answers, i.meta, i.language`, projectID, flow.StageDone, spotCheckFlag).Rows()
	if err != nil {
		return translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var g TruthGroup
		if err := rows.Scan(&g.Answers, &g.Meta, &g.Language, &g.Items); err != nil {
			return err
		}
		if err := fn(&g); err != nil {
			return err
		}
	}
	return translate(rows.Err())
}

// DecidedTruth is a decided item with its newest ground truth, as EachDecidedTruth reads it:
// only what judge figures need. Meta and Answers are valid only during the call.
type DecidedTruth struct {
	ID, ExternalID string
	Meta, Answers  []byte
}

// EachDecidedTruth calls fn for every decided item of a project with ground truth, in
// external id order, a page at a time. The row is reused: fn must copy what it keeps of Meta
// and Answers.
func (s *Store) EachDecidedTruth(ctx context.Context, projectID string, fn func(*DecidedTruth) error) error {
	after := ""
	var r DecidedTruth
	var meta, answers sql.RawBytes
	page := func(db *gorm.DB) (int, error) {
		rows, err := db.Raw(`SELECT i.id, i.external_id, i.meta, g.answers
FROM items i JOIN ground_truth_revisions g ON g.item_id = i.id AND g.revision = i.gt_revision
WHERE i.project_id = ? AND i.stage = ? AND i.gt_revision > 0 AND i.external_id > ?
ORDER BY i.external_id LIMIT ?`, projectID, flow.StageDone, after, truthPage).Rows()
		if err != nil {
			return 0, translate(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			if err := rows.Scan(&r.ID, &r.ExternalID, &meta, &answers); err != nil {
				return n, err
			}
			r.Meta, r.Answers = meta, answers
			n, after = n+1, r.ExternalID
			if err := fn(&r); err != nil {
				return n, err
			}
		}
		return n, translate(rows.Err())
	}
	for {
		// note: PostgreSQL plans a page as a parallel scan whose workers start for every page
		// (most of a page's time on a busy machine); one process reads a page faster
		n, err := s.readPage(ctx, page, "SET LOCAL max_parallel_workers_per_gather = 0")
		if err != nil || n < truthPage {
			return err
		}
	}
}

// PredictionAnswers is a prediction as EachPredictionAnswers reads it; its slices are valid
// only during the call.
type PredictionAnswers struct {
	ItemID, Model, Answers []byte
}

// EachPredictionAnswers is EachPrediction without a copy of each row: the row is reused, and
// fn must copy what it keeps.
func (s *Store) EachPredictionAnswers(ctx context.Context, projectID string, fn func(*PredictionAnswers) error) error {
	var afterItem, afterModel []byte
	var item, model, answers sql.RawBytes
	for {
		rows, err := s.db.WithContext(ctx).Raw(`SELECT item_id, model, answers FROM predictions
WHERE project_id = ? AND (item_id, model) > (?, ?)
ORDER BY item_id, model LIMIT ?`, projectID, string(afterItem), string(afterModel), truthPage).Rows()
		if err != nil {
			return translate(err)
		}
		n := 0
		for rows.Next() {
			if err := rows.Scan(&item, &model, &answers); err != nil {
				rows.Close()
				return err
			}
			n, afterItem, afterModel = n+1, append(afterItem[:0], item...), append(afterModel[:0], model...)
			if err := fn(&PredictionAnswers{ItemID: item, Model: model, Answers: answers}); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil || n < truthPage {
			return translate(err)
		}
	}
}

// CountRow is a count of one value.
type CountRow struct {
	Value string
	Count int64
}

// CriteriaStatusCounts counts a project's criteria by status.
func (s *Store) CriteriaStatusCounts(ctx context.Context, projectID string) ([]CountRow, error) {
	var out []CountRow
	err := s.db.WithContext(ctx).Raw(`SELECT status AS value, COUNT(*) AS count FROM criteria
WHERE project_id = ? GROUP BY status ORDER BY status`, projectID).Scan(&out).Error
	return out, translate(err)
}

// DoneItemsWithoutMeta counts a project's decided items whose metadata lacks a key.
func (s *Store) DoneItemsWithoutMeta(ctx context.Context, projectID, key string) (int64, error) {
	expr := "json_extract(meta, ?) IS NULL"
	arg := any("$." + jsonPathKey(key))
	if s.dialect == Postgres {
		expr, arg = "(meta::jsonb ->> ?) IS NULL", key
	}
	var n int64
	err := s.db.WithContext(ctx).Raw(`SELECT COUNT(*) FROM items WHERE project_id = ? AND stage = ? AND gt_revision > 0 AND (meta IS NULL OR `+expr+`)`,
		projectID, flow.StageDone, arg).Scan(&n).Error
	return n, translate(err)
}

// jsonPathKey quotes a key for an SQLite JSON path.
func jsonPathKey(key string) string {
	b, _ := json.Marshal(key)
	return string(b)
}

// FamilyRow is one item of a seed family: its id, stage and metadata.
type FamilyRow struct {
	ID, ExternalID string
	Stage          flow.Stage
	Meta           JSON
}

// SeedKey is the metadata key that ties a seed to its perturbed items (a seed family).
const SeedKey = "seed_id"

// SeedFamily lists up to limit items of a project whose metadata seed_id is seed, in external
// id order.
func (s *Store) SeedFamily(ctx context.Context, projectID, seed string, limit int) ([]FamilyRow, error) {
	var out []FamilyRow
	query, args := s.seedFamilyQuery(projectID, seed, limit)
	err := s.db.WithContext(ctx).Raw(query, args...).Scan(&out).Error
	return out, translate(err)
}

// seedFamilyQuery is SeedFamily's query with its arguments.
func (s *Store) seedFamilyQuery(projectID, seed string, limit int) (string, []any) {
	// note: the expression of migration 00052's index, so that this is an index lookup
	one := "SELECT id, external_id, stage, meta FROM items WHERE project_id = ? AND " + migrations.SeedExpr(s.dialect == Postgres) + " = ?"
	n, err := strconv.ParseInt(seed, 10, 64)
	if err != nil || s.dialect != SQLite {
		return one + " ORDER BY external_id LIMIT ?", []any{projectID, seed, limit}
	}
	// note: SQLite's json_extract gives a seed id written as a JSON number as a number, which
	// equals no text, where PostgreSQL's ->> gives its text: both forms are the seed, each one
	// range of the index
	return one + " UNION ALL " + one + " ORDER BY external_id LIMIT ?", []any{projectID, seed, projectID, n, limit}
}
