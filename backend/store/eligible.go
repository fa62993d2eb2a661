package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// WorkRule is one rule of who may work an item in a stage. The rules are written once, here, as
// SQL; every queue (itemWork, reviewWork, adjudicationWork), the count of work nobody can be
// given (stuckWork), the check of a hand-off to a named person (MayWork) and the reasons shown
// for stuck work read them, so the person a claim would give work to is the person a hand-off
// accepts. How many may work an item (its slots) is the queue's, not a rule of the person.
type WorkRule string

// The rules, in the order they are checked.
const (
	// RuleLanguage: the person reads the item's language (or named none, or the item has none).
	RuleLanguage WorkRule = "language"
	// RuleOneRole: nobody works an item in two roles (item_people holds each person's first).
	// The author of the criterion a unit was made from worked it in the criteria stage: they
	// never review or adjudicate it, and label it only when the project allows it
	// (Allowed.AuthorsLabel).
	RuleOneRole WorkRule = "one_role"
	// RuleNeverTwice: nobody is given the same work twice: an item's label (criteria,
	// adjudication) or a label's review.
	RuleNeverTwice WorkRule = "never_twice"
)

// WorkRules are every rule, in the order they are checked.
var WorkRules = []WorkRule{RuleLanguage, RuleOneRole, RuleNeverTwice}

// Allowed is what a project's policy lets through that the rules refuse otherwise; the zero
// value lets nothing through.
type Allowed struct {
	// AuthorsLabel lets the author of a criterion label the unit made from it (Omni-Reward,
	// where the same people write the criteria and give every unit its labels). They still
	// never review or adjudicate it.
	AuthorsLabel bool
}

// ruleSQL is a rule as an SQL condition over item i (and, for reviews, label l), with its
// arguments in order.
type ruleSQL struct {
	rule WorkRule
	sql  string
	args []any
}

// mayWork is every rule for a person working in stage, as SQL, with what the project allows.
// who is the person as an SQL expression: "?" takes userID as its argument wherever it appears,
// any other expression (a column such as m.user_id) takes none.
//
// note: LIMIT 1 OFFSET 0 keeps PostgreSQL from turning the NOT EXISTS into anti-joins, which
// read every row of the person's history (or of the whole table) on each claim; as subplans
// they are one probe of a key index per candidate, and a claim stops at the first candidate
// that passes.
func mayWork(stage flow.Stage, who, userID string, allowed Allowed) []ruleSQL {
	user := func(n int) []any {
		if who != "?" {
			return nil
		}
		out := make([]any, n)
		for i := range out {
			out[i] = userID
		}
		return out
	}
	twice := ruleSQL{RuleNeverTwice, `NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = i.id AND a.user_id = ` + who + ` AND a.stage = ? LIMIT 1 OFFSET 0)`,
		append(user(1), stage)}
	if stage == flow.StageReview {
		twice = ruleSQL{RuleNeverTwice, `NOT EXISTS (SELECT 1 FROM assignments a WHERE a.target_id = l.id AND a.stage = 'review' AND a.user_id = ` + who + ` LIMIT 1 OFFSET 0)`,
			user(1)}
	}
	oneRole := ruleSQL{RuleOneRole, `NOT EXISTS (SELECT 1 FROM item_people x WHERE x.item_id = i.id AND x.user_id = ` + who + ` AND x.stage <> ? LIMIT 1 OFFSET 0)`,
		append(user(1), stage)}
	if stage != flow.StageLabel || !allowed.AuthorsLabel {
		// note: the author of a unit's criterion has no item_people row on the unit (nothing
		// was claimed there); their criterion is their first stage on it
		oneRole.sql = "(" + oneRole.sql + `
  AND (i.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM criteria c WHERE c.child_item_id = i.id AND c.author_id = ` + who + ` LIMIT 1 OFFSET 0)))`
		oneRole.args = append(oneRole.args, user(1)...)
	}
	return []ruleSQL{{RuleLanguage, readsItem(who), user(2)}, oneRole, twice}
}

// allOf joins rules into one condition, with the arguments in order.
func allOf(rules []ruleSQL) (string, []any) {
	conds := make([]string, len(rules))
	var args []any
	for i, r := range rules {
		conds[i], args = r.sql, append(args, r.args...)
	}
	return strings.Join(conds, "\n  AND "), args
}

// only keeps the named rules.
func only(rules []ruleSQL, keep ...WorkRule) []ruleSQL {
	var out []ruleSQL
	for _, r := range rules {
		for _, k := range keep {
			if r.rule == k {
				out = append(out, r)
			}
		}
	}
	return out
}

// MayWork checks the rules for a person working one piece of waiting work in stage (an item, or
// for reviews a label) with what the project allows, and returns the first they break; "" when
// they may work it.
func (s *Store) MayWork(ctx context.Context, stage flow.Stage, workID, userID string, allowed Allowed) (WorkRule, error) {
	rules := mayWork(stage, "?", userID, allowed)
	cols := make([]string, len(rules))
	var args []any
	for i, r := range rules {
		cols[i] = fmt.Sprintf("CASE WHEN %s THEN 1 ELSE 0 END AS r%d", r.sql, i)
		args = append(args, r.args...)
	}
	from := "FROM items i WHERE i.id = ?"
	if stage == flow.StageReview {
		from = "FROM assignments l JOIN items i ON i.id = l.item_id WHERE l.id = ?"
	}
	var row []map[string]any
	err := s.db.WithContext(ctx).Raw("SELECT "+strings.Join(cols, ", ")+" "+from, append(args, workID)...).Scan(&row).Error
	if err != nil {
		return "", translate(err)
	}
	if len(row) == 0 {
		return "", ErrNotFound
	}
	for i, r := range rules {
		if fmt.Sprint(row[0][fmt.Sprintf("r%d", i)]) != "1" {
			return r.rule, nil
		}
	}
	return "", nil
}

// workDone names, per stage, the work the never-twice rule is about.
var workDone = map[flow.Stage]string{
	flow.StageCriteria:   "written criteria for the item",
	flow.StageChecklist:  "refined the item's checklist",
	flow.StageLabel:      "labeled the item",
	flow.StageReview:     "reviewed the label",
	flow.StageAdjudicate: "adjudicated the item",
}

// Says is what a rule asks of the person, for work in stage: the words of the stuck reasons and
// of a refused hand-off.
func (r WorkRule) Says(stage flow.Stage) string {
	switch r {
	case RuleLanguage:
		return "reads the item's language"
	case RuleOneRole:
		return "has not worked on the item in another stage"
	}
	return "has not " + workDone[stage]
}
