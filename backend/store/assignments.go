package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/workflow/flow"
)

// Assignment is one person's work on one item in one stage.
type Assignment struct {
	ID             string                `gorm:"primaryKey" json:"id"`
	ProjectID      string                `json:"project_id"`
	ItemID         string                `json:"item_id"`
	UserID         string                `json:"user_id"`
	Stage          flow.Stage            `json:"stage"`
	Status         flow.AssignmentStatus `json:"status"`
	SchemaVersion  int                   `json:"schema_version"`
	Seed           int64                 `json:"-"`
	Shuffle        JSON                  `json:"-"`
	LeaseExpiresAt time.Time             `json:"lease_expires_at"`
	Draft          JSON                  `json:"draft,omitempty"`
	DraftSource    *string               `json:"draft_source,omitempty"`
	Version        int                   `json:"version"`
	Answers        JSON                  `json:"answers,omitempty"`
	TargetID       *string               `json:"target_id,omitempty"`
	Pass           int                   `json:"pass"` // the pass of a form with passes (0: the first)
	RoundID        *string               `json:"-"`    // the calibration round of calibration work
	Verdict        *flow.Verdict         `json:"verdict,omitempty"`
	Comment        *string               `json:"comment,omitempty"`
	Comments       JSON                  `json:"comments,omitempty"`
	Rationale      *string               `json:"rationale,omitempty"`
	Confidence     *int                  `json:"confidence,omitempty"`
	ErrorCategory  *string               `json:"error_category,omitempty"`
	ReviewStatus   flow.ReviewStatus     `json:"review_status"`
	Effective      JSON                  `json:"effective,omitempty"`
	SubmitKey      *string               `json:"-"`
	SkipReason     *string               `json:"skip_reason,omitempty"`
	TimeSpentMS    int64                 `gorm:"column:time_spent_ms" json:"time_spent_ms"`
	GoldCorrect    *bool                 `json:"-"` // a label of a gold item: whether it matched the gold answers
	CreatedAt      time.Time             `json:"created_at"`
	SubmittedAt    *time.Time            `json:"submitted_at,omitempty"`
}

// CreateAssignment inserts an assignment; ErrConflict if the person already had this item in
// this stage.
func (s *Store) CreateAssignment(ctx context.Context, a *Assignment) error {
	if a.ID == "" {
		a.ID = newID()
	}
	a.CreatedAt = now()
	if a.ReviewStatus == "" {
		a.ReviewStatus = flow.ReviewNone
	}
	return translate(s.db.WithContext(ctx).Create(a).Error)
}

// Assignment returns an assignment by id.
func (s *Store) Assignment(ctx context.Context, id string) (*Assignment, error) {
	var a Assignment
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&a).Error
	return &a, translate(err)
}

// AssignmentForUpdate returns an assignment locked for the rest of the transaction.
func (s *Store) AssignmentForUpdate(ctx context.Context, id string) (*Assignment, error) {
	var a Assignment
	q := s.db.WithContext(ctx).Where("id = ?", id)
	if s.dialect == Postgres {
		q = q.Clauses(lockingUpdate())
	}
	err := q.Take(&a).Error
	return &a, translate(err)
}

// SaveAssignment writes every field of an assignment.
func (s *Store) SaveAssignment(ctx context.Context, a *Assignment) error {
	return translate(s.db.WithContext(ctx).Save(a).Error)
}

// ActiveAssignments returns the person's open assignments in a stage of a project, oldest first.
func (s *Store) ActiveAssignments(ctx context.Context, projectID, userID string, stage flow.Stage) ([]Assignment, error) {
	as := []Assignment{}
	err := s.db.WithContext(ctx).Where("project_id = ? AND user_id = ? AND stage = ? AND status = ?",
		projectID, userID, stage, flow.AssignActive).Order("created_at, id").Find(&as).Error
	return as, translate(err)
}

// ItemAssignments returns the assignments of an item, optionally of one stage, oldest first.
func (s *Store) ItemAssignments(ctx context.Context, itemID string, stage flow.Stage) ([]Assignment, error) {
	q := s.db.WithContext(ctx).Where("item_id = ?", itemID).Order("created_at, id")
	if stage != "" {
		q = q.Where("stage = ?", stage)
	}
	var as []Assignment
	return as, translate(q.Find(&as).Error)
}

// AssignmentsOfItems returns the assignments of many items, keyed by item id.
func (s *Store) AssignmentsOfItems(ctx context.Context, itemIDs []string) (map[string][]Assignment, error) {
	var as []Assignment
	err := s.db.WithContext(ctx).Where("item_id IN ?", itemIDs).Order("created_at, id").Find(&as).Error
	out := map[string][]Assignment{}
	for _, a := range as {
		out[a.ItemID] = append(out[a.ItemID], a)
	}
	return out, translate(err)
}

// TakenSlots counts an item's assignments in a stage that hold a slot: submitted (and not
// rejected) ones and active ones whose lease has not expired, other than except.
func (s *Store) TakenSlots(ctx context.Context, itemID string, stage flow.Stage, pass int, except string, at time.Time) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&Assignment{}).
		Where("item_id = ? AND stage = ? AND pass >= ? AND id <> ?", itemID, stage, pass, except).
		Where("status = ? OR (status = ? AND lease_expires_at > ?)", flow.AssignSubmitted, flow.AssignActive, at).
		Count(&n).Error
	return n, translate(err)
}

// AddRevision keeps one save of an assignment's answers.
func (s *Store) AddRevision(ctx context.Context, assignmentID string, version int, kind flow.RevisionKind, answers JSON) error {
	return translate(s.db.WithContext(ctx).Exec(
		"INSERT INTO assignment_revisions (assignment_id, version, kind, answers, created_at) VALUES (?, ?, ?, ?, ?)",
		assignmentID, version, kind, answers, now()).Error)
}

// AddPassRevision keeps one save made in a pass of a form with passes, with the pass's key and
// the names of the inputs it showed (a JSON list).
func (s *Store) AddPassRevision(ctx context.Context, assignmentID string, version int, kind flow.RevisionKind, answers JSON, pass string, inputs JSON) error {
	return translate(s.db.WithContext(ctx).Exec(
		"INSERT INTO assignment_revisions (assignment_id, version, kind, answers, pass, inputs, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		assignmentID, version, kind, answers, pass, inputs, now()).Error)
}

// Revision is one kept save of an assignment.
type Revision struct {
	AssignmentID string    `json:"-"`
	Version      int       `json:"version"`
	Kind         string    `json:"kind"`
	Answers      JSON      `json:"answers"`
	Pass         *string   `json:"pass,omitempty"`   // the pass the save was made in
	Inputs       JSON      `json:"inputs,omitempty"` // the inputs that pass showed
	CreatedAt    time.Time `json:"created_at"`
}

// Revisions returns every save of an assignment, oldest first.
func (s *Store) Revisions(ctx context.Context, assignmentID string) ([]Revision, error) {
	var rs []Revision
	err := s.db.WithContext(ctx).Table("assignment_revisions").Where("assignment_id = ?", assignmentID).Order("version").Find(&rs).Error
	return rs, translate(err)
}

// Throughput is one person's submitted work in a project.
type Throughput struct {
	UserID    string     `json:"user_id"`
	Name      string     `json:"name"`
	Stage     flow.Stage `json:"stage"`
	Submitted int64      `json:"submitted"`
	Today     int64      `json:"today"`
	MedianMS  int64      `json:"-"`
}

// ProjectThroughput counts submitted assignments per person and stage; calibration work is
// not production throughput.
func (s *Store) ProjectThroughput(ctx context.Context, projectID string, since time.Time) ([]Throughput, error) {
	out := []Throughput{}
	err := s.db.WithContext(ctx).Table("assignments a").
		Select("a.user_id, u.name, a.stage, COUNT(*) AS submitted, SUM(CASE WHEN a.submitted_at >= ? THEN 1 ELSE 0 END) AS today", since).
		Joins("JOIN users u ON u.id = a.user_id").
		Where("a.project_id = ? AND a.status IN ? AND a.stage <> ?", projectID, []flow.AssignmentStatus{flow.AssignSubmitted, flow.AssignRejected}, flow.StageCalibration).
		Group("a.user_id, u.name, a.stage").Order("u.name, a.stage").Scan(&out).Error
	return out, translate(err)
}

// Progress is one person's work in one stage of a project.
type Progress struct {
	Stage     flow.Stage `json:"stage"`
	DoneToday int64      `json:"done_today"`
	DoneTotal int64      `json:"done_total"`
}

// UserProgress counts the person's submitted assignments per stage, in total and since a time.
func (s *Store) UserProgress(ctx context.Context, projectID, userID string, since time.Time) ([]Progress, error) {
	out := []Progress{}
	err := s.db.WithContext(ctx).Model(&Assignment{}).
		Select("stage, COUNT(*) AS done_total, SUM(CASE WHEN submitted_at >= ? THEN 1 ELSE 0 END) AS done_today", since).
		Where("project_id = ? AND user_id = ? AND submitted_at IS NOT NULL", projectID, userID).
		Group("stage").Order("stage").Scan(&out).Error
	return out, translate(err)
}

// DeleteUntouchedAssignment removes an open assignment that holds no saved answers; it reports
// whether one was removed.
func (s *Store) DeleteUntouchedAssignment(ctx context.Context, id string) (bool, error) {
	res := s.db.WithContext(ctx).Where("id = ? AND status = ? AND version = 0", id, flow.AssignActive).Delete(&Assignment{})
	return res.RowsAffected == 1, translate(res.Error)
}

// ExpireOpenAssignments ends a person's open assignments of the given stages in a project
// (their drafts stay) and returns their ids.
func (s *Store) ExpireOpenAssignments(ctx context.Context, projectID, userID string, stages []flow.Stage) ([]string, error) {
	var ids []string
	db := s.db.WithContext(ctx)
	q := db.Model(&Assignment{}).Where("project_id = ? AND user_id = ? AND status = ? AND stage IN ?", projectID, userID, flow.AssignActive, stages)
	if err := q.Pluck("id", &ids).Error; err != nil || len(ids) == 0 {
		return ids, translate(err)
	}
	err := db.Model(&Assignment{}).Where("id IN ?", ids).Update("status", flow.AssignExpired).Error
	return ids, translate(err)
}
