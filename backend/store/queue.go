package store

import (
	"context"
	"slices"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store/rawscan"
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

// workQuery is one stage's queue as SQL: the rows a person could be given next.
type workQuery struct {
	id, from, where, order, lockTable string
	args                              []any
}

// inStage is the condition that an item is in stage ?, and stageOrder the queue's order, the
// item ids.
//
// note: written as a range (with the stage twice in the arguments) so that PostgreSQL keeps
// the stage in the sort order and walks items_queue_idx (project_id, stage, id). With
// i.stage = ? it drops the constant from ORDER BY, and with the project's items in one stage
// for the most part it walks the primary key in id order instead, reading every item that
// has moved on (the decided items, all at the front of the walk) on every claim: 3,940 rows
// per claim after a 90-second load test, a number that grows with the project.
const (
	inStage    = "i.stage >= ? AND i.stage <= ?"
	stageOrder = "i.stage, i.id"
)

// itemWork: items of a stage that the user may work (mayWork, with what the project allows: in
// a language they read, never worked in another stage, never given this work before) and that
// have fewer than slots slots taken (plus the item's extra labels). When an item's passes are each their own queue, only the
// slots of the pass it is collecting count (i.pass; it stays 0 otherwise, where every
// assignment counts).
func itemWork(projectID, userID string, stage flow.Stage, slots int, at time.Time, allowed Allowed) workQuery {
	rules, args := allOf(mayWork(stage, "?", userID, allowed))
	return workQuery{id: "i.id", from: "FROM items i", order: stageOrder, lockTable: "i",
		where: `i.project_id = ? AND ` + inStage + ` AND i.flag IS NULL
  AND ` + rules + `
  AND (SELECT COUNT(*) FROM assignments a WHERE a.item_id = i.id AND a.stage = ? AND a.pass >= i.pass AND ` + slotTaken + `) < ? + i.extra_labels`,
		args: append(append([]any{projectID, stage, stage}, args...), stage, at, slots)}
}

// adjudicationWork: items waiting for adjudication that the user may work (mayWork) and that
// nobody is adjudicating.
func adjudicationWork(projectID, userID string, at time.Time) workQuery {
	rules, args := allOf(mayWork(flow.StageAdjudicate, "?", userID, Allowed{}))
	return workQuery{id: "i.id", from: "FROM items i", order: stageOrder, lockTable: "i",
		where: `i.project_id = ? AND ` + inStage + ` AND i.flag IS NULL
  AND ` + rules + `
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.stage = 'adjudicate' AND ` + slotTaken + `)`,
		args: append(append([]any{projectID, flow.StageAdjudicate, flow.StageAdjudicate}, args...), at)}
}

// reviewWork: submitted labels waiting for review that the user may review (mayWork: of an
// item in a language they read and did not work on in another stage, a label they have not
// reviewed before) and that nobody is reviewing. One reviewer may review every label of an
// item.
func reviewWork(projectID, userID string, at time.Time) workQuery {
	rules, args := allOf(mayWork(flow.StageReview, "?", userID, Allowed{}))
	return workQuery{id: "l.id", from: "FROM assignments l JOIN items i ON i.id = l.item_id AND i.flag IS NULL",
		order: "l.submitted_at, l.id", lockTable: "l",
		where: `l.project_id = ? AND l.stage = 'label' AND l.status = 'submitted' AND l.review_status = 'pending'
  AND ` + rules + `
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.target_id = l.id AND a.stage = 'review' AND ` + slotTaken + `)`,
		args: append(append([]any{projectID}, args...), at)}
}

// candidates returns up to limit ids of the queue, oldest first, locked on PostgreSQL.
func (s *Store) candidates(ctx context.Context, q workQuery, limit int) ([]string, error) {
	var ids []string
	sql := "SELECT " + q.id + " " + q.from + " WHERE " + q.where + " ORDER BY " + q.order + " LIMIT ?" + s.skipLocked(q.lockTable)
	err := s.db.WithContext(ctx).Raw(sql, append(q.args, limit)...).Scan(&ids).Error
	return ids, translate(err)
}

// count counts the queue, up to limit.
func (s *Store) count(ctx context.Context, q workQuery, limit int) (int64, error) {
	var n int64
	sql := "SELECT COUNT(*) FROM (SELECT " + q.id + " " + q.from + " WHERE " + q.where + " LIMIT ?) x"
	err := s.db.WithContext(ctx).Raw(sql, append(q.args, limit)...).Scan(&n).Error
	return n, translate(err)
}

// NextAdjudicationCandidates returns up to limit items the user may adjudicate.
func (s *Store) NextAdjudicationCandidates(ctx context.Context, projectID, userID string, limit int, at time.Time) ([]string, error) {
	return s.candidates(ctx, adjudicationWork(projectID, userID, at), limit)
}

// NextReviewCandidates returns up to limit labels the user may review.
func (s *Store) NextReviewCandidates(ctx context.Context, projectID, userID string, limit int, at time.Time) ([]string, error) {
	return s.candidates(ctx, reviewWork(projectID, userID, at), limit)
}

// AvailableItems counts the items of a stage the user could still be given, up to limit.
func (s *Store) AvailableItems(ctx context.Context, projectID, userID string, stage flow.Stage, slots, limit int, at time.Time, allowed Allowed) (int64, error) {
	return s.count(ctx, itemWork(projectID, userID, stage, slots, at, allowed), limit)
}

// AvailableReviews counts labels the user could review, up to limit.
func (s *Store) AvailableReviews(ctx context.Context, projectID, userID string, limit int, at time.Time) (int64, error) {
	return s.count(ctx, reviewWork(projectID, userID, at), limit)
}

// AvailableAdjudications counts items the user could adjudicate, up to limit.
func (s *Store) AvailableAdjudications(ctx context.Context, projectID, userID string, limit int, at time.Time) (int64, error) {
	return s.count(ctx, adjudicationWork(projectID, userID, at), limit)
}

// FirstStage records that the user works the item in stage, unless they already did in some
// stage, and returns the stage they first worked it in. Two transactions that record different
// stages for the same person and item meet on the primary key: the second waits for the first
// and then sees its stage, so the rule holds under concurrency.
func (s *Store) FirstStage(ctx context.Context, itemID, userID string, stage flow.Stage) (flow.Stage, error) {
	db := s.db.WithContext(ctx)
	var inserted []flow.Stage
	err := db.Raw(`INSERT INTO item_people (item_id, user_id, stage, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT (item_id, user_id) DO NOTHING RETURNING stage`, itemID, userID, stage, now()).Scan(&inserted).Error
	if err != nil || len(inserted) == 1 {
		return stage, translate(err)
	}
	return s.WorkedStage(ctx, itemID, userID) // note: the person was here before; their first stage decides
}

// ReviewSlotTaken reports whether a label already has a live or submitted review other than
// except.
func (s *Store) ReviewSlotTaken(ctx context.Context, labelID, except string, at time.Time) (bool, error) {
	var n int64
	err := s.db.WithContext(ctx).Table("assignments a").
		Where("a.target_id = ? AND a.stage = 'review' AND a.id <> ? AND "+slotTaken, labelID, except, at).Count(&n).Error
	return n > 0, translate(err)
}

// held starts the SQL of a live assignment a (its lease is ?) on the work named after it.
// note: while someone holds the work it is not stuck; an item of overlap n with a slot held and
// another that nobody may take shows as stuck again once the held one is submitted.
const held = "SELECT 1 FROM assignments a WHERE a.status = 'active' AND a.lease_expires_at > ? AND "

// hasRole is the SQL condition that member m holds role ? (roles are stored comma-separated).
const hasRole = `(',' || m.roles || ',') LIKE ?`

// stuckWork: the waiting work of a stage that no current member can ever be given. With
// byLanguage, the work in a language that no member with the stage's role reads; otherwise the
// rest of it: some member reads it, but no member with the role may work it (mayWork, with what
// the project allows). Administrators who are not members do not count. Work someone holds
// (a live assignment in the stage, as a hand-off to a named person makes) is not stuck while
// they hold it.
func stuckWork(projectID string, stage flow.Stage, role string, byLanguage bool, allowed Allowed) workQuery {
	like := "%," + role + ",%"
	member := `SELECT 1 FROM project_members m WHERE m.project_id = i.project_id AND ` + hasRole + ` AND `
	rules := mayWork(stage, "m.user_id", "", allowed)
	reads, _ := allOf(only(rules, RuleLanguage))
	unread := `i.language <> '' AND NOT EXISTS (` + member + reads + `)`
	q := workQuery{id: "i.id", from: "FROM items i", order: stageOrder,
		where: `i.project_id = ? AND ` + inStage + ` AND i.flag IS NULL` + "\n  AND NOT EXISTS (" + held + "a.item_id = i.id AND a.stage = ?)",
		args:  []any{projectID, stage, stage, now(), stage}}
	if stage == flow.StageReview {
		q = workQuery{id: "l.id", from: "FROM assignments l JOIN items i ON i.id = l.item_id", order: "l.submitted_at, l.id",
			where: `l.project_id = ? AND l.stage = 'label' AND l.status = 'submitted' AND l.review_status = 'pending' AND i.flag IS NULL` +
				"\n  AND NOT EXISTS (" + held + "a.target_id = l.id AND a.stage = 'review')",
			args: []any{projectID, now()}}
	}
	if byLanguage {
		q.where += "\n  AND " + unread
		q.args = append(q.args, like)
		return q
	}
	all, args := allOf(rules)
	q.where += "\n  AND NOT (" + unread + ")\n  AND NOT EXISTS (" + member + all + ")"
	q.args = append(append(q.args, like, like), args...)
	return q
}

// StuckWork counts a stage's waiting work that no current member can be given with what the
// project allows (up to limit) and returns the first ids (items, or labels for reviews).
func (s *Store) StuckWork(ctx context.Context, projectID string, stage flow.Stage, role string, limit int, allowed Allowed) (int64, []string, error) {
	q := stuckWork(projectID, stage, role, false, allowed)
	n, err := s.count(ctx, q, limit)
	if err != nil || n == 0 {
		return n, nil, err
	}
	var ids []string
	sql := "SELECT " + q.id + " " + q.from + " WHERE " + q.where + " ORDER BY " + q.order + " LIMIT 20"
	err = s.db.WithContext(ctx).Raw(sql, q.args...).Scan(&ids).Error
	return n, ids, translate(err)
}

// StuckLanguages counts, per language, a stage's waiting work that no member with the role
// reads (up to limit each), most first.
func (s *Store) StuckLanguages(ctx context.Context, projectID string, stage flow.Stage, role string, limit int) ([]LanguageStuck, error) {
	q := stuckWork(projectID, stage, role, true, Allowed{})
	var out []LanguageStuck
	sql := "SELECT i.language AS language, COUNT(*) AS count " + q.from + " WHERE " + q.where + " GROUP BY i.language ORDER BY count DESC, i.language"
	err := s.db.WithContext(ctx).Raw(sql, q.args...).Scan(&out).Error
	for i := range out {
		out[i].Count = min(out[i].Count, int64(limit))
	}
	return out, translate(err)
}

// StuckIDs returns the first ids of a stage's waiting work in one language that no member with
// the role reads.
func (s *Store) StuckIDs(ctx context.Context, projectID string, stage flow.Stage, role, language string) ([]string, error) {
	q := stuckWork(projectID, stage, role, true, Allowed{})
	var ids []string
	sql := "SELECT " + q.id + " " + q.from + " WHERE " + q.where + " AND i.language = ? ORDER BY " + q.order + " LIMIT 20"
	err := s.db.WithContext(ctx).Raw(sql, append(q.args, language)...).Scan(&ids).Error
	return ids, translate(err)
}

// NextItem returns the first item of a stage's queue the user may claim (see itemWork), one that
// nobody holds first (see unheld), other than those in tried, locked on PostgreSQL; nil if none.
func (s *Store) NextItem(ctx context.Context, projectID, userID string, stage flow.Stage, slots int, at time.Time, tried []string, allowed Allowed) (*Item, error) {
	q := itemWork(projectID, userID, stage, slots, at, allowed)
	if len(tried) > 0 {
		q.where += " AND i.id NOT IN ?"
		q.args = append(q.args, tried)
	}
	var its []Item
	for _, q := range []workQuery{unheld(q, stage, at), q} {
		if err := rawscan.Into(s.db.WithContext(ctx).Raw(s.nextItemSQL(q), q.args...), &its); err != nil {
			return nil, translate(err)
		} else if len(its) > 0 {
			return &its[0], nil
		}
	}
	return nil, nil
}

// unheld narrows an item queue to the items nobody holds a live assignment on in the stage.
// note: else people claiming together all get the front item and submit its labels together,
// each waiting under the item's lock for the one before to reach the disk (17.5 % of the
// database's time at 16 clients); LIMIT 1 OFFSET 0 keeps it one probe per item.
func unheld(q workQuery, stage flow.Stage, at time.Time) workQuery {
	q.where += "\n  AND NOT EXISTS (" + held + "a.item_id = i.id AND a.stage = ? LIMIT 1 OFFSET 0)"
	q.args = append(slices.Clip(q.args), at, stage)
	return q
}

// nextItemSQL is the claim's query: the first item of the queue, whole, locked.
func (s *Store) nextItemSQL(q workQuery) string {
	return "SELECT i.* " + q.from + " WHERE " + q.where + " ORDER BY " + q.order + " LIMIT 1" + s.skipLocked(q.lockTable)
}

// NewClaim is an assignment to record for an item its transaction has locked.
type NewClaim struct {
	Assignment *Assignment
	Slots      int       // how many assignments the item takes in the stage
	Pass       int       // the pass the item collects labels for: earlier passes' labels hold no slot
	At         time.Time // leases alive at this time hold a slot
	Event      Event     // the claim's audit event
	// Counted says the queue's query counted the item's free slots in this transaction; on
	// SQLite (one connection, one transaction at a time) that count still holds.
	Counted bool
}

// ClaimItem records a claim of a locked item if the item still has a free slot in the stage
// and the person's first stage on the item is this one (recording it when they had none), and
// reports whether it did. On PostgreSQL it is one statement: the slots are counted in the
// snapshot of the statement, taken after the item was locked, so a claim that committed while
// this transaction waited is seen; the person's first stage meets concurrent claims on the
// item_people key (a claim that loses there is refused and the caller tries another item). On
// SQLite the one connection makes the transaction the only one, so the queue's own count holds
// when it was made (Counted); otherwise the slots are counted here.
func (s *Store) ClaimItem(ctx context.Context, c NewClaim) (bool, error) {
	a := c.Assignment
	a.fillNew()
	if s.dialect != Postgres {
		if !c.Counted {
			if n, err := s.TakenSlots(ctx, a.ItemID, a.Stage, c.Pass, "", c.At); err != nil || int(n) >= c.Slots {
				return false, err
			}
		}
		if first, err := s.FirstStage(ctx, a.ItemID, a.UserID, a.Stage); err != nil || first != a.Stage {
			return false, err
		}
		if err := s.CreateAssignment(ctx, a); err != nil {
			return false, err
		}
		return true, s.Audit(ctx, c.Event.ProjectID, c.Event.ActorID, c.Event.Action, c.Event.Target, c.Event.Before, c.Event.After)
	}
	ar, err := s.rowOf(ctx, a)
	if err != nil {
		return false, err
	}
	er, err := s.eventRow(ctx, c.Event)
	if err != nil {
		return false, err
	}
	ins := ar.insertFrom("n, f WHERE n.taken < ? AND f.stage = ?", nil)
	ins.SQL += " RETURNING id"
	ins.Args = append(ins.Args, c.Slots, a.Stage)
	ev := er.insertFrom("ins", nil)
	sql := `WITH n AS (SELECT COUNT(*) AS taken FROM assignments a WHERE a.item_id = ? AND a.stage = ? AND a.pass >= ? AND ` + slotTaken + `),
ip AS (INSERT INTO item_people (item_id, user_id, stage, created_at)
  SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TIMESTAMP) FROM n WHERE n.taken < ?
  ON CONFLICT (item_id, user_id) DO NOTHING RETURNING stage),
f AS (SELECT COALESCE((SELECT stage FROM ip), (SELECT stage FROM item_people WHERE item_id = ? AND user_id = ?)) AS stage),
ins AS (` + ins.SQL + `),
ev AS (` + ev.SQL + `)
SELECT COUNT(*) FROM ins`
	args := []any{a.ItemID, a.Stage, c.Pass, c.At, a.ItemID, a.UserID, a.Stage, a.CreatedAt, c.Slots, a.ItemID, a.UserID}
	args = append(append(args, ins.Args...), ev.Args...)
	var n []int64
	if err := rawscan.Into(s.db.WithContext(ctx).Raw(sql, args...), &n); err != nil {
		return false, translate(err)
	}
	return len(n) == 1 && n[0] == 1, nil
}
