package calibration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Errors of calibration rounds.
var (
	ErrRoundOpen = errors.New("this calibration round is still open; feedback comes after the lead closes it")
)

// maxRoundItems bounds the items of one round.
const maxRoundItems = 1000

// PassRule decides who passes a calibration round: the metric averaged over the questions, at
// or above the threshold.
type PassRule struct {
	Metric    flow.PassMetric `json:"metric"`
	Threshold float64         `json:"threshold"`
	Questions []string        `json:"questions"`
}

// RoundSpec is what a lead asks for when starting a round: the pool items by external id, or a
// random sample of the pool; the participants by user id or email.
type RoundSpec struct {
	Name         string   `json:"name"`
	ExternalIDs  []string `json:"external_ids"`
	Sample       *int     `json:"sample"`
	Participants []string `json:"participants"`
	Pass         PassRule `json:"pass"`
}

// RoundParticipant is one participant of a round with what they submitted so far.
type RoundParticipant struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Done   int64  `json:"done"`
}

// RoundView is a round as the API shows it.
type RoundView struct {
	ID           string             `json:"id"`
	Number       int                `json:"number"`
	Name         string             `json:"name"`
	Status       flow.RoundStatus   `json:"status"`
	CreatedAt    time.Time          `json:"created_at"`
	ClosedAt     *time.Time         `json:"closed_at"`
	Pass         PassRule           `json:"pass"`
	Items        int                `json:"items"`
	Participants []RoundParticipant `json:"participants"`
	Completion   float64            `json:"completion"`
}

// RoundItemRef names an item of a round.
type RoundItemRef struct {
	ID         string `json:"id"`
	ExternalID string `json:"external_id"`
}

// RoundDetail is a round with its items, for its lead.
type RoundDetail struct {
	RoundView
	ItemIDs []RoundItemRef `json:"item_ids"`
}

// levelled reports whether a question has a level of measurement, so agreement applies to it.
func levelled(q tasks.Question) bool {
	l := q.MeasurementLevel()
	return l != tasks.LevelNone && l != ""
}

// ordinal reports whether a question's answers are ordered scores.
func ordinal(q tasks.Question) bool { return levelled(q) && q.MeasurementLevel() != tasks.LevelNominal }

// check validates the rule against the schema and fills the default questions.
func (r *PassRule) check(fe tasks.FieldErrors, schema *tasks.Schema) {
	if !r.Metric.Valid() {
		fe.Add("pass.metric", "invalid_value", "%q is not one of %v", r.Metric, flow.PassMetrics)
		return
	}
	lo := 0.0
	if r.Metric == flow.PassAlphaWithPeers {
		lo = -1
	}
	if r.Threshold < lo || r.Threshold > 1 {
		fe.Add("pass.threshold", "out_of_range", "the threshold of %s must be %g to 1", r.Metric, lo)
	}
	applies := func(q tasks.Question) bool { return levelled(q) && (!r.Metric.OrdinalOnly() || ordinal(q)) }
	if len(r.Questions) == 0 {
		for _, q := range schema.Questions {
			if applies(q) {
				r.Questions = append(r.Questions, q.Key)
			}
		}
		if len(r.Questions) == 0 {
			fe.Add("pass.questions", "required", "the schema has no question %s applies to", r.Metric)
		}
		return
	}
	seen := map[string]bool{}
	for i, key := range r.Questions {
		field := fmt.Sprintf("pass.questions[%d]", i)
		q, ok := schema.Question(key)
		switch {
		case !ok || !levelled(q):
			fe.Add(field, "unknown_question", "%q is not a question of the schema with a level of measurement", key)
		case !applies(q):
			fe.Add(field, "not_ordinal", "%s needs ordinal questions; %q is %s", r.Metric, key, q.MeasurementLevel())
		case seen[key]:
			fe.Add(field, "duplicate", "%q is listed twice", key)
		}
		seen[key] = true
	}
}

// CreateRound starts a calibration round. Every field is checked before anything is written,
// and the round, its items and participants are written in one transaction.
func (s *Service) CreateRound(ctx context.Context, p *workflow.Project, actorID string, spec RoundSpec) (*RoundView, error) {
	fe := tasks.FieldErrors{}
	spec.Name = workflow.CheckName(fe, "name", spec.Name)
	spec.Pass.check(fe, p.Schema)
	itemIDs, err := s.roundItems(ctx, p, spec, fe)
	if err != nil {
		return nil, err
	}
	userIDs, err := s.roundParticipants(ctx, p, spec.Participants, fe)
	if err != nil {
		return nil, err
	}
	if _, bad := fe["pass.metric"]; !bad && spec.Pass.Metric == flow.PassAccuracyVsGold && len(itemIDs) > 0 {
		gold, err := s.store.Gold(ctx, itemIDs)
		if err != nil {
			return nil, err
		}
		if len(gold) < len(itemIDs) {
			fe.Add("pass.metric", "no_gold", "%d of the round's %d items have no gold answer to score accuracy against", len(itemIDs)-len(gold), len(itemIDs))
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	r := &store.Round{ProjectID: p.ID, Name: spec.Name, Status: flow.RoundOpen, PassRule: workflow.Encode(spec.Pass), CreatedBy: actorID}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		// note: the project's row lock serialises round numbering
		if _, err := tx.ProjectForUpdate(ctx, p.ID); err != nil {
			return err
		}
		n, err := tx.NextRoundNumber(ctx, p.ID)
		if err != nil {
			return err
		}
		r.Number = n
		if err := tx.CreateRound(ctx, r, itemIDs, userIDs); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, actorID, "calibration_round.create", "round:"+r.ID, nil,
			map[string]any{"number": r.Number, "name": r.Name, "items": len(itemIDs), "participants": userIDs, "pass": spec.Pass})
	})
	if err != nil {
		return nil, err
	}
	return s.roundView(ctx, s.store, r, "")
}

// CodeEmptyPool refuses a round drawn from a calibration pool with no items.
const CodeEmptyPool = "empty_pool"

// errEmptyPool says how to fill an empty pool.
const errEmptyPool = "the calibration pool is empty: import items into it on the Items page (choose the calibration pool, " +
	"with their gold answers under ground_truth), then start the round"

// roundItems resolves the round's pool items: the listed external ids in their order, or a
// random sample of the pool.
func (s *Service) roundItems(ctx context.Context, p *workflow.Project, spec RoundSpec, fe tasks.FieldErrors) ([]string, error) {
	switch {
	case spec.Sample != nil && spec.ExternalIDs != nil:
		fe.Add("external_ids", "invalid_value", "give external_ids or sample, not both")
		return nil, nil
	case spec.Sample != nil:
		pool, err := s.store.PoolItems(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		if len(pool) == 0 {
			fe.Add("sample", CodeEmptyPool, "%s", errEmptyPool)
			return nil, nil
		}
		if n := *spec.Sample; n < 1 || n > len(pool) || n > maxRoundItems {
			fe.Add("sample", "out_of_range", "sample must be 1 to %d (the calibration pool holds %d items)", min(len(pool), maxRoundItems), len(pool))
			return nil, nil
		}
		rand.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		return pool[:*spec.Sample], nil
	}
	if len(spec.ExternalIDs) == 0 || len(spec.ExternalIDs) > maxRoundItems {
		fe.Add("external_ids", "required", "list 1 to %d external ids of calibration pool items, or ask for a sample", maxRoundItems)
		return nil, nil
	}
	found, err := s.store.ItemsByExternalIDs(ctx, p.ID, spec.ExternalIDs)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(spec.ExternalIDs))
	seen := map[string]bool{}
	for i, ext := range spec.ExternalIDs {
		field := fmt.Sprintf("external_ids[%d]", i)
		it := found[ext]
		switch {
		case seen[ext]:
			fe.Add(field, "duplicate", "%q is listed twice", ext)
		case it == nil || it.Stage != flow.StageCalibration:
			fe.Add(field, "not_in_pool", "%q is not an item of the calibration pool (import it on the Items page with the calibration pool chosen)", ext)
		default:
			ids = append(ids, it.ID)
		}
		seen[ext] = true
	}
	return ids, nil
}

// roundParticipants resolves participants (user ids or emails) to annotators of the project.
func (s *Service) roundParticipants(ctx context.Context, p *workflow.Project, refs []string, fe tasks.FieldErrors) ([]string, error) {
	if len(refs) == 0 {
		fe.Add("participants", "required", "name at least one annotator of the project")
		return nil, nil
	}
	members, err := s.store.Members(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	var ids []string
	seen := map[string]bool{}
	for i, ref := range refs {
		field := fmt.Sprintf("participants[%d]", i)
		j := slices.IndexFunc(members, func(m store.MemberView) bool {
			return m.UserID == ref || (strings.Contains(ref, "@") && strings.EqualFold(m.Email, store.NormalizeEmail(ref)))
		})
		switch {
		case j < 0 || !members[j].Roles.Has(store.RoleAnnotator):
			fe.Add(field, "not_annotator", "%q is not an annotator of this project", ref)
		case seen[members[j].UserID]:
			fe.Add(field, "duplicate", "%q is listed twice", ref)
		default:
			ids = append(ids, members[j].UserID)
			seen[members[j].UserID] = true
		}
	}
	return ids, nil
}

// roundViews builds the API view of rounds; with onlyUser, each lists only that participant.
func (s *Service) roundViews(ctx context.Context, st *store.Store, rs []store.Round, onlyUser string) ([]RoundView, error) {
	out := make([]RoundView, 0, len(rs))
	if len(rs) == 0 {
		return out, nil
	}
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	counts, err := st.RoundItemCounts(ctx, ids)
	if err != nil {
		return nil, err
	}
	people, err := st.RoundPeople(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		v := RoundView{ID: r.ID, Number: r.Number, Name: r.Name, Status: r.Status, CreatedAt: r.CreatedAt, ClosedAt: r.ClosedAt,
			Items: counts[r.ID], Participants: []RoundParticipant{}}
		json.Unmarshal(r.PassRule, &v.Pass)
		var done, total int64
		for _, pp := range people {
			if pp.RoundID != r.ID {
				continue
			}
			done += pp.Done
			total += int64(v.Items)
			if onlyUser == "" || pp.UserID == onlyUser {
				v.Participants = append(v.Participants, RoundParticipant{UserID: pp.UserID, Name: pp.Name, Email: pp.Email, Done: pp.Done})
			}
		}
		if total > 0 {
			v.Completion = float64(done) / float64(total)
		}
		out = append(out, v)
	}
	return out, nil
}

func (s *Service) roundView(ctx context.Context, st *store.Store, r *store.Round, onlyUser string) (*RoundView, error) {
	vs, err := s.roundViews(ctx, st, []store.Round{*r}, onlyUser)
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// Rounds lists a project's rounds, newest first: every round for a lead, else the rounds the
// user takes part in, showing them only themselves among the participants.
func (s *Service) Rounds(ctx context.Context, p *workflow.Project, userID string, roles store.RoleSet) ([]RoundView, error) {
	only := ""
	if !roles.Has(store.RoleLead) {
		only = userID
	}
	rs, err := s.store.Rounds(ctx, p.ID, only)
	if err != nil {
		return nil, err
	}
	return s.roundViews(ctx, s.store, rs, only)
}

// Round returns one round with its items.
func (s *Service) Round(ctx context.Context, p *workflow.Project, id string) (*RoundDetail, error) {
	r, err := s.store.Round(ctx, p.ID, id)
	if err != nil {
		return nil, store.Missing(err, "calibration round")
	}
	v, err := s.roundView(ctx, s.store, r, "")
	if err != nil {
		return nil, err
	}
	items, err := s.store.RoundItems(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	d := &RoundDetail{RoundView: *v, ItemIDs: make([]RoundItemRef, len(items))}
	for i, it := range items {
		d.ItemIDs[i] = RoundItemRef{ID: it.ItemID, ExternalID: it.ExternalID}
	}
	return d, nil
}

// CloseRound freezes a round: its open work ends, later submits are refused, and the
// participants who meet the pass rule pass and are qualified for production labeling.
func (s *Service) CloseRound(ctx context.Context, p *workflow.Project, actorID, id string) (*RoundView, error) {
	var r *store.Round
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		var err error
		if r, err = tx.RoundForUpdate(ctx, p.ID, id); err != nil {
			return store.Missing(err, "calibration round")
		}
		if r.Status == flow.RoundClosed {
			return workflow.ErrRoundClosed
		}
		t := s.now()
		if err := tx.CloseRound(ctx, r.ID, actorID, t); err != nil {
			return err
		}
		r.Status, r.ClosedAt = flow.RoundClosed, &t
		expired, err := tx.ExpireRoundWork(ctx, r.ID)
		if err != nil {
			return err
		}
		if err := tx.Audit(ctx, p.ID, actorID, "calibration_round.close", "round:"+r.ID, nil,
			map[string]any{"number": r.Number, "expired_assignments": expired}); err != nil {
			return err
		}
		if err := s.recordPasses(ctx, tx, p, actorID, r); err != nil {
			return err
		}
		return s.wf.Webhooks().Notify(ctx, tx, webhooks.Event{Type: webhooks.CalibrationRoundClosed, ProjectID: p.ID,
			Data: map[string]any{"round_id": r.ID, "number": r.Number}})
	})
	if err != nil {
		return nil, err
	}
	return s.roundView(ctx, s.store, r, "")
}

// recordPasses writes each participant's outcome of a closed round; a pass is audited and
// qualifies the participant.
func (s *Service) recordPasses(ctx context.Context, tx *store.Store, p *workflow.Project, actorID string, r *store.Round) error {
	rep, err := s.report(ctx, tx, p, r)
	if err != nil {
		return err
	}
	for _, a := range rep.Annotators {
		if err := tx.SetRoundOutcome(ctx, r.ID, a.UserID, a.Passed, a.Score); err != nil {
			return err
		}
		if !a.Passed {
			continue
		}
		if err := tx.Audit(ctx, p.ID, actorID, "calibration_round.pass", "user:"+a.UserID, nil,
			map[string]any{"round": r.ID, "number": r.Number, "score": a.Score, "metric": rep.Pass.Metric, "threshold": rep.Pass.Threshold}); err != nil {
			return err
		}
		if err := workflow.SetQualified(ctx, tx, p.ID, actorID, a.UserID, true, map[string]any{"round": r.ID}); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// AddNote attaches a lead's feedback note to an (item, question) of a closed round.
func (s *Service) AddNote(ctx context.Context, p *workflow.Project, actorID, roundID, itemID, question, note string) (string, error) {
	r, err := s.store.Round(ctx, p.ID, roundID)
	if err != nil {
		return "", store.Missing(err, "calibration round")
	}
	items, err := s.store.RoundItems(ctx, r.ID)
	if err != nil {
		return "", err
	}
	fe := tasks.FieldErrors{}
	if !slices.ContainsFunc(items, func(it store.RoundItem) bool { return it.ItemID == itemID }) {
		fe.Add("item_id", "not_in_round", "%q is not an item of this round", itemID)
	}
	if _, ok := p.Schema.Question(question); !ok {
		fe.Add("question", "unknown_question", "%q is not a question of the schema", question)
	}
	if n := len(strings.TrimSpace(note)); n == 0 || n > 4000 {
		fe.Add("note", "invalid_length", "a note is 1 to 4000 characters")
	}
	if err := fe.Err(); err != nil {
		return "", err
	}
	if r.Status != flow.RoundClosed {
		return "", ErrRoundOpen
	}
	n := &store.RoundNote{RoundID: r.ID, ItemID: itemID, Question: question, Note: strings.TrimSpace(note), CreatedBy: actorID}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.AddRoundNote(ctx, n); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, actorID, "calibration_round.note", "round:"+r.ID, nil, map[string]any{"item": itemID, "question": question, "note": n.ID})
	})
	return n.ID, err
}

// MineQuestion is a participant's answer to one question beside the reference.
type MineQuestion struct {
	Key           string              `json:"key"`
	Label         string              `json:"label"`
	Mine          json.RawMessage     `json:"mine"`
	Reference     json.RawMessage     `json:"reference"`
	ReferenceKind *flow.ReferenceKind `json:"reference_kind"`
	Agrees        *bool               `json:"agrees"`
	Notes         []string            `json:"notes"`
}

// MineItem is one item of a round in a participant's feedback; its external id stays hidden,
// as in every view an annotator gets.
type MineItem struct {
	ItemID    string         `json:"item_id"`
	Position  int            `json:"position"`
	Questions []MineQuestion `json:"questions"`
}

// Mine is a participant's result of a closed round with the lead's notes.
type Mine struct {
	Round  RoundView  `json:"round"`
	Score  *float64   `json:"score"`
	Passed bool       `json:"passed"`
	Items  []MineItem `json:"items"`
}

// Mine returns the user's answers of a closed round beside gold (or the majority of the
// participants when an item has no gold for the question), with the notes. Peers' answers are
// never shown; someone who did not take part gets not found.
func (s *Service) Mine(ctx context.Context, p *workflow.Project, userID, roundID string) (*Mine, error) {
	r, err := s.store.Round(ctx, p.ID, roundID)
	if err != nil {
		return nil, store.Missing(err, "calibration round")
	}
	d, err := s.loadRound(ctx, s.store, *r)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(d.people, func(pp store.RoundPerson) bool { return pp.UserID == userID })
	if i < 0 {
		return nil, &store.NotFoundError{What: "calibration round"}
	}
	if r.Status != flow.RoundClosed {
		return nil, ErrRoundOpen
	}
	view, err := s.roundView(ctx, s.store, r, userID)
	if err != nil {
		return nil, err
	}
	notes, err := s.store.RoundNotes(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	out := &Mine{Round: *view, Score: d.people[i].Score, Passed: d.people[i].Passed != nil && *d.people[i].Passed, Items: []MineItem{}}
	for _, it := range d.items {
		mi := MineItem{ItemID: it.ItemID, Position: it.Position, Questions: []MineQuestion{}}
		for _, q := range p.Schema.Questions {
			if !levelled(q) {
				continue
			}
			mq := MineQuestion{Key: q.Key, Label: q.Label, Mine: d.answer(userID, it.ItemID, q.Key), Notes: []string{}}
			mq.Reference, mq.ReferenceKind = d.reference(it.ItemID, q.Key)
			if mq.Reference != nil {
				agrees := mq.Mine != nil && sameJSON(mq.Mine, mq.Reference)
				mq.Agrees = &agrees
			}
			for _, n := range notes {
				if n.ItemID == it.ItemID && n.Question == q.Key {
					mq.Notes = append(mq.Notes, n.Note)
				}
			}
			mi.Questions = append(mi.Questions, mq)
		}
		out.Items = append(out.Items, mi)
	}
	return out, nil
}

// reference is the gold answer of an item's question, or else the answer more participants
// gave than any other (nil on a tie).
func (d *roundData) reference(itemID, key string) (json.RawMessage, *flow.ReferenceKind) {
	if g := d.gold[itemID][key]; g != nil {
		k := flow.ReferenceGold
		return g, &k
	}
	counts := map[string]int{}
	var first []string
	for _, p := range d.people {
		if raw := d.answer(p.UserID, itemID, key); raw != nil {
			c := canonicalJSON(raw)
			if counts[c] == 0 {
				first = append(first, c)
			}
			counts[c]++
		}
	}
	best, tie := "", false
	for _, c := range first {
		switch {
		case best == "" || counts[c] > counts[best]:
			best, tie = c, false
		case counts[c] == counts[best]:
			tie = true
		}
	}
	if best == "" || tie {
		return nil, nil
	}
	k := flow.ReferenceMajority
	return json.RawMessage(best), &k
}

// canonicalJSON is a JSON value with sorted keys and no spaces, for comparing answers.
func canonicalJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func sameJSON(a, b json.RawMessage) bool { return canonicalJSON(a) == canonicalJSON(b) }
