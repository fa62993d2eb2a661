package store

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store/bulk"
	"gorm.io/gorm"
)

// Item is one unit to label.
type Item struct {
	ID         string `gorm:"primaryKey"`
	ProjectID  string
	ExternalID string
	ParentID   *string
	Inputs     JSON
	// Drafted holds, for each input a refinement stage rewrote (a checklist), its value as
	// imported; nil when none was.
	Drafted JSON
	Meta    JSON
	// Language is the item's canonical BCP 47 tag, "" when it has none.
	Language   string
	Stage      flow.Stage
	Flag       JSON
	DropReason *string
	SpotCheck  bool
	Gold       JSON // the gold answers of an item in stage gold
	GTRevision int  `gorm:"column:gt_revision"`
	// Pass is the pass whose labels the item is collecting when its form's passes are each their
	// own queue (tasks.PassOwnQueue); 0 otherwise.
	Pass int
	// ExtraLabels are the labels the item takes beyond the policy's overlap (adaptive overlap).
	ExtraLabels int
	Version     int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Item returns an item of a project.
func (s *Store) Item(ctx context.Context, projectID, id string) (*Item, error) {
	var it Item
	err := s.db.WithContext(ctx).Where("project_id = ? AND id = ?", projectID, id).Take(&it).Error
	return &it, translate(err)
}

// ItemForUpdate returns an item locked for the rest of the transaction (PostgreSQL; SQLite
// serialises writers anyway).
func (s *Store) ItemForUpdate(ctx context.Context, id string) (*Item, error) {
	var it Item
	q := s.db.WithContext(ctx).Where("id = ?", id)
	if s.dialect == Postgres {
		q = q.Clauses(lockingUpdate())
	}
	err := q.Take(&it).Error
	return &it, translate(err)
}

// ItemByExternalID finds an item by its id in the source dataset.
func (s *Store) ItemByExternalID(ctx context.Context, projectID, externalID string) (*Item, error) {
	var it Item
	err := s.db.WithContext(ctx).Where("project_id = ? AND external_id = ?", projectID, externalID).Take(&it).Error
	return &it, translate(err)
}

// UpsertResult says whether an import line created or updated an item.
type UpsertResult int

// Outcomes of UpsertItem.
const (
	Inserted UpsertResult = iota + 1
	Updated
	Unchanged
)

// UpsertItem inserts the item, or updates inputs and meta of the item with the same external id.
// Items already worked on keep their stage.
func (s *Store) UpsertItem(ctx context.Context, it *Item) (UpsertResult, error) {
	existing, err := s.ItemByExternalID(ctx, it.ProjectID, it.ExternalID)
	switch {
	case err == ErrNotFound:
		if it.ID == "" {
			it.ID = newID()
		}
		t := now()
		it.CreatedAt, it.UpdatedAt, it.Version = t, t, 1
		return Inserted, translate(s.db.WithContext(ctx).Create(it).Error)
	case err != nil:
		return 0, err
	}
	if string(existing.Inputs) == string(it.Inputs) && string(existing.Meta) == string(it.Meta) {
		*it = *existing
		return Unchanged, nil
	}
	res := s.db.WithContext(ctx).Model(&Item{}).Where("id = ?", existing.ID).Updates(map[string]any{
		"inputs": it.Inputs, "meta": it.Meta, "version": gorm.Expr("version + 1"), "updated_at": now(),
	})
	it.ID = existing.ID
	return Updated, translate(res.Error)
}

// SetItemStage moves an item to a stage, with an optional drop reason.
func (s *Store) SetItemStage(ctx context.Context, id string, stage flow.Stage, dropReason *string) error {
	return translate(s.db.WithContext(ctx).Model(&Item{}).Where("id = ?", id).Updates(map[string]any{
		"stage": stage, "drop_reason": dropReason, "version": gorm.Expr("version + 1"), "updated_at": now(),
	}).Error)
}

// MoveItem moves an item to a stage, with an optional drop reason, and writes its audit event,
// in one statement on PostgreSQL.
func (s *Store) MoveItem(ctx context.Context, id string, stage flow.Stage, dropReason *string, ev Event) error {
	return s.itemWith(ctx, Write{"UPDATE items SET stage = ?, drop_reason = ?, version = version + 1, updated_at = ? WHERE id = ?",
		[]any{stage, dropReason, now(), id}}, ev)
}

// WantMoreLabels has an item take one more label than it had in stage (the label stage) and
// writes its audit event.
func (s *Store) WantMoreLabels(ctx context.Context, id string, stage flow.Stage, ev Event) error {
	return s.itemWith(ctx, Write{"UPDATE items SET extra_labels = extra_labels + 1, stage = ?, version = version + 1, updated_at = ? WHERE id = ?",
		[]any{stage, now(), id}}, ev)
}

// RefineItem puts an item's refined inputs in place, keeps the drafted values of those it
// changed, moves the item to stage and writes its audit event.
func (s *Store) RefineItem(ctx context.Context, id string, inputs, drafted JSON, stage flow.Stage, ev Event) error {
	return s.itemWith(ctx, Write{"UPDATE items SET inputs = ?, drafted = ?, stage = ?, version = version + 1, updated_at = ? WHERE id = ?",
		[]any{inputs, drafted, stage, now(), id}}, ev)
}

// SetItemPass opens the next pass of an item whose passes are each their own queue, and writes
// its audit event.
func (s *Store) SetItemPass(ctx context.Context, id string, pass int, ev Event) error {
	return s.itemWith(ctx, Write{"UPDATE items SET pass = ?, version = version + 1, updated_at = ? WHERE id = ?",
		[]any{pass, now(), id}}, ev)
}

// itemWith writes an item's update and an audit event.
func (s *Store) itemWith(ctx context.Context, update Write, ev Event) error {
	er, err := s.eventRow(ctx, ev)
	if err != nil {
		return err
	}
	return s.apply(ctx, []Write{update, er.insert()}, "", nil, nil)
}

// SetItemFlag sets or clears (nil) an item's flag.
func (s *Store) SetItemFlag(ctx context.Context, id string, flag JSON) error {
	return translate(s.db.WithContext(ctx).Model(&Item{}).Where("id = ?", id).Updates(map[string]any{
		"flag": flag, "version": gorm.Expr("version + 1"), "updated_at": now(),
	}).Error)
}

// ItemFilter selects items for the lead's list.
type ItemFilter struct {
	Stage      flow.Stage
	Flagged    *bool
	ExternalID string
	After      string // cursor: the last id of the previous page
	Limit      int
}

// Items lists a project's items in id order, one page at a time.
func (s *Store) Items(ctx context.Context, projectID string, f ItemFilter) ([]Item, error) {
	q := s.db.WithContext(ctx).Where("project_id = ?", projectID).Order("id").Limit(f.Limit)
	if f.Stage != "" {
		q = q.Where("stage = ?", f.Stage)
	}
	if f.Flagged != nil && *f.Flagged {
		q = q.Where("flag IS NOT NULL")
	} else if f.Flagged != nil {
		q = q.Where("flag IS NULL")
	}
	if f.ExternalID != "" {
		q = q.Where("external_id = ?", f.ExternalID)
	}
	if f.After != "" {
		q = q.Where("id > ?", f.After)
	}
	var its []Item
	return its, translate(q.Find(&its).Error)
}

// StageCount is the number of items in one stage.
type StageCount struct {
	Stage   flow.Stage
	Flagged bool
	Count   int64
}

// ItemCounts counts a project's items by stage and flag; the calibration pool is not counted.
func (s *Store) ItemCounts(ctx context.Context, projectID string) ([]StageCount, error) {
	out := []StageCount{}
	err := s.db.WithContext(ctx).Model(&Item{}).
		Select("stage, flag IS NOT NULL AS flagged, COUNT(*) AS count").
		Where("project_id = ? AND stage <> ?", projectID, flow.StageCalibration).Group("stage, flag IS NOT NULL").Order("stage").Scan(&out).Error
	return out, translate(err)
}

// GroundTruth is one revision of an item's final answers.
type GroundTruth struct {
	ItemID     string `gorm:"primaryKey"`
	Revision   int    `gorm:"primaryKey"`
	Answers    JSON
	Provenance flow.Provenance
	DecidedBy  *string
	Rationale  *string
	Details    JSON
	// Texts keeps the free-text answers behind the decision, per question.
	Texts     JSON
	CreatedAt time.Time
}

// TableName names the ground truth table.
func (GroundTruth) TableName() string { return "ground_truth_revisions" }

// AddGroundTruth appends a revision to an item's ground truth; earlier ones stay.
func (s *Store) AddGroundTruth(ctx context.Context, gt *GroundTruth) error {
	db := s.db.WithContext(ctx)
	var revs []int
	if err := db.Raw(`UPDATE items SET gt_revision = gt_revision + 1, updated_at = ? WHERE id = ? RETURNING gt_revision`,
		now(), gt.ItemID).Scan(&revs).Error; err != nil {
		return translate(err)
	}
	if len(revs) != 1 {
		return ErrNotFound
	}
	gt.Revision, gt.CreatedAt = revs[0], now()
	return translate(db.Create(gt).Error)
}

// LatestGroundTruth returns the newest ground truth of each given item, keyed by item id.
func (s *Store) LatestGroundTruth(ctx context.Context, itemIDs []string) (map[string]*GroundTruth, error) {
	var gts []GroundTruth
	err := s.db.WithContext(ctx).Table("ground_truth_revisions g").
		Joins("JOIN items i ON i.id = g.item_id AND i.gt_revision = g.revision").
		Where("g.item_id IN ?", itemIDs).Select("g.*").Find(&gts).Error
	out := make(map[string]*GroundTruth, len(gts))
	for i := range gts {
		out[gts[i].ItemID] = &gts[i]
	}
	return out, translate(err)
}

// GroundTruthHistory returns every revision of an item's ground truth, oldest first.
func (s *Store) GroundTruthHistory(ctx context.Context, itemID string) ([]GroundTruth, error) {
	var gts []GroundTruth
	err := s.db.WithContext(ctx).Where("item_id = ?", itemID).Order("revision").Find(&gts).Error
	return gts, translate(err)
}

// Prediction is a model judge's answers for an item.
type Prediction struct {
	ItemID    string `gorm:"primaryKey"`
	Model     string `gorm:"primaryKey"`
	ProjectID string
	Answers   JSON
	CreatedAt time.Time
}

// UpsertPrediction stores or replaces a model's answers for an item.
func (s *Store) UpsertPrediction(ctx context.Context, p *Prediction) error {
	p.CreatedAt = now()
	return translate(s.db.WithContext(ctx).Clauses(onConflictUpdate([]string{"item_id", "model"}, "answers", "created_at")).Create(p).Error)
}

// Predictions returns every model's answers for an item.
func (s *Store) Predictions(ctx context.Context, itemID string) ([]Prediction, error) {
	var ps []Prediction
	err := s.db.WithContext(ctx).Where("item_id = ?", itemID).Order("model").Find(&ps).Error
	return ps, translate(err)
}

// PredictionsAt returns the predictions of one item of the project: the first predicted at or
// after the point r (0 ≤ r < 1) of the way from the project's first prediction to its last.
// With r drawn at random, any predicted item may come. Nil when the project has none.
func (s *Store) PredictionsAt(ctx context.Context, projectID string, r float64) ([]Prediction, error) {
	var first, last Prediction
	q := func() *gorm.DB { return s.db.WithContext(ctx).Where("project_id = ?", projectID) }
	if err := q().Order("created_at").Limit(1).Find(&first).Error; err != nil || first.ItemID == "" {
		return nil, translate(err)
	}
	if err := q().Order("created_at DESC").Limit(1).Find(&last).Error; err != nil {
		return nil, translate(err)
	}
	at := first.CreatedAt.Add(time.Duration(r * float64(last.CreatedAt.Sub(first.CreatedAt))))
	var pick Prediction
	if err := q().Where("created_at >= ?", at).Order("created_at").Limit(1).Find(&pick).Error; err != nil {
		return nil, translate(err)
	}
	if pick.ItemID == "" {
		pick = last
	}
	return s.Predictions(ctx, pick.ItemID)
}

// ItemsByExternalIDs returns the project's items with the given external ids, keyed by them.
func (s *Store) ItemsByExternalIDs(ctx context.Context, projectID string, externalIDs []string) (map[string]*Item, error) {
	var its []Item
	err := s.db.WithContext(ctx).Where("project_id = ? AND external_id IN ?", projectID, externalIDs).Find(&its).Error
	out := make(map[string]*Item, len(its))
	for i := range its {
		out[its[i].ExternalID] = &its[i]
	}
	return out, translate(err)
}

// InsertNewItems inserts the items whose external id the project lacks and returns the external
// ids it inserted; the unique index decides (bulk.InsertNew: COPY in a WithConnTx on PostgreSQL).
func (s *Store) InsertNewItems(ctx context.Context, its []*Item) (map[string]bool, error) {
	t := now()
	r := bulk.Rows{Table: "items", Columns: []string{"id", "project_id", "external_id", "parent_id", "inputs", "meta", "language",
		"stage", "spot_check", "gold", "gt_revision", "version", "created_at", "updated_at"}, Values: make([][]any, len(its))}
	for i, it := range its {
		it.ID, it.CreatedAt, it.UpdatedAt, it.Version = cmp.Or(it.ID, newID()), t, t, 1
		r.Values[i] = []any{it.ID, it.ProjectID, it.ExternalID, it.ParentID, it.Inputs, it.Meta, it.Language, string(it.Stage), it.SpotCheck, it.Gold, it.GTRevision, 1, t, t}
	}
	inserted, err := bulk.InsertNew(ctx, s.bulkTarget(), r, "project_id, external_id", "external_id")
	return inserted, translate(err)
}

// AddFirstGroundTruths writes revision 1 of the ground truth of items inserted with gt_revision 1.
func (s *Store) AddFirstGroundTruths(ctx context.Context, gts []*GroundTruth) error {
	t := now()
	r := bulk.Rows{Table: "ground_truth_revisions", Columns: []string{"item_id", "revision", "answers", "provenance", "decided_by",
		"rationale", "details", "texts", "created_at"}, Values: make([][]any, len(gts))}
	for i, gt := range gts {
		r.Values[i] = []any{gt.ItemID, 1, gt.Answers, string(gt.Provenance), gt.DecidedBy, gt.Rationale, gt.Details, gt.Texts, t}
	}
	return translate(bulk.Insert(ctx, s.bulkTarget(), r))
}

// bulkTarget is where bulk writes go: the transaction, with its connection in a WithConnTx.
func (s *Store) bulkTarget() bulk.Target {
	tx, _ := s.SQLTx()
	return bulk.Target{Tx: tx, Pool: s.sqlDB, Conn: s.conn, Postgres: s.dialect == Postgres}
}

// UpdateItemContent replaces an item's inputs, meta and language.
func (s *Store) UpdateItemContent(ctx context.Context, id string, inputs, meta JSON, language string) error {
	return translate(s.db.WithContext(ctx).Model(&Item{}).Where("id = ?", id).Updates(map[string]any{
		"inputs": inputs, "meta": meta, "language": language, "version": gorm.Expr("version + 1"), "updated_at": now(),
	}).Error)
}

// Analyze refreshes the planner's statistics of the named tables (items, predictions).
func (s *Store) Analyze(ctx context.Context, tables ...string) error {
	for _, t := range tables {
		if t != "items" && t != "predictions" {
			return fmt.Errorf("analyze %q: not a table imports fill", t)
		}
		if err := s.db.WithContext(ctx).Exec("ANALYZE " + t).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// DecideItem records an item's new ground truth (its revision is the item's next), moves the
// item to stage and writes the audit event, in one statement on PostgreSQL.
func (s *Store) DecideItem(ctx context.Context, gt *GroundTruth, stage flow.Stage, ev Event) error {
	t := now()
	gt.CreatedAt = t
	bump := Write{`UPDATE items SET gt_revision = gt_revision + 1, stage = ?, drop_reason = NULL, version = version + 1, updated_at = ?
WHERE id = ? RETURNING gt_revision`, []any{stage, t, gt.ItemID}}
	er, err := s.eventRow(ctx, ev)
	if err != nil {
		return err
	}
	var revs []int
	if s.dialect != Postgres {
		if err := s.db.WithContext(ctx).Raw(bump.SQL, bump.Args...).Scan(&revs).Error; err != nil || len(revs) != 1 {
			return missingRow(err)
		}
		gt.Revision = revs[0]
		gr, err := s.rowOf(ctx, gt)
		if err != nil {
			return err
		}
		return s.apply(ctx, []Write{gr.insert(), er.insert()}, "", nil, nil)
	}
	gr, err := s.rowOf(ctx, gt)
	if err != nil {
		return err
	}
	ins := gr.insertFrom("r", map[string]string{"revision": "r.gt_revision"})
	// note: the event is selected from r as the ground truth is, so that a decision that found
	// no item writes neither
	evIns := er.insertFrom("r", nil)
	sql := "WITH r AS (" + bump.SQL + "),\ng AS (" + ins.SQL + "),\nev AS (" + evIns.SQL + ")\nSELECT gt_revision FROM r"
	args := append(append(append([]any{}, bump.Args...), ins.Args...), evIns.Args...)
	if err := s.db.WithContext(ctx).Raw(sql, args...).Scan(&revs).Error; err != nil || len(revs) != 1 {
		return missingRow(err)
	}
	gt.Revision = revs[0]
	return nil
}

// missingRow is ErrNotFound for a statement that found no row, else the statement's error.
func missingRow(err error) error {
	if err != nil {
		return translate(err)
	}
	return ErrNotFound
}
