package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store/rawscan"
)

// Assignment is one person's work on one item in one stage.
type Assignment struct {
	ID             string `gorm:"primaryKey"`
	ProjectID      string
	ItemID         string
	UserID         string
	Stage          flow.Stage
	Status         flow.AssignmentStatus
	SchemaVersion  int
	Seed           int64
	Shuffle        JSON
	LeaseExpiresAt time.Time
	Draft          JSON
	DraftSource    *string
	Version        int
	Answers        JSON
	TargetID       *string
	Pass           int     // the pass of a form with passes (0: the first)
	RoundID        *string // the calibration round of calibration work
	Verdict        *flow.Verdict
	Comment        *string
	Comments       JSON
	Rationale      *string
	Confidence     *int
	ErrorCategory  *string
	ReviewStatus   flow.ReviewStatus
	Effective      JSON
	CorrectedBy    *string // a corrected label: the reviewer whose answers Effective holds
	SubmitKey      *string
	SkipReason     *string
	TimeSpentMS    int64 `gorm:"column:time_spent_ms"`
	GoldCorrect    *bool // a label of a gold item: whether it matched the gold answers
	CreatedAt      time.Time
	SubmittedAt    *time.Time
}

// CreateAssignment inserts an assignment; ErrConflict if the person already had this item in
// this stage.
func (s *Store) CreateAssignment(ctx context.Context, a *Assignment) error {
	a.fillNew()
	return translate(s.db.WithContext(ctx).Create(a).Error)
}

// fillNew sets a new assignment's id and review status (unless set) and its creation time.
func (a *Assignment) fillNew() {
	if a.ID == "" {
		a.ID = newID()
	}
	a.CreatedAt = now()
	if a.ReviewStatus == "" {
		a.ReviewStatus = flow.ReviewNone
	}
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

// RenewLease extends an open assignment's lease; it reports false, changing nothing, when the
// assignment is no longer open (submitted or ended since it was read).
func (s *Store) RenewLease(ctx context.Context, id string, until time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Exec("UPDATE assignments SET lease_expires_at = ? WHERE id = ? AND status = ?", until, id, flow.AssignActive)
	return res.RowsAffected == 1, translate(res.Error)
}

// SaveDraftIf writes the draft of an assignment still active at version and held by userID,
// as version+1 with its revision (pass and inputs nil outside a form with passes); it reports
// false, writing nothing, otherwise. The condition stands in for the row's lock: on PostgreSQL
// it is one statement, committed by itself.
func (s *Store) SaveDraftIf(ctx context.Context, id, userID string, version int, draft JSON, pass *string, inputs JSON) (bool, error) {
	upd, args := "UPDATE assignments SET draft = ?, version = version + 1 WHERE id = ? AND user_id = ? AND status = ? AND version = ?",
		[]any{draft, id, userID, flow.AssignActive, version}
	ins, rev := "INSERT INTO assignment_revisions (assignment_id, version, kind, answers, pass, inputs, created_at) ",
		[]any{flow.RevisionDraft, pass, inputs, now()}
	if len(inputs) == 0 {
		rev[2] = nil
	}
	if s.dialect == Postgres {
		var n int
		err := rawscan.Into(s.db.WithContext(ctx).Raw("WITH a AS ("+upd+" RETURNING id, version, draft), r AS ("+ins+
			"SELECT id, version, ?::text, draft, ?::text, ?::text, ?::timestamp FROM a) SELECT count(*) FROM a", append(args, rev...)...), &n)
		return n == 1, translate(err)
	}
	saved := false
	return saved, s.WithTx(ctx, func(tx *Store) error {
		res := tx.db.WithContext(ctx).Exec(upd, args...)
		if saved = res.RowsAffected == 1; res.Error != nil || !saved {
			return translate(res.Error)
		}
		return translate(tx.db.WithContext(ctx).Exec(ins+"VALUES (?, ?, ?, ?, ?, ?, ?)", append([]any{id, version + 1, flow.RevisionDraft, draft}, rev[1:]...)...).Error)
	})
}

// ExpireAssignment ends an open assignment (its draft stays); it reports false, changing
// nothing, when the assignment is no longer open.
func (s *Store) ExpireAssignment(ctx context.Context, id string) (bool, error) {
	res := s.db.WithContext(ctx).Exec("UPDATE assignments SET status = ? WHERE id = ? AND status = ?", flow.AssignExpired, id, flow.AssignActive)
	return res.RowsAffected == 1, translate(res.Error)
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
	w := RevisionWrite(assignmentID, version, kind, answers, "", nil)
	return translate(s.db.WithContext(ctx).Exec(w.SQL, w.Args...).Error)
}

// RevisionWrite is the insert of one save of an assignment's answers; a save made in a pass of
// a form with passes records the pass's key and the names of the inputs it showed (a JSON list).
func RevisionWrite(assignmentID string, version int, kind flow.RevisionKind, answers JSON, pass string, inputs JSON) Write {
	if pass == "" {
		return Write{"INSERT INTO assignment_revisions (assignment_id, version, kind, answers, created_at) VALUES (?, ?, ?, ?, ?)",
			[]any{assignmentID, version, kind, answers, now()}}
	}
	return Write{"INSERT INTO assignment_revisions (assignment_id, version, kind, answers, pass, inputs, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		[]any{assignmentID, version, kind, answers, pass, inputs, now()}}
}

// Revision is one kept save of an assignment.
type Revision struct {
	AssignmentID string
	Version      int
	Kind         string
	Answers      JSON
	Pass         *string // the pass the save was made in
	Inputs       JSON    // the inputs that pass showed
	CreatedAt    time.Time
}

// Revisions returns every save of an assignment, oldest first.
func (s *Store) Revisions(ctx context.Context, assignmentID string) ([]Revision, error) {
	var rs []Revision
	err := s.db.WithContext(ctx).Table("assignment_revisions").Where("assignment_id = ?", assignmentID).Order("version").Find(&rs).Error
	return rs, translate(err)
}

// Throughput is one person's submitted work in a project.
type Throughput struct {
	UserID    string
	Name      string
	Stage     flow.Stage
	Submitted int64
	Today     int64
	MedianMS  int64
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
	Stage     flow.Stage
	DoneToday int64
	DoneTotal int64
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
// (their drafts stay) and returns their ids. One statement decides and writes, so the status
// is checked on the row it changes: a submit that commits first (and holds the row's lock until
// then) keeps its assignment submitted, and only work still open when this commits expires.
func (s *Store) ExpireOpenAssignments(ctx context.Context, projectID, userID string, stages []flow.Stage) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Raw(`UPDATE assignments SET status = ?
WHERE project_id = ? AND user_id = ? AND status = ? AND stage IN ? RETURNING id`,
		flow.AssignExpired, projectID, userID, flow.AssignActive, stages).Scan(&ids).Error
	return ids, translate(err)
}

// LockedForSubmit is an assignment locked for its submit with what the submit changes after it:
// a review's label, and the item when the submit can move it on (PostgreSQL).
type LockedForSubmit struct {
	Assignment *Assignment
	Target     *Assignment // the label a review reviews; nil for other stages
	Item       *Item       // nil unless locked here
}

// AssignmentForSubmit locks an assignment, then a review's label, then its item when the
// submit can move it on (every stage but calibration, and a label only from pass fromPass on:
// earlier passes of one person's labels do not), in the order every path that locks them keeps,
// in one statement on PostgreSQL. On SQLite, whose writers are serialised anyway, the
// assignment and a review's label are read, and the caller reads the item when it needs it.
func (s *Store) AssignmentForSubmit(ctx context.Context, id string, fromPass int) (LockedForSubmit, error) {
	if s.dialect != Postgres {
		a, err := s.Assignment(ctx, id)
		if err != nil || a.Stage != flow.StageReview || a.TargetID == nil {
			return LockedForSubmit{Assignment: a}, err
		}
		l, err := s.Assignment(ctx, *a.TargetID)
		return LockedForSubmit{Assignment: a, Target: l}, err
	}
	var cols []string
	for _, c := range mustColumns(s, &Assignment{}) {
		cols = append(cols, "l."+c+" AS l__"+c)
	}
	for _, c := range mustColumns(s, &Item{}) {
		cols = append(cols, "it."+c+" AS it__"+c)
	}
	var rows []struct {
		Assignment `gorm:"embedded"`
		Target     Assignment `gorm:"embedded;embeddedPrefix:l__"`
		Item       Item       `gorm:"embedded;embeddedPrefix:it__"`
	}
	err := rawscan.Into(s.db.WithContext(ctx).Raw(`SELECT a.*, `+strings.Join(cols, ", ")+`
FROM (SELECT * FROM assignments WHERE id = ? FOR UPDATE) a
LEFT JOIN LATERAL (SELECT * FROM assignments t WHERE t.id = a.target_id AND a.stage = 'review' FOR UPDATE) l ON true
LEFT JOIN LATERAL (SELECT * FROM items i WHERE i.id = a.item_id AND a.stage <> 'calibration' AND (a.stage <> 'label' OR a.pass >= ?) FOR UPDATE) it ON true`,
		id, fromPass), &rows)
	if err != nil {
		return LockedForSubmit{}, translate(err)
	}
	if len(rows) == 0 {
		return LockedForSubmit{}, ErrNotFound
	}
	out := LockedForSubmit{Assignment: &rows[0].Assignment}
	if rows[0].Target.ID != "" {
		out.Target = &rows[0].Target
	}
	if rows[0].Item.ID != "" {
		out.Item = &rows[0].Item
	}
	return out, nil
}

// Submitted is what a submit writes: the assignment as it now is, its revision and its audit
// event.
type Submitted struct {
	Assignment *Assignment
	Revision   Write
	Event      Event
	// Labels asks for the item's label assignments as they are after the submit (the item
	// must be locked already): returned in one statement with the writes on PostgreSQL.
	Labels bool
}

// SaveAssignmentWith writes every field of an assignment and the given writes (one statement
// on PostgreSQL).
func (s *Store) SaveAssignmentWith(ctx context.Context, a *Assignment, writes ...Write) error {
	ar, err := s.rowOf(ctx, a)
	if err != nil {
		return err
	}
	return s.apply(ctx, append([]Write{ar.update("id")}, writes...), "", nil, nil)
}

// RecordSubmit writes a submit and returns the item's label assignments when asked.
func (s *Store) RecordSubmit(ctx context.Context, sub Submitted) ([]Assignment, error) {
	ar, err := s.rowOf(ctx, sub.Assignment)
	if err != nil {
		return nil, err
	}
	er, err := s.eventRow(ctx, sub.Event)
	if err != nil {
		return nil, err
	}
	writes := []Write{ar.update("id"), sub.Revision, er.insert()}
	if !sub.Labels {
		return nil, s.apply(ctx, writes, "", nil, nil)
	}
	var as []Assignment
	err = s.apply(ctx, writes, "SELECT * FROM assignments WHERE item_id = ? AND stage = ? ORDER BY created_at, id",
		[]any{sub.Assignment.ItemID, flow.StageLabel}, &as)
	for i := range as { // note: PostgreSQL's query does not see the statement's own update
		if as[i].ID == sub.Assignment.ID {
			as[i] = *sub.Assignment
		}
	}
	return as, err
}

// mustColumns returns the column names of a model.
func mustColumns(s *Store, model any) []string {
	st := &gorm.Statement{DB: s.db}
	if err := st.Parse(model); err != nil {
		panic(err)
	}
	return st.Schema.DBNames
}
