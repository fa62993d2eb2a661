package projects

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ItemView is an item as a lead sees it: its work and its latest ground truth. Never its gold
// answers (a gold item's answers stay with the scoring) or the pass it is collecting.
type ItemView struct {
	ID         string     `json:"id"`
	ProjectID  string     `json:"project_id"`
	ExternalID string     `json:"external_id"`
	ParentID   *string    `json:"parent_id,omitempty"`
	Inputs     store.JSON `json:"inputs"`
	Meta       store.JSON `json:"meta,omitempty"`
	// Language is the item's canonical BCP 47 tag, "" when it has none.
	Language    string           `json:"language,omitempty"`
	Stage       flow.Stage       `json:"stage"`
	Flag        store.JSON       `json:"flag,omitempty"`
	DropReason  *string          `json:"drop_reason,omitempty"`
	SpotCheck   bool             `json:"spot_check"`
	GTRevision  int              `json:"gt_revision"`
	Version     int              `json:"version"`
	CreatedAt   time.Time        `json:"created_at"`
	UpdatedAt   time.Time        `json:"updated_at"`
	Annotations []WorkView       `json:"annotations"`
	Reviews     []WorkView       `json:"reviews"`
	Other       []WorkView       `json:"other_work,omitempty"`
	GroundTruth *GroundTruthView `json:"ground_truth"`
}

// WorkView is one assignment on an item as a lead sees it.
type WorkView struct {
	ID           string                `json:"id"`
	UserID       string                `json:"user_id"`
	Stage        flow.Stage            `json:"stage"`
	Status       flow.AssignmentStatus `json:"status"`
	Answers      store.JSON            `json:"answers,omitempty"`
	Effective    store.JSON            `json:"corrected_answers,omitempty"`
	ReviewStatus flow.ReviewStatus     `json:"review_status,omitempty"`
	TargetID     *string               `json:"target_id,omitempty"`
	Verdict      *flow.Verdict         `json:"verdict,omitempty"`
	Comment      *string               `json:"comment,omitempty"`
	Comments     store.JSON            `json:"comments,omitempty"`
	Rationale    *string               `json:"rationale,omitempty"`
	DraftSource  *string               `json:"draft_source,omitempty"`
	TimeSpentMS  int64                 `json:"time_spent_ms"`
	SubmittedAt  *time.Time            `json:"submitted_at,omitempty"`
	Shown        store.JSON            `json:"shown_order,omitempty"`
}

// GroundTruthView is an item's ground truth with its provenance.
type GroundTruthView struct {
	Answers    store.JSON     `json:"answers"`
	Provenance ProvenanceView `json:"provenance"`
	Revision   int            `json:"revision"`
	// Texts are the free-text answers kept with the decision, per question.
	Texts store.JSON `json:"texts,omitempty"`
}

// ProvenanceView says how and when ground truth was decided.
type ProvenanceView struct {
	Kind      flow.Provenance `json:"kind"`
	At        time.Time       `json:"at"`
	By        *string         `json:"by,omitempty"`
	Rationale *string         `json:"rationale,omitempty"`
	Details   store.JSON      `json:"details,omitempty"`
}

func groundTruthView(g *store.GroundTruth) *GroundTruthView {
	if g == nil {
		return nil
	}
	return &GroundTruthView{Answers: g.Answers, Revision: g.Revision, Texts: g.Texts,
		Provenance: ProvenanceView{Kind: g.Provenance, At: g.CreatedAt, By: g.DecidedBy, Rationale: g.Rationale, Details: g.Details}}
}

func itemView(it *store.Item, as []store.Assignment, gt *store.GroundTruth) ItemView {
	v := ItemView{ID: it.ID, ProjectID: it.ProjectID, ExternalID: it.ExternalID, ParentID: it.ParentID, Inputs: it.Inputs,
		Meta: it.Meta, Language: it.Language, Stage: it.Stage, Flag: it.Flag, DropReason: it.DropReason, SpotCheck: it.SpotCheck,
		GTRevision: it.GTRevision, Version: it.Version, CreatedAt: it.CreatedAt, UpdatedAt: it.UpdatedAt,
		Annotations: []WorkView{}, Reviews: []WorkView{}, GroundTruth: groundTruthView(gt)}
	for i := range as {
		w := workView(&as[i])
		switch w.Stage {
		case flow.StageLabel:
			w.ReviewStatus = as[i].ReviewStatus
			v.Annotations = append(v.Annotations, w)
		case flow.StageReview:
			v.Reviews = append(v.Reviews, w)
		default:
			v.Other = append(v.Other, w)
		}
	}
	return v
}

// workView is an assignment as a lead sees it; the order a worker was shown stays (as
// shown_order), its seed and its idempotency key do not.
func workView(a *store.Assignment) WorkView {
	return WorkView{ID: a.ID, UserID: a.UserID, Stage: a.Stage, Status: a.Status, Answers: a.Answers, Effective: a.Effective,
		TargetID: a.TargetID, Verdict: a.Verdict, Comment: a.Comment, Comments: a.Comments, Rationale: a.Rationale, DraftSource: a.DraftSource,
		TimeSpentMS: a.TimeSpentMS, SubmittedAt: a.SubmittedAt, Shown: a.Shuffle}
}

// ItemPage is one page of a project's items; NextCursor continues the listing ("" at the end).
type ItemPage struct {
	Items      []ItemView `json:"items"`
	NextCursor string     `json:"next_cursor"`
}

// Items pages through a project's items with their work and ground truth.
func (s *Service) Items(ctx context.Context, projectID string, f store.ItemFilter) (*ItemPage, error) {
	fe := tasks.FieldErrors{}
	if f.Limit < 1 || f.Limit > 500 {
		fe.Add("limit", "out_of_range", "limit must be 1 to 500")
	}
	if f.Stage != "" && !f.Stage.Valid() {
		fe.Add("stage", "invalid_value", "%q is not one of %v", f.Stage, flow.ItemStages)
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	its, err := s.store.Items(ctx, projectID, f)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(its))
	for i := range its {
		ids[i] = its[i].ID
	}
	work, err := s.store.AssignmentsOfItems(ctx, ids)
	if err != nil {
		return nil, err
	}
	gts, err := s.store.LatestGroundTruth(ctx, ids)
	if err != nil {
		return nil, err
	}
	page := &ItemPage{Items: make([]ItemView, len(its))}
	for i := range its {
		page.Items[i] = itemView(&its[i], work[its[i].ID], gts[its[i].ID])
	}
	if len(its) == f.Limit {
		page.NextCursor = its[len(its)-1].ID
	}
	return page, nil
}

// ItemDetail is one item with its work, every ground truth revision, its criteria and the
// model predictions for it.
type ItemDetail struct {
	Item               ItemView                 `json:"item"`
	GroundTruthHistory []GroundTruthRevision    `json:"ground_truth_history"`
	Criteria           []workflow.CriterionView `json:"criteria"`
	Predictions        []PredictionView         `json:"predictions"`
	// Family: the seed and its perturbed negatives, when the item's meta names a seed_id.
	Family *ItemFamily `json:"family"`
}

// Item returns one item of a project in full.
func (s *Service) Item(ctx context.Context, projectID, itemID string) (*ItemDetail, error) {
	it, err := s.store.Item(ctx, projectID, itemID)
	if err != nil {
		return nil, store.Missing(err, "item")
	}
	as, err := s.store.ItemAssignments(ctx, it.ID, "")
	if err != nil {
		return nil, err
	}
	history, err := s.store.GroundTruthHistory(ctx, it.ID)
	if err != nil {
		return nil, err
	}
	var latest *store.GroundTruth
	if len(history) > 0 {
		latest = &history[len(history)-1]
	}
	crit, err := s.store.Criteria(ctx, projectID, "", it.ID, 1000)
	if err != nil {
		return nil, err
	}
	preds, err := s.store.Predictions(ctx, it.ID)
	if err != nil {
		return nil, err
	}
	fam, err := s.itemFamily(ctx, it)
	if err != nil {
		return nil, err
	}
	return &ItemDetail{Item: itemView(it, as, latest), GroundTruthHistory: nonNil(groundTruthRevisions(history)),
		Criteria: nonNil(workflow.CriterionViews(crit)), Predictions: nonNil(predictionViews(preds)), Family: fam}, nil
}

// GroundTruthRevision is one stored revision of an item's ground truth.
type GroundTruthRevision struct {
	Revision   int             `json:"revision"`
	Answers    store.JSON      `json:"answers"`
	Provenance flow.Provenance `json:"provenance"`
	DecidedBy  *string         `json:"decided_by,omitempty"`
	Rationale  *string         `json:"rationale,omitempty"`
	Details    store.JSON      `json:"details,omitempty"`
	// Texts are the free-text answers kept with the decision, per question.
	Texts     store.JSON `json:"texts,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
}

func groundTruthRevisions(gts []store.GroundTruth) []GroundTruthRevision {
	if gts == nil {
		return nil
	}
	out := make([]GroundTruthRevision, len(gts))
	for i, g := range gts {
		out[i] = GroundTruthRevision{Revision: g.Revision, Answers: g.Answers, Provenance: g.Provenance, DecidedBy: g.DecidedBy,
			Rationale: g.Rationale, Details: g.Details, Texts: g.Texts, CreatedAt: g.CreatedAt}
	}
	return out
}

// PredictionView is one model's answers for an item.
type PredictionView struct {
	ItemID    string     `json:"item_id"`
	Model     string     `json:"model"`
	Answers   store.JSON `json:"answers"`
	CreatedAt time.Time  `json:"created_at"`
}

func predictionViews(ps []store.Prediction) []PredictionView {
	if ps == nil {
		return nil
	}
	out := make([]PredictionView, len(ps))
	for i, p := range ps {
		out[i] = PredictionView{ItemID: p.ItemID, Model: p.Model, Answers: p.Answers, CreatedAt: p.CreatedAt}
	}
	return out
}

// Stats counts a project's items by stage and each person's work, today (UTC) and in total.
type Stats struct {
	Items      []StageCountView `json:"items"`
	Throughput []ThroughputView `json:"throughput"`
}

// StageCountView is the number of a project's items in one stage, flagged or not.
type StageCountView struct {
	Stage   flow.Stage `json:"stage"`
	Flagged bool       `json:"flagged"`
	Count   int64      `json:"count"`
}

// ThroughputView is one person's submitted work in one stage: in total and today.
type ThroughputView struct {
	UserID    string     `json:"user_id"`
	Name      string     `json:"name"`
	Stage     flow.Stage `json:"stage"`
	Submitted int64      `json:"submitted"`
	Today     int64      `json:"today"`
}

// Stats reads a project's counts.
func (s *Service) Stats(ctx context.Context, projectID string) (*Stats, error) {
	counts, err := s.store.ItemCounts(ctx, projectID)
	if err != nil {
		return nil, err
	}
	tp, err := s.store.ProjectThroughput(ctx, projectID, s.wf.Today())
	if err != nil {
		return nil, err
	}
	return &Stats{Items: stageCountViews(counts), Throughput: throughputViews(tp)}, nil
}

func stageCountViews(cs []store.StageCount) []StageCountView {
	if cs == nil {
		return nil
	}
	out := make([]StageCountView, len(cs))
	for i, c := range cs {
		out[i] = StageCountView{Stage: c.Stage, Flagged: c.Flagged, Count: c.Count}
	}
	return out
}

func throughputViews(ts []store.Throughput) []ThroughputView {
	if ts == nil {
		return nil
	}
	out := make([]ThroughputView, len(ts))
	for i, t := range ts {
		out[i] = ThroughputView{UserID: t.UserID, Name: t.Name, Stage: t.Stage, Submitted: t.Submitted, Today: t.Today}
	}
	return out
}

// Criteria lists a project's criteria with a status (pending when empty), optionally of one item.
func (s *Service) Criteria(ctx context.Context, projectID string, status flow.CriterionStatus, itemID string) ([]workflow.CriterionView, error) {
	if status == "" {
		status = flow.CriterionPending
	}
	cs, err := s.store.Criteria(ctx, projectID, status, itemID, 500)
	return nonNil(workflow.CriterionViews(cs)), err
}

// Members lists a project's members with the languages each reads (empty: every language).
func (s *Service) Members(ctx context.Context, projectID string) ([]MemberView, error) {
	ms, err := s.store.Members(ctx, projectID)
	if err != nil {
		return nil, err
	}
	langs, err := s.store.MemberLanguages(ctx, projectID)
	if err != nil {
		return nil, err
	}
	out := make([]MemberView, len(ms))
	for i := range ms {
		out[i] = memberView(&ms[i], nonNil(langs[ms[i].UserID]))
	}
	return out, nil
}

// MembersAs lists a project's members as the caller reads them: leads and viewers (who read the
// Members page) see every member's email, the people who do the work only their own (a
// member's name and roles are what the work pages need).
func (s *Service) MembersAs(ctx context.Context, projectID, callerID string, roles store.RoleSet) ([]MemberView, error) {
	ms, err := s.Members(ctx, projectID)
	if err != nil || roles.Has(store.RoleLead) || roles.Has(store.RoleViewer) {
		return ms, err
	}
	for i := range ms {
		if ms[i].UserID != callerID {
			ms[i].Email = ""
		}
	}
	return ms, nil
}

// Audit lists a project's audit events, newest first.
func (s *Service) Audit(ctx context.Context, projectID string, limit int) ([]AuditEventView, error) {
	if limit < 1 || limit > 1000 {
		return nil, tasks.Field("limit", "out_of_range", "limit must be 1 to 1000")
	}
	es, err := s.store.AuditEvents(ctx, projectID, limit)
	return nonNil(auditEventViews(es)), err
}

// nonNil makes a nil list an empty one, so lists are [] on the wire, never null.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
