// Package flow is the workflow's vocabulary: the named values (stages, statuses, verdicts, flag
// actions, provenance) that the rules of package workflow are written in. It is a leaf, so
// that store can persist these values typed; the rules that move work between them live in
// package workflow and nowhere else.
package flow

import (
	"slices"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// Stage is where an item is in the workflow, and the stage a piece of work belongs to.
type Stage string

// The stages. Items move criteria → criteria_review → split (criteria authoring), or
// label → review → adjudicate → done | dropped; people claim work in the four work stages.
const (
	StageCriteria       Stage = "criteria"
	StageCriteriaReview Stage = "criteria_review" // criteria written, waiting for a lead or reviewer
	StageSplit          Stage = "split"           // valid criteria became child units
	// StageChecklist: a person refines the item's drafted checklist (keeps, drops, rewords,
	// adds entries) before it is labeled with the refined one (Judge Anything).
	StageChecklist  Stage = "checklist"
	StageLabel      Stage = "label"
	StageReview     Stage = "review"
	StageAdjudicate Stage = "adjudicate"
	StageDone       Stage = "done"
	StageDropped    Stage = "dropped"
	// StageGold holds gold items: handed out among label work, scored, never decided.
	StageGold Stage = "gold"
	// StageCalibration marks items of the calibration pool, and the work of calibration rounds
	// on them; pool items never enter the production stages.
	StageCalibration Stage = "calibration"
)

// StageRow is one stage in the stage table: what it is called, whether people claim work in it
// and the project role that works it (the role whose view of the item its workers get).
type StageRow struct {
	Stage Stage
	// Role works the stage; "" for stages nobody claims work in.
	Role tasks.Role
}

// Stages is the stage table, in workflow order: every stage an item can be in, each once. A new
// stage is a row here plus its behaviour in package workflow.
var Stages = []StageRow{
	{StageCriteria, tasks.RoleAnnotator},
	{StageCriteriaReview, ""},
	{StageSplit, ""},
	{StageChecklist, tasks.RoleAnnotator},
	{StageLabel, tasks.RoleAnnotator},
	{StageReview, tasks.RoleReviewer},
	{StageAdjudicate, tasks.RoleAdjudicator},
	{StageDone, ""},
	{StageDropped, ""},
	{StageGold, ""},
	// note: the work of calibration rounds is claimed in its own stage, by annotators, but it is
	// no production work stage (see WorkStages)
	{StageCalibration, tasks.RoleAnnotator},
}

// WorkStages are the production stages people claim work in, in workflow order.
var WorkStages = stagesWhere(func(r StageRow) bool { return r.Role != "" && r.Stage != StageCalibration })

// ItemStages are every stage an item can be in.
var ItemStages = stagesWhere(func(StageRow) bool { return true })

func stagesWhere(keep func(StageRow) bool) []Stage {
	var out []Stage
	for _, r := range Stages {
		if keep(r) {
			out = append(out, r.Stage)
		}
	}
	return out
}

// Role is the project role that works the stage, and the view its workers get; "" for stages
// nobody claims work in.
func (s Stage) Role() tasks.Role {
	for _, r := range Stages {
		if r.Stage == s {
			return r.Role
		}
	}
	return ""
}

// Valid reports whether s is an item stage.
func (s Stage) Valid() bool { return slices.Contains(ItemStages, s) }

// AssignmentStatus is the state of one person's claim on a piece of work.
type AssignmentStatus string

// Assignment statuses.
const (
	AssignActive    AssignmentStatus = "active"
	AssignSubmitted AssignmentStatus = "submitted"
	AssignExpired   AssignmentStatus = "expired"
	AssignSkipped   AssignmentStatus = "skipped"
	AssignFlagged   AssignmentStatus = "flagged"
	AssignRejected  AssignmentStatus = "rejected"
)

// ReviewStatus is where a label stands in cross review.
type ReviewStatus string

// Review states of a label.
const (
	ReviewNone      ReviewStatus = "none"
	ReviewPending   ReviewStatus = "pending"
	ReviewApproved  ReviewStatus = "approved"
	ReviewCorrected ReviewStatus = "corrected"
	ReviewRejected  ReviewStatus = "rejected"
	// ReviewDisputed marks a label whose blind reviewer disagreed; adjudication decides.
	ReviewDisputed ReviewStatus = "disputed"
)

// Verdict is a reviewer's decision on a label.
type Verdict string

// Verdicts a reviewer may give.
const (
	VerdictApprove Verdict = "approve"
	VerdictCorrect Verdict = "correct"
	VerdictReject  Verdict = "reject"
	// VerdictDispute is recorded, never given: a blind reviewer's answers disagreed with the label.
	VerdictDispute Verdict = "disputed"
)

// Verdicts lists the verdicts a reviewer may give.
var Verdicts = []Verdict{VerdictApprove, VerdictCorrect, VerdictReject}

// Valid reports whether v is a verdict.
func (v Verdict) Valid() bool { return slices.Contains(Verdicts, v) }

// CriterionStatus is a reviewer's decision on an authored criterion.
type CriterionStatus string

// Criterion statuses.
const (
	CriterionPending     CriterionStatus = "pending"
	CriterionValid       CriterionStatus = "valid"
	CriterionTooVague    CriterionStatus = "too_vague"
	CriterionTooSpecific CriterionStatus = "too_specific"
	// CriterionDuplicate repeats another criterion of the same item (another author's, with
	// several authors per item); it makes no child item.
	CriterionDuplicate CriterionStatus = "duplicate"
)

// CriterionVerdicts are the statuses a reviewer may give a criterion.
var CriterionVerdicts = []CriterionStatus{CriterionValid, CriterionTooVague, CriterionTooSpecific, CriterionDuplicate}

// CriterionStatuses are every status a criterion can have, pending first.
var CriterionStatuses = append([]CriterionStatus{CriterionPending}, CriterionVerdicts...)

// IsVerdict reports whether c is a status a reviewer may give.
func (c CriterionStatus) IsVerdict() bool { return slices.Contains(CriterionVerdicts, c) }

// FlagCategory says what is wrong with a flagged item.
type FlagCategory string

// Flag categories annotators can choose.
const (
	FlagBrokenMedia   FlagCategory = "broken_media"
	FlagUnsafeContent FlagCategory = "unsafe_content"
	FlagWrongModality FlagCategory = "wrong_modality"
	FlagOther         FlagCategory = "other"
)

// FlagSpotCheckMismatch is the category of the flag the workflow sets, not a person, when a
// blind spot check disagrees with an item's imported ground truth.
const FlagSpotCheckMismatch FlagCategory = "spot_check_mismatch"

// FlagCategories lists the flag categories.
var FlagCategories = []FlagCategory{FlagBrokenMedia, FlagUnsafeContent, FlagWrongModality, FlagOther}

// Valid reports whether c is a flag category.
func (c FlagCategory) Valid() bool { return slices.Contains(FlagCategories, c) }

// FlagAction is a lead's decision on a flagged item.
type FlagAction string

// Flag actions.
const (
	FlagReturn FlagAction = "return" // back to the queue
	FlagDrop   FlagAction = "drop"   // dropped, the flag recorded as the reason
)

// FlagActions lists the flag actions.
var FlagActions = []FlagAction{FlagReturn, FlagDrop}

// Valid reports whether a is a flag action.
func (a FlagAction) Valid() bool { return slices.Contains(FlagActions, a) }

// ImportKind is what an NDJSON import holds.
type ImportKind string

// Import kinds.
const (
	ImportItems       ImportKind = "items"
	ImportPredictions ImportKind = "predictions"
)

// ImportStatus is where a background import stands.
type ImportStatus string

// Import statuses.
const (
	ImportQueued  ImportStatus = "queued"
	ImportRunning ImportStatus = "running"
	ImportDone    ImportStatus = "done"
	ImportFailed  ImportStatus = "failed"
)

// ReleaseStatus is where a release stands. A release is queued with its job, running while the
// job writes its files, then done (its files listed) or failed (its error kept, no file listed).
type ReleaseStatus string

// Release statuses.
const (
	ReleaseQueued  ReleaseStatus = "queued"
	ReleaseRunning ReleaseStatus = "running"
	ReleaseDone    ReleaseStatus = "done"
	ReleaseFailed  ReleaseStatus = "failed"
)

// Finished reports whether a release has reached done or failed, after which it never changes.
func (s ReleaseStatus) Finished() bool { return s == ReleaseDone || s == ReleaseFailed }

// Provenance says how an item's ground truth was decided.
type Provenance string

// Provenances of ground truth.
const (
	ProvenanceUnanimous Provenance = "unanimous"
	ProvenanceMajority  Provenance = "majority"
	// ProvenanceWeighted: a question was decided by the answer with the highest posterior under
	// the reliability model (consensus rule "reliability").
	ProvenanceWeighted    Provenance = "weighted"
	ProvenanceSingle      Provenance = "single"
	ProvenanceAdjudicated Provenance = "adjudicated"
	ProvenanceRule        Provenance = "rule"
	ProvenanceConstructed Provenance = "constructed"
	// ProvenanceAggregated: every decided question was aggregated over its evaluations (mean,
	// median, all) under the policy's aggregation rules, none agreed on.
	ProvenanceAggregated Provenance = "aggregated"
)

// RevisionKind says what kind of save an answer revision records.
type RevisionKind string

// Revision kinds.
const (
	RevisionDraft  RevisionKind = "draft"
	RevisionSubmit RevisionKind = "submit"
	// RevisionPrefill is version 0 of a label that started from a model draft: that draft.
	RevisionPrefill RevisionKind = "prefill"
	// RevisionPass is the submit of a pass that is not the last of its form: its answers are
	// frozen and the next pass opens for the same person.
	RevisionPass RevisionKind = "pass"
)

// RoundStatus is where a calibration round stands: open while participants label it, closed
// (frozen) once the lead closes it.
type RoundStatus string

// Round statuses.
const (
	RoundOpen   RoundStatus = "open"
	RoundClosed RoundStatus = "closed"
)

// PassMetric is the figure a calibration round's pass rule compares with its threshold.
type PassMetric string

// Pass metrics.
const (
	PassAccuracyVsGold     PassMetric = "accuracy_vs_gold"
	PassExactWithPeers     PassMetric = "exact_with_peers"
	PassWithinOneWithPeers PassMetric = "within_one_with_peers"
	PassAlphaWithPeers     PassMetric = "alpha_with_peers"
)

// PassMetrics lists the pass metrics.
var PassMetrics = []PassMetric{PassAccuracyVsGold, PassExactWithPeers, PassWithinOneWithPeers, PassAlphaWithPeers}

// Valid reports whether m is a pass metric.
func (m PassMetric) Valid() bool { return slices.Contains(PassMetrics, m) }

// OrdinalOnly reports whether the metric applies to ordinal questions only.
func (m PassMetric) OrdinalOnly() bool { return m == PassExactWithPeers || m == PassWithinOneWithPeers }

// ReferenceKind says what a participant's answer is compared with in their feedback.
type ReferenceKind string

// Reference kinds.
const (
	ReferenceGold     ReferenceKind = "gold"
	ReferenceMajority ReferenceKind = "majority"
)
