// Package workflow holds the business rules of annotation: the per-project policy, who may
// claim what, how an item moves from labeling through review and adjudication to ground truth,
// and the consensus rule. Handlers call it; nothing else decides these things.
package workflow

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ReviewMode says whether labels are cross-reviewed.
type ReviewMode string

// Review modes.
const (
	ReviewNone  ReviewMode = "none"
	ReviewCross ReviewMode = "cross" // every label is reviewed by a person who did not make it
)

// ReviewModes lists the review modes.
var ReviewModes = []ReviewMode{ReviewNone, ReviewCross}

// AdjudicationMode says when an adjudicator decides an item.
type AdjudicationMode string

// Adjudication modes.
const (
	AdjudicateNever          AdjudicationMode = "never"
	AdjudicateOnDisagreement AdjudicationMode = "on_disagreement"
	AdjudicateAlways         AdjudicationMode = "always"
)

// AdjudicationModes lists the adjudication modes.
var AdjudicationModes = []AdjudicationMode{AdjudicateNever, AdjudicateOnDisagreement, AdjudicateAlways}

// NominalRule decides when nominal answers agree.
type NominalRule string

// Nominal rules.
const (
	NominalUnanimous NominalRule = "unanimous"
	NominalMajority  NominalRule = "majority" // strictly more than half
	// NominalReliability takes the answer with the highest posterior under the project's
	// reliability model (each annotator's confusion matrix and the class prior) instead of the
	// most frequent one.
	NominalReliability NominalRule = "reliability"
)

// NominalRules lists the nominal rules.
var NominalRules = []NominalRule{NominalUnanimous, NominalMajority, NominalReliability}

// NoConsensusAction is what happens to an item whose labels do not agree.
type NoConsensusAction string

// No-consensus actions.
const (
	NoConsensusAdjudicate NoConsensusAction = "adjudicate"
	NoConsensusDrop       NoConsensusAction = "drop" // dropped, with the disagreement as the reason
)

// NoConsensusActions lists the no-consensus actions.
var NoConsensusActions = []NoConsensusAction{NoConsensusAdjudicate, NoConsensusDrop}

// DraftMethod says how model predictions combine into a draft.
type DraftMethod string

// Draft methods.
const (
	DraftMean     DraftMethod = "mean" // likert and checklist, rounded
	DraftMajority DraftMethod = "majority"
	DraftModel    DraftMethod = "model" // one named model's answers
)

// DraftMethods lists the draft methods.
var DraftMethods = []DraftMethod{DraftMean, DraftMajority, DraftModel}

// Rounding rounds a mean draft to a scale point.
type Rounding string

// Roundings.
const (
	RoundHalfUp Rounding = "half_up"
	RoundFloor  Rounding = "floor"
	RoundCeil   Rounding = "ceil"
)

// Roundings lists the roundings.
var Roundings = []Rounding{RoundHalfUp, RoundFloor, RoundCeil}

// oneOf reports a field whose value is not one of the allowed ones.
func oneOf[T ~string](bad func(field, code, format string, args ...any), field string, v T, allowed []T) {
	if !slices.Contains(allowed, v) {
		bad(field, "invalid_value", "%q is not one of %v", v, allowed)
	}
}

// AggregateRule says how the evaluations of a question become its released value.
type AggregateRule string

// Aggregation rules.
const (
	// AggregateConsensus: one answer the labels agree on under the consensus rule; an item
	// whose labels do not agree is adjudicated or dropped (OnNoConsensus).
	AggregateConsensus AggregateRule = exports.AggregateConsensus
	// AggregateMean: the mean of every evaluation, each weighted equally, nothing dropped, the
	// spread kept (the mean opinion score of rating studies). Scored questions only.
	AggregateMean AggregateRule = exports.AggregateMean
	// AggregateMedian: the median of every evaluation (the mean of the two middle ones for an
	// even count), nothing dropped. Scored questions only.
	AggregateMedian AggregateRule = exports.AggregateMedian
	// AggregateAll: no aggregation: each evaluation is a record of its own.
	AggregateAll AggregateRule = exports.AggregateAll
)

// AggregateRules lists the aggregation rules.
var AggregateRules = []AggregateRule{AggregateConsensus, AggregateMean, AggregateMedian, AggregateAll}

// Aggregation chooses the aggregation rule of each question: Questions by key, else Default,
// else consensus.
type Aggregation struct {
	Default   AggregateRule            `json:"default,omitempty"`
	Questions map[string]AggregateRule `json:"questions,omitempty"`
}

// Of is the rule of a question.
func (a Aggregation) Of(key string) AggregateRule {
	if r, ok := a.Questions[key]; ok {
		return r
	}
	if a.Default != "" {
		return a.Default
	}
	return AggregateConsensus
}

// Policy is a project's workflow. Every field is optional; Defaults fills the gaps.
type Policy struct {
	// Overlap is the number of independent labels per item.
	Overlap int `json:"overlap"`
	// Review is "none" or "cross": every label is reviewed by a different person.
	Review ReviewMode `json:"review"`
	// Adjudication is "never", "on_disagreement" or "always".
	Adjudication AdjudicationMode `json:"adjudication"`
	// Consensus decides when independent labels agree.
	Consensus Consensus `json:"consensus"`
	// Aggregation chooses per question how its evaluations become the released value:
	// consensus (the default), mean, median or all.
	Aggregation Aggregation `json:"aggregation"`
	// OnNoConsensus is what happens to an item whose labels do not agree under adjudication
	// "on_disagreement": "adjudicate" or "drop" (with the reason recorded). With "never" such
	// items are always dropped, so it is "drop"; with "always" every item is adjudicated anyway.
	OnNoConsensus NoConsensusAction `json:"on_no_consensus"`
	// LeaseMinutes is how long a claim holds before the item returns to the queue.
	LeaseMinutes int `json:"lease_minutes"`
	// BlindReview hides the label from the reviewer until they have given their own answers.
	BlindReview bool `json:"blind_review"`
	// CriteriaStage runs criteria authoring before labeling (Omni-Reward).
	CriteriaStage *CriteriaStage `json:"criteria_stage,omitempty"`
	// ChecklistStage runs checklist refinement before labeling (Judge Anything).
	ChecklistStage *ChecklistStage `json:"checklist_stage,omitempty"`
	// DraftFromPredictions prefills the form from imported model predictions.
	DraftFromPredictions *DraftPolicy `json:"draft_from_predictions,omitempty"`
	// SpotCheckRate sends this share of items imported with ground truth to blind labeling.
	SpotCheckRate float64 `json:"spot_check_rate"`
	// ShowAnnotatorNames shows who gave which label to adjudicators (leads always see them).
	ShowAnnotatorNames bool `json:"show_annotator_names"`
	// GoldRate is the share of label claims that hand out a gold item.
	GoldRate float64 `json:"gold_rate"`
	// GoldMinAccuracy flags an annotator whose gold accuracy over the window is below it.
	GoldMinAccuracy float64 `json:"gold_min_accuracy"`
	// GoldWindow is how many of a person's latest gold answers the accuracy is taken over.
	GoldWindow int `json:"gold_window"`
	// GoldPause pauses a flagged annotator until a lead lifts it.
	GoldPause bool `json:"gold_pause"`
	// RushedSeconds: a label submitted faster than this counts as rushed.
	RushedSeconds float64 `json:"rushed_seconds"`
	// ReliabilityMinAccuracy flags an annotator whose estimated accuracy (the Dawid–Skene
	// model of the project's labels) lies wholly below it, interval included.
	ReliabilityMinAccuracy float64 `json:"reliability_min_accuracy"`
	// RequireQualification lets annotators claim label work only once qualified: by passing a
	// calibration round of the project, or by a lead.
	RequireQualification bool `json:"require_qualification"`
	// AdaptiveOverlap, when set, has each item take Min labels (the overlap), then one more at a
	// time until its answer is certain enough (see AdaptiveOverlap).
	AdaptiveOverlap *AdaptiveOverlap `json:"adaptive_overlap,omitempty"`
	// Languages, when set, are the BCP 47 tags every item must carry one of (an item in a more
	// specific tag, "en-US" under "en", counts); stored canonical and sorted.
	Languages []string `json:"languages,omitempty"`
}

// Consensus is the agreement rule per level of measurement.
type Consensus struct {
	// Nominal is "unanimous", "majority" (strictly more than half) or "reliability" (the
	// answer with the highest posterior).
	Nominal NominalRule `json:"nominal"`
	// OrdinalTolerance counts ordinal scores within ±tolerance as agreeing (0: exact).
	OrdinalTolerance int `json:"ordinal_tolerance"`
	// posterior is, under the reliability rule, the item's posteriors the rule decides by.
	posterior Posteriors
}

// CriteriaStage configures criteria authoring: the template form used to write criteria and
// the question of that form that holds them.
type CriteriaStage struct {
	Form     string `json:"form"`
	Question string `json:"question"`
	// InputName is the item input that receives the criterion text in child units.
	InputName string `json:"input"`
	// Overlap is the number of people who write criteria for each item (Omni-Reward: every
	// annotator); 0 reads as 1. The item waits for review once all have written.
	Overlap int `json:"overlap"`
	// AuthorsLabel lets the author of a criterion label the unit made from it, as Omni-Reward's
	// three annotators wrote the criteria and gave every unit its three labels. Off, a unit is
	// never given to its criterion's author, so overlap N needs N+1 annotators. An author never
	// reviews or adjudicates a unit of their own criterion either way.
	AuthorsLabel bool `json:"authors_label"`
}

// ChecklistStage configures checklist refinement: the template form whose list_edit questions
// decide, per list (a rubric's drafted checklist), every drafted entry (keep, drop, reword) and
// add what is missing. One person refines an item; the label stage shows the refined lists,
// and the release keeps the drafted ones beside them. The refiner does not work the item in
// another stage (one role per item), so overlap N needs N+1 annotators. An item imported
// without a list to refine goes straight to labeling.
type ChecklistStage struct {
	Form string `json:"form"`
}

// DraftPolicy says how model predictions become a draft.
type DraftPolicy struct {
	// Method is "mean" (likert and checklist; rounded), "majority", or "model".
	Method DraftMethod `json:"method"`
	// Model names the one model whose answers are used with Method "model".
	Model string `json:"model,omitempty"`
	// Rounding for "mean": "half_up" (default), "floor" or "ceil".
	Rounding Rounding `json:"rounding,omitempty"`
}

// Defaults fills unset fields with the defaults.
func (p Policy) Defaults() Policy {
	if a := p.AdaptiveOverlap; a != nil {
		if p.Overlap == 0 {
			p.Overlap = a.Min
		}
		c := *a
		if c.OnMax == "" {
			c.OnMax = OnMaxConsensus
		}
		if c.Baseline == 0 {
			c.Baseline = min(c.Min+1, c.Max)
		}
		p.AdaptiveOverlap = &c
	}
	if p.Overlap == 0 {
		p.Overlap = 1
	}
	if p.Review == "" {
		p.Review = ReviewNone
	}
	if p.Adjudication == "" {
		p.Adjudication = AdjudicateOnDisagreement
	}
	if p.Consensus.Nominal == "" {
		p.Consensus.Nominal = NominalUnanimous
	}
	if p.OnNoConsensus == "" {
		p.OnNoConsensus = NoConsensusAdjudicate
		if p.Adjudication == AdjudicateNever {
			p.OnNoConsensus = NoConsensusDrop
		}
	}
	if p.LeaseMinutes == 0 {
		p.LeaseMinutes = 30
	}
	if p.GoldMinAccuracy == 0 {
		p.GoldMinAccuracy = 0.8
	}
	if p.GoldWindow == 0 {
		p.GoldWindow = 20
	}
	if p.RushedSeconds == 0 {
		p.RushedSeconds = 3
	}
	if p.ReliabilityMinAccuracy == 0 {
		p.ReliabilityMinAccuracy = 0.7
	}
	if p.CriteriaStage != nil && p.CriteriaStage.Overlap == 0 {
		c := *p.CriteriaStage
		c.Overlap = 1
		p.CriteriaStage = &c
	}
	if langs, err := tasks.CanonicalLanguages("workflow.languages", p.Languages); err == nil && len(langs) > 0 {
		p.Languages = langs // note: bad tags stay as given, for Validate to name them
	}
	if p.DraftFromPredictions != nil && p.DraftFromPredictions.Rounding == "" {
		d := *p.DraftFromPredictions // note: a copy, as with the criteria stage: the caller's policy stays as it was
		d.Rounding = RoundHalfUp
		p.DraftFromPredictions = &d
	}
	return p
}

// Validate checks a policy (after Defaults) against the project's schema and forms.
func (p Policy) Validate(schema *tasks.Schema, forms map[string]tasks.Schema) error {
	fe := tasks.FieldErrors{}
	bad := func(field, code, format string, args ...any) {
		fe[field] = tasks.FieldError{Code: code, Message: fmt.Sprintf(format, args...)}
	}
	if p.Overlap < 1 || p.Overlap > 50 {
		bad("workflow.overlap", "out_of_range", "overlap must be 1 to 50")
	}
	oneOf(bad, "workflow.review", p.Review, ReviewModes)
	oneOf(bad, "workflow.adjudication", p.Adjudication, AdjudicationModes)
	oneOf(bad, "workflow.consensus.nominal", p.Consensus.Nominal, NominalRules)
	oneOf(bad, "workflow.on_no_consensus", p.OnNoConsensus, NoConsensusActions)
	if p.Adjudication == AdjudicateNever && p.OnNoConsensus == NoConsensusAdjudicate {
		bad("workflow.on_no_consensus", "invalid_value", "with adjudication %q items without consensus are dropped: set on_no_consensus to %q, or adjudication to %q",
			AdjudicateNever, NoConsensusDrop, AdjudicateOnDisagreement)
	}
	if p.Consensus.OrdinalTolerance < 0 {
		bad("workflow.consensus.ordinal_tolerance", "out_of_range", "tolerance must be 0 or more")
	}
	if p.LeaseMinutes < 1 || p.LeaseMinutes > 24*60 {
		bad("workflow.lease_minutes", "out_of_range", "lease_minutes must be 1 to 1440")
	}
	if p.SpotCheckRate < 0 || p.SpotCheckRate > 1 {
		bad("workflow.spot_check_rate", "out_of_range", "spot_check_rate must be between 0 and 1")
	}
	if _, err := tasks.CanonicalLanguages("workflow.languages", p.Languages); err != nil {
		for k, v := range err.(tasks.FieldErrors) {
			fe[k] = v
		}
	}
	p.validateGold(bad)
	p.validateAdaptive(schema, bad)
	p.validateDraft(bad)
	p.validateCriteria(schema, forms, bad)
	p.validateChecklist(schema, forms, bad)
	p.validateAggregation(schema, bad)
	return fe.Err()
}

// validateAggregation checks the rules: known ones, on questions of the schema, mean and median
// on scored questions only.
func (p Policy) validateAggregation(schema *tasks.Schema, bad func(field, code, format string, args ...any)) {
	a := p.Aggregation
	if a.Default != "" {
		oneOf(bad, "workflow.aggregation.default", a.Default, AggregateRules)
	}
	for _, key := range slices.Sorted(maps.Keys(a.Questions)) {
		field := "workflow.aggregation.questions." + key
		oneOf(bad, field, a.Questions[key], AggregateRules)
		if schema == nil || len(schema.Questions) == 0 {
			continue
		}
		if _, ok := schema.Question(key); !ok {
			bad(field, "unknown_question", "the schema has no question %q", key)
		}
	}
	if schema == nil {
		return
	}
	for _, q := range schema.Questions {
		r := a.Of(q.Key)
		if (r == AggregateMean || r == AggregateMedian) && tasks.KindOf(q).Consensus() != tasks.ConsensusScore {
			field := "workflow.aggregation.questions." + q.Key
			if _, ok := a.Questions[q.Key]; !ok {
				if tasks.KindOf(q).Consensus() == tasks.ConsensusNone {
					continue // note: free text is kept beside the decision under any rule
				}
				field = "workflow.aggregation.default"
			}
			bad(field, "invalid_value", "%s needs a scored question (likert); %q is %s: choose consensus or all for it", r, q.Key, q.Kind)
		}
	}
}

func (p Policy) validateGold(bad func(field, code, format string, args ...any)) {
	if p.GoldRate < 0 || p.GoldRate > 1 {
		bad("workflow.gold_rate", "out_of_range", "gold_rate must be between 0 and 1")
	}
	if p.GoldMinAccuracy <= 0 || p.GoldMinAccuracy > 1 {
		bad("workflow.gold_min_accuracy", "out_of_range", "gold_min_accuracy must be more than 0 and at most 1")
	}
	if p.GoldWindow < 1 || p.GoldWindow > 1000 {
		bad("workflow.gold_window", "out_of_range", "gold_window must be 1 to 1000")
	}
	if p.RushedSeconds <= 0 || p.RushedSeconds > 3600 {
		bad("workflow.rushed_seconds", "out_of_range", "rushed_seconds must be more than 0 and at most 3600")
	}
	if p.ReliabilityMinAccuracy <= 0 || p.ReliabilityMinAccuracy > 1 {
		bad("workflow.reliability_min_accuracy", "out_of_range", "reliability_min_accuracy must be more than 0 and at most 1")
	}
}

func (p Policy) validateDraft(bad func(field, code, format string, args ...any)) {
	d := p.DraftFromPredictions
	if d == nil {
		return
	}
	oneOf(bad, "workflow.draft_from_predictions.method", d.Method, DraftMethods)
	if d.Method == DraftModel && d.Model == "" {
		bad("workflow.draft_from_predictions.model", "required", "name the model whose predictions are drafts")
	}
	oneOf(bad, "workflow.draft_from_predictions.rounding", d.Rounding, Roundings)
}

func (p Policy) validateCriteria(schema *tasks.Schema, forms map[string]tasks.Schema, bad func(field, code, format string, args ...any)) {
	c := p.CriteriaStage
	if c == nil {
		return
	}
	if c.Overlap < 1 || c.Overlap > 50 {
		bad("workflow.criteria_stage.overlap", "out_of_range", "criteria overlap (authors per item) must be 1 to 50")
	}
	form, ok := forms[c.Form]
	if !ok {
		bad("workflow.criteria_stage.form", "unknown_form", "the project has no form %q", c.Form)
		return
	}
	q, ok := form.Question(c.Question)
	if !ok || q.Kind != tasks.KindCriteria {
		bad("workflow.criteria_stage.question", "invalid_value", "%q is not a criteria question of form %q", c.Question, c.Form)
	}
	if !slices.ContainsFunc(schema.Inputs, func(in tasks.Input) bool { return in.Name == c.InputName }) {
		bad("workflow.criteria_stage.input", "unknown_input", "the schema has no input %q for the criterion", c.InputName)
	}
}

func (p Policy) validateChecklist(schema *tasks.Schema, forms map[string]tasks.Schema, bad func(field, code, format string, args ...any)) {
	c := p.ChecklistStage
	if c == nil {
		return
	}
	if p.CriteriaStage != nil {
		bad("workflow.checklist_stage", "invalid_value", "a project writes criteria or refines checklists before labeling, not both")
	}
	form, ok := forms[c.Form]
	if !ok {
		bad("workflow.checklist_stage.form", "unknown_form", "the project has no form %q", c.Form)
		return
	}
	lists := RefinedLists(form)
	if len(lists) == 0 {
		bad("workflow.checklist_stage.form", "invalid_value", "form %q has no list_edit question to refine a checklist with", c.Form)
	}
	for _, q := range lists {
		if in, ok := schema.Input(q.List); !ok || in.Type != tasks.InputJSON {
			bad("workflow.checklist_stage.form", "unknown_input", "question %q of form %q refines input %q, which the schema does not declare as json", q.Key, c.Form, q.List)
		}
	}
}

// ParsePolicy reads a stored policy and applies the defaults. A policy stored before the rule
// above with adjudication "never" and on_no_consensus "adjudicate" (the old default, which
// never adjudicated) reads as "drop", which is what it did.
func ParsePolicy(raw []byte) (Policy, error) {
	var p Policy
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return p, err
		}
	}
	if p.Adjudication == AdjudicateNever && p.OnNoConsensus == NoConsensusAdjudicate {
		p.OnNoConsensus = NoConsensusDrop
	}
	return p.Defaults(), nil
}
