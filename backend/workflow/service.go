package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Errors of the workflow; the API maps each to a status and a stable code.
var (
	ErrNotYours      = errors.New("this assignment belongs to someone else")
	ErrNotActive     = errors.New("this assignment is no longer open")
	ErrLeaseLost     = errors.New("the lease expired and the item went to someone else; your answers are kept as a draft")
	ErrStaleVersion  = errors.New("the draft was saved elsewhere since you loaded it")
	ErrAlreadyDone   = errors.New("this assignment was already submitted")
	ErrWrongStage    = errors.New("this project has no such stage")
	ErrRoleRequired  = errors.New("your project roles do not include this stage")
	ErrItemNotInFlow = errors.New("the item is not waiting for this")
	ErrOwnWork       = errors.New("nobody reviews their own work")
	ErrNoSchema      = errors.New("this project has no task schema yet; set one in the project's settings or with PATCH")
)

// Service applies the workflow rules on top of the store.
type Service struct {
	store   *store.Store
	media   *media.Service
	now     func() time.Time
	schemas sync.Map // schemaKey → *SchemaDoc; versions never change
	open    openWork // the assignments handed out here, for their autosaves
	jobs    FiguresQueue
	models  sync.Map // project id → *keptModels: the reliability models adaptive overlap decides by
	hooks   webhooks.Notifier
}

// Deps are what the workflow needs; Media may be nil for a service that only claims and
// submits.
type Deps struct {
	Store *store.Store
	Media *media.Service
}

// New returns the workflow service.
func New(d Deps) *Service {
	return &Service{store: d.Store, media: d.Media, now: func() time.Time { return time.Now().UTC() }, hooks: webhooks.Off{}}
}

// Project is a project with its parsed policy and one version of its schema.
type Project struct {
	*store.Project
	Policy Policy
	Schema *tasks.Schema
	Forms  map[string]tasks.Schema
	doc    *SchemaDoc
}

// LoadProject reads a project's policy and its schema of the given version (0: current). A
// project without a schema cannot be worked on (ErrNoSchema). Schema versions never change
// once written, so each is parsed once per process.
func (s *Service) LoadProject(ctx context.Context, p *store.Project, version int) (*Project, error) {
	pol, err := ParsePolicy(p.Workflow)
	if err != nil {
		return nil, fmt.Errorf("project %s workflow: %w", p.ID, err)
	}
	if version == 0 {
		version = p.SchemaVersion
	}
	if version == 0 {
		return nil, ErrNoSchema
	}
	doc, err := s.schemaDoc(ctx, p.ID, version)
	if err != nil {
		return nil, err
	}
	return &Project{Project: p, Policy: pol, Schema: &doc.Schema, Forms: doc.Forms, doc: doc}, nil
}

type schemaKey struct {
	project string
	version int
}

// schemaDoc returns a parsed schema version from the cache or the store.
func (s *Service) schemaDoc(ctx context.Context, projectID string, version int) (*SchemaDoc, error) {
	key := schemaKey{projectID, version}
	if d, ok := s.schemas.Load(key); ok {
		return d.(*SchemaDoc), nil
	}
	sv, err := s.store.ProjectSchema(ctx, projectID, version)
	if err != nil {
		return nil, fmt.Errorf("project %s schema v%d: %w", projectID, version, err)
	}
	var doc SchemaDoc
	if err := json.Unmarshal(sv.Schema, &doc); err != nil {
		return nil, err
	}
	s.schemas.Store(key, &doc)
	return &doc, nil
}

// SchemaDoc is how one version of a project's schema is stored: the labeling schema and the
// extra forms of other stages (e.g. criteria authoring). Callers must not modify it: versions
// are shared.
type SchemaDoc struct {
	Schema tasks.Schema            `json:"schema"`
	Forms  map[string]tasks.Schema `json:"forms,omitempty"`
}

// StageSchema is the schema a stage is answered with.
func (p *Project) StageSchema(stage flow.Stage) *tasks.Schema {
	form := ""
	switch {
	case stage == flow.StageCriteria && p.Policy.CriteriaStage != nil:
		form = p.Policy.CriteriaStage.Form
	case stage == flow.StageChecklist && p.Policy.ChecklistStage != nil:
		form = p.Policy.ChecklistStage.Form
	}
	if f, ok := p.Forms[form]; ok {
		return &f
	}
	return p.Schema
}

// Claim is what a person gets from the queue.
type Claim struct {
	Assignment  *store.Assignment
	View        tasks.View
	Draft       tasks.Answers // in the order shown to this person
	DraftSource *string       // DraftPrefilled when the form was prefilled; never the model
	Context     map[string]any
}

// DraftPrefilled is what a person is told about a draft made from model predictions.
const DraftPrefilled = "prefilled"

// Next claims the next piece of work in a stage for the user, or returns nil when there is
// none. An open assignment of the same stage is handed back first (a reload loses nothing).
// With prefetch, it returns the piece after the user's current one, claiming it if needed, so
// a client can load the next item while the current one is answered; nobody holds more than
// two open assignments per stage.
func (s *Service) Next(ctx context.Context, p *Project, user *store.User, roles store.RoleSet, stage flow.Stage, prefetch bool) (*Claim, error) {
	if p.ArchivedAt != nil {
		return nil, ErrArchived
	}
	role := stage.Role()
	if role == "" || !p.HasStage(stage) {
		return nil, tasks.Field("stage", "invalid_value", "%s: %q", ErrWrongStage, stage)
	}
	if !roles.Has(role) {
		return nil, ErrRoleRequired
	}
	if stage != flow.StageCalibration {
		// note: a paused annotator may still take part in calibration rounds.
		if err := s.checkPaused(ctx, p, user.ID, role); err != nil {
			return nil, err
		}
	}
	if stage == flow.StageLabel && p.Policy.RequireQualification {
		if err := s.checkQualified(ctx, p, user.ID); err != nil {
			return nil, err
		}
	}
	var claimed *store.Assignment
	var item *store.Item // the item a new claim locked, so the view does not read it again
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		live, err := s.resume(ctx, tx, p, user.ID, stage)
		if err != nil {
			return err
		}
		want := 0
		if prefetch {
			want = 1
		}
		if len(live) > want {
			claimed = live[want]
			return nil
		}
		claimed, item, err = s.claimNew(ctx, tx, p, user.ID, stage)
		return err
	})
	if err != nil || claimed == nil {
		return nil, err
	}
	s.open.keep(claimed)
	return s.claimView(ctx, p, claimed, item, tasks.Role(role))
}

// resume returns the user's open assignments in the stage, oldest first, renewing each lease
// whose slot is still free and expiring the others.
func (s *Service) resume(ctx context.Context, tx *store.Store, p *Project, userID string, stage flow.Stage) ([]*store.Assignment, error) {
	open, err := tx.ActiveAssignments(ctx, p.ID, userID, stage)
	if err != nil {
		return nil, err
	}
	t := s.now()
	var live []*store.Assignment
	for i := range open {
		a := &open[i]
		if a.LeaseExpiresAt.Before(t) {
			free, err := s.slotStillFree(ctx, tx, p, &store.LockedForSubmit{Assignment: a}, t)
			if err != nil {
				return nil, err
			}
			if !free {
				if _, err := tx.ExpireAssignment(ctx, a.ID); err != nil {
					return nil, err
				}
				continue
			}
		}
		// note: the rows were read without a lock; a submit of one of them that commits meanwhile
		// stays submitted (the writes change only a row still open) and is not handed back.
		a.LeaseExpiresAt = t.Add(p.Lease())
		renewed, err := tx.RenewLease(ctx, a.ID, a.LeaseExpiresAt)
		if err != nil {
			return nil, err
		}
		if renewed {
			live = append(live, a)
		}
	}
	return live, nil
}

// HasStage reports whether the project's policy runs a work stage.
func (p *Project) HasStage(stage flow.Stage) bool {
	switch stage {
	case flow.StageCriteria:
		return p.Policy.CriteriaStage != nil
	case flow.StageChecklist:
		return p.Policy.ChecklistStage != nil
	case flow.StageCalibration:
		return true
	case flow.StageReview:
		return p.Policy.Review == ReviewCross
	}
	return true
}

// Lease is how long a claim holds its slot without a heartbeat.
func (p *Project) Lease() time.Duration { return time.Duration(p.Policy.LeaseMinutes) * time.Minute }

// slots is how many assignments an item takes in a stage.
func (p *Project) slots(stage flow.Stage) int {
	switch {
	case stage == flow.StageLabel:
		return p.Policy.Overlap
	case stage == flow.StageCriteria && p.Policy.CriteriaStage != nil:
		return p.Policy.CriteriaStage.Overlap
	}
	return 1
}

// slotStillFree reports whether an expired assignment could still be honoured: nobody took
// its place in the meantime. It locks the review's label or the item as a new claim would, unless
// held has them locked already, and keeps them in held.
func (s *Service) slotStillFree(ctx context.Context, tx *store.Store, p *Project, held *store.LockedForSubmit, t time.Time) (bool, error) {
	a := held.Assignment
	if a.Stage == flow.StageCalibration {
		return true, nil // note: every participant has a slot of their own on every item of the round
	}
	if a.Stage == flow.StageReview {
		if held.Target == nil { // note: lock the label as a new claim would, so a resume and a claim cannot both win
			l, err := tx.AssignmentForUpdate(ctx, *a.TargetID)
			if err != nil {
				return false, err
			}
			held.Target = l
		}
		taken, err := tx.ReviewSlotTaken(ctx, *a.TargetID, a.ID, t)
		return !taken, err
	}
	if held.Item == nil {
		it, err := tx.ItemForUpdate(ctx, a.ItemID)
		if err != nil {
			return false, err
		}
		held.Item = it
	}
	it := held.Item
	if p.ownQueue(a.Stage, it) && a.Pass != it.Pass {
		return false, nil // note: the item has moved on to its next pass
	}
	n, err := tx.TakenSlots(ctx, a.ItemID, a.Stage, it.Pass, a.ID, t)
	return int(n) < p.itemSlots(it, a.Stage), err
}

// claimNew finds a candidate, locks it, re-checks its free slots under the lock and records
// the assignment with the item it locked. The unique (item, user, stage) index backs the
// never-twice rule.
func (s *Service) claimNew(ctx context.Context, tx *store.Store, p *Project, userID string, stage flow.Stage) (*store.Assignment, *store.Item, error) {
	t := s.now()
	var ids []string
	var err error
	switch stage {
	case flow.StageCalibration:
		a, err := s.claimCalibration(ctx, tx, p, userID, t)
		return a, nil, err
	case flow.StageReview:
		ids, err = tx.NextReviewCandidates(ctx, p.ID, userID, 5, t)
	case flow.StageAdjudicate:
		ids, err = tx.NextAdjudicationCandidates(ctx, p.ID, userID, 5, t)
	default:
		return s.claimNextItem(ctx, tx, p, userID, stage, t)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, id := range ids {
		a, it, err := s.TryClaim(ctx, tx, p, userID, stage, id, t)
		if err != nil || a != nil {
			return a, it, err
		}
	}
	return nil, nil, nil
}

// claimNextItem claims the first item of a label or criteria queue, which the queue's query
// locks. A claim that loses a race on its item (a slot taken meanwhile, or the person's first
// stage recorded by a concurrent claim of theirs) tries the next item, a few times.
func (s *Service) claimNextItem(ctx context.Context, tx *store.Store, p *Project, userID string, stage flow.Stage, t time.Time) (*store.Assignment, *store.Item, error) {
	var tried []string
	for range 5 {
		it, err := tx.NextItem(ctx, p.ID, userID, stage, p.slots(stage), t, tried, p.Allowed())
		if err != nil || it == nil {
			return nil, nil, err
		}
		if stage == flow.StageLabel && tried == nil && p.drawGold() {
			if a, gold, err := s.claimGold(ctx, tx, p, userID, t); err != nil || a != nil {
				return a, gold, err
			}
		}
		a, err := s.claimItem(ctx, tx, p, userID, stage, it, t, true)
		if err != nil || a != nil {
			return a, it, err
		}
		tried = append(tried, it.ID)
	}
	return nil, nil, nil
}

// TryClaim claims one named piece of work (an item, or for review the label) for a person if it
// still has a free slot and they may work it, locking it first; nil when not.
func (s *Service) TryClaim(ctx context.Context, tx *store.Store, p *Project, userID string, stage flow.Stage, id string, t time.Time) (*store.Assignment, *store.Item, error) {
	if stage != flow.StageReview {
		it, err := tx.ItemForUpdate(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		a, err := s.claimItem(ctx, tx, p, userID, stage, it, t, false)
		return a, it, err
	}
	a := s.newAssignment(p, userID, stage, t)
	label, err := tx.AssignmentForUpdate(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if taken, err := tx.ReviewSlotTaken(ctx, id, "", t); err != nil || taken {
		return nil, nil, err
	}
	// note: lock the item as a label claim does (label before item, as submits lock them),
	// so a label claim and a review claim of the same item queue instead of deadlocking
	it, err := tx.ItemForUpdate(ctx, label.ItemID)
	if err != nil {
		return nil, nil, err
	}
	a.ItemID, a.TargetID = label.ItemID, &label.ID
	if p.reviewsPass(a) {
		a.Pass = label.Pass
	}
	// note: the database decides who works an item in which stage, so that two claims of the
	// same person in two stages at the same moment cannot both win
	if first, err := tx.FirstStage(ctx, a.ItemID, userID, stage); err != nil || first != stage {
		return nil, nil, err
	}
	if err := s.prefill(ctx, tx, p, a, it); err != nil {
		return nil, nil, err
	}
	if err := tx.CreateAssignment(ctx, a); err != nil {
		return nil, nil, err
	}
	return a, it, tx.Audit(ctx, p.ID, userID, "assignment.claim", "item:"+a.ItemID, nil, map[string]any{"assignment": a.ID, "stage": stage})
}

func (s *Service) newAssignment(p *Project, userID string, stage flow.Stage, t time.Time) *store.Assignment {
	return &store.Assignment{ID: store.NewID(), ProjectID: p.ID, UserID: userID, Stage: stage, Status: flow.AssignActive,
		SchemaVersion: p.SchemaVersion, Seed: rand.Int64(), LeaseExpiresAt: t.Add(p.Lease())}
}

// claimItem claims an item the transaction has locked, if it still has a free slot in the stage
// and the person has not worked it in another stage (see store.ClaimItem); nil when not.
// counted says the queue's query just counted the item's slots in this transaction.
func (s *Service) claimItem(ctx context.Context, tx *store.Store, p *Project, userID string, stage flow.Stage, it *store.Item, t time.Time, counted bool) (*store.Assignment, error) {
	a := s.newAssignment(p, userID, stage, t)
	a.ItemID = it.ID
	if p.ownQueue(stage, it) {
		a.Pass = it.Pass
	}
	if err := s.prefill(ctx, tx, p, a, it); err != nil {
		return nil, err
	}
	ok, err := tx.ClaimItem(ctx, store.NewClaim{Assignment: a, Slots: p.itemSlots(it, stage), Pass: it.Pass, At: t, Counted: counted,
		Event: store.Event{ProjectID: p.ID, ActorID: userID, Action: "assignment.claim", Target: "item:" + a.ItemID,
			After: map[string]any{"assignment": a.ID, "stage": stage}}})
	if err != nil || !ok {
		return nil, err
	}
	if a.DraftSource != nil { // note: the prefilled draft is kept, to measure anchoring on it
		if err := tx.AddRevision(ctx, a.ID, 0, flow.RevisionPrefill, a.Draft); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// owns refuses assignments of other people.
func owns(a *store.Assignment, userID string) error {
	if a.UserID != userID {
		return ErrNotYours
	}
	return nil
}

// Progress is a person's standing in one stage: what they did and what is left for them.
type Progress struct {
	Stage     flow.Stage `json:"stage"`
	DoneToday int64      `json:"done_today"`
	DoneTotal int64      `json:"done_total"`
	Available int64      `json:"available"`        // items they could still be given (label, criteria)
	Capped    bool       `json:"available_capped"` // available stopped counting at the cap
}

// AvailableCap bounds the count of remaining work, which the UI shows as "1000+".
const AvailableCap = 1000

// MyProgress reports the user's work per stage and, for item stages, what is left for them.
func (s *Service) MyProgress(ctx context.Context, p *Project, userID string) ([]Progress, error) {
	t := s.now()
	done, err := s.store.UserProgress(ctx, p.ID, userID, s.Today())
	if err != nil {
		return nil, err
	}
	byStage := map[flow.Stage]store.Progress{}
	for _, d := range done {
		byStage[d.Stage] = d
	}
	var out []Progress
	for _, stage := range flow.WorkStages {
		if !p.HasStage(stage) {
			continue
		}
		pr := Progress{Stage: stage, DoneToday: byStage[stage].DoneToday, DoneTotal: byStage[stage].DoneTotal}
		var n int64
		switch stage {
		case flow.StageReview:
			n, err = s.store.AvailableReviews(ctx, p.ID, userID, AvailableCap, t)
		case flow.StageAdjudicate:
			n, err = s.store.AvailableAdjudications(ctx, p.ID, userID, AvailableCap, t)
		default:
			n, err = s.store.AvailableItems(ctx, p.ID, userID, stage, p.slots(stage), AvailableCap, t, p.Allowed())
			if err == nil && stage == flow.StageLabel {
				n, err = s.withGold(ctx, p, userID, n)
			}
		}
		if err != nil {
			return nil, err
		}
		pr.Available, pr.Capped = n, n >= AvailableCap
		out = append(out, pr)
	}
	return out, nil
}

// ErrArchived refuses work in an archived project.
var ErrArchived = errors.New("this project is archived; a lead can restore it in its settings")

// Doc is the stored form of the project's schema version: schema and forms.
func (p *Project) Doc() *SchemaDoc { return p.doc }

// Now is the service's clock, in UTC.
func (s *Service) Now() time.Time { return s.now() }

// Today is the start of the current day: "today" counts are per UTC day everywhere.
func (s *Service) Today() time.Time {
	t := s.now()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// FirstStage is the stage imported items start in: criteria authoring or checklist refinement
// when the policy has it.
func (p *Project) FirstStage() flow.Stage {
	switch {
	case p.Policy.CriteriaStage != nil:
		return flow.StageCriteria
	case p.Policy.ChecklistStage != nil:
		return flow.StageChecklist
	}
	return flow.StageLabel
}

// FirstStageOf is the stage an imported item starts in: FirstStage, except that an item with
// no drafted list to refine goes straight to labeling.
func (p *Project) FirstStageOf(item tasks.Item) flow.Stage {
	stage := p.FirstStage()
	if stage == flow.StageChecklist && !p.hasListToRefine(item) {
		return flow.StageLabel
	}
	return stage
}

// ImportSchema is the schema imported items are checked against: the criteria form when
// criteria are written first (the units made from them get their criterion later), the labeling
// schema otherwise.
func (p *Project) ImportSchema() *tasks.Schema {
	if p.Policy.CriteriaStage != nil {
		return p.StageSchema(flow.StageCriteria)
	}
	return p.Schema
}

// SpotChecked samples items with imported ground truth for blind labeling, by a hash of the
// external id, so re-imports pick the same items.
func (p *Project) SpotChecked(externalID string) bool {
	if p.Policy.SpotCheckRate <= 0 {
		return false
	}
	h := fnv.New64a()
	h.Write([]byte(p.ID + "\x00" + externalID))
	return float64(h.Sum64()%1_000_000)/1_000_000 < p.Policy.SpotCheckRate
}

// HasSchema reports whether the document holds a schema to work with.
func (d *SchemaDoc) HasSchema() bool { return len(d.Schema.Questions) > 0 }

// Hash identifies the document's content: the schema's content hash, plus its forms.
func (d *SchemaDoc) Hash() string {
	if d == nil || !d.HasSchema() {
		return ""
	}
	if len(d.Forms) == 0 {
		return d.Schema.ContentHash()
	}
	forms := make(map[string]string, len(d.Forms))
	for k, f := range d.Forms {
		forms[k] = f.ContentHash()
	}
	b, _ := json.Marshal(map[string]any{"schema": d.Schema.ContentHash(), "forms": forms}) // note: map keys marshal sorted
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
