package exports

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Status says whether an item reached ground truth.
type Status string

// Item statuses. Only done items carry ground truth; dropped and unresolved
// items are exported only when the spec includes them, marked with their
// status and drop reason.
const (
	StatusDone       Status = "done"
	StatusDropped    Status = "dropped"
	StatusUnresolved Status = "unresolved"
)

// Provenance kinds of ground truth, as the workflow records them.
const (
	ProvUnanimous = "unanimous"
	ProvMajority  = "majority"
	// ProvWeighted: a question was decided by the answer most likely under the annotators'
	// reliability model.
	ProvWeighted    = "weighted"
	ProvSingle      = "single"
	ProvAdjudicated = "adjudicated"
	ProvRule        = "rule"
	ProvConstructed = "constructed"
	// ProvAggregated: every decided question was aggregated (mean, median or all of the
	// evaluations) rather than agreed on; Record.Aggregates holds the values.
	ProvAggregated = "aggregated"
)

// ProvenanceKinds lists every provenance kind in documentation order.
var ProvenanceKinds = []string{ProvUnanimous, ProvMajority, ProvWeighted, ProvSingle, ProvAdjudicated, ProvRule, ProvConstructed, ProvAggregated}

// Record is one released item, as the caller streams it in.
//
// Person fields (Provenance.Adjudicator, Label.Annotator, Review.Reviewer,
// Review.Annotator) hold the caller's user ids; Export replaces every one of
// them with a release pseudonym before any writer sees the record.
type Record struct {
	// ID is the item's Arbiter id.
	ID string
	// ExternalID is the item's id in the source dataset.
	ExternalID string
	// Language is the item's BCP 47 tag (en, zh-Hans), empty when it has
	// none.
	Language string
	// Inputs maps an input name to its value, as in tasks.Item; media values
	// are the paths or URLs the release should carry (the caller rewrites
	// asset references before streaming).
	Inputs map[string]json.RawMessage
	// Meta is the item's hidden metadata (generator, seed, cluster key, ...).
	Meta map[string]json.RawMessage
	// Status is done, dropped or unresolved; empty means done.
	Status Status
	// Answers is the ground truth in canonical candidate order, as answered
	// (binary "yes"/"no"/"na", likert integers, pairwise "A"/"B"/"tie", ...).
	// Empty for dropped and unresolved items.
	Answers tasks.Answers
	// Provenance says how the ground truth was reached.
	Provenance Provenance
	// Agreement holds per-item agreement figures; when nil, Export computes
	// them from Labels.
	Agreement *ItemAgreement
	// DropReason says why a dropped or unresolved item has no ground truth.
	DropReason string
	// Split is assigned by Export from the spec; a value given here is
	// overwritten.
	Split string
	// Labels are the independent labels of the item, rejected ones too, each
	// with the annotator's own answers in canonical candidate order. With
	// their reviews' corrections in place (countedLabels) they feed per-item
	// agreement; they are written only when the spec asks for raw
	// annotations.
	Labels []Label
	// Reviews are the cross-review verdicts on those labels, each with the
	// reviewer's answers (a correction), written only when the spec asks for
	// raw annotations.
	Reviews []Review
	// Texts keeps, per free-text question, every accepted text answer behind
	// the ground truth (the adjudicator's first when adjudicated), so
	// evidence and rationales survive a consensus decision.
	Texts map[string][]TextAnswer
	// Aggregates holds, per question the policy aggregates rather than
	// decides by consensus, the rule and what it made of every evaluation;
	// those questions are not in Answers.
	Aggregates map[string]Aggregate
	// Parent is the id of the item this one was made from (a unit made from
	// one criterion of its parent), empty otherwise.
	Parent string
	// SpotCheck, when set, says a blind spot check disagreed with the item's
	// imported ground truth and the lead has not resolved the flag: the item
	// is left out of the release, as D3-Omni removes the items its spot
	// check rejects.
	SpotCheck *SpotCheckFailure
	// Skips are the times a person skipped the item; they are counted in
	// the tally and written with the raw annotations.
	Skips []Skip
	// Refinements are the lists a person refined before the item was
	// labeled (Judge Anything's checklists), each with its drafted entries
	// and how every one was decided; Inputs holds the refined lists.
	Refinements []Refinement
}

// Refinement is one drafted list as a person refined it: which entries
// they kept, reworded or dropped, and which they added.
type Refinement struct {
	// Input is the item input holding the list; Key names the list in it
	// when the input holds a list per key (a rubric), "" otherwise.
	Input string `json:"input"`
	Key   string `json:"key,omitempty"`
	// Drafted is the list as imported (an LLM's draft).
	Drafted []string `json:"drafted"`
	// Entries are the refined list's entries in order, each with where it
	// came from.
	Entries []RefinedEntry `json:"entries"`
	// Dropped are the drafted entries the person dropped.
	Dropped []string `json:"dropped"`
	// By is the user id of who refined it (a pseudonym once exported).
	By string `json:"refined_by"`
}

// How a refined entry came to be.
const (
	OriginDrafted  = "drafted"  // kept as drafted
	OriginReworded = "reworded" // a drafted entry reworded
	OriginAdded    = "added"    // written by the person
)

// RefinedEntry is one entry of a refined list.
type RefinedEntry struct {
	Text   string `json:"text"`
	Origin string `json:"origin"`
	// Drafted is the drafted text of a reworded entry.
	Drafted string `json:"drafted,omitempty"`
}

// SpotCheckFailure is a blind spot check that disagreed with imported
// ground truth.
type SpotCheckFailure struct {
	// Questions are the questions (dimensions) it disagreed on, in schema
	// order; empty when the check did not record them.
	Questions []string
}

// reason names the questions for the tally.
func (s *SpotCheckFailure) reason() string {
	if len(s.Questions) == 0 {
		return "disagreed with the imported ground truth"
	}
	return "disagreed on " + strings.Join(s.Questions, ", ")
}

// Skip is one person's skip of an item.
type Skip struct {
	// Person is the user id of who skipped (a pseudonym once exported).
	Person string `json:"person"`
	// Stage is the stage of the work skipped (label, review, ...).
	Stage string `json:"stage"`
	// Reason is the reason given, if any.
	Reason string `json:"reason,omitempty"`
}

// Aggregation rules of a question, as the workflow policy names them.
const (
	AggregateConsensus = "consensus"
	AggregateMean      = "mean"
	AggregateMedian    = "median"
	AggregateAll       = "all"
)

// Aggregate is what an aggregation rule made of one question's evaluations:
// every evaluation weighted equally, nothing dropped, the spread kept.
type Aggregate struct {
	// Rule is mean, median or all (no aggregation: each evaluation is a
	// record, see Record.Labels).
	Rule string `json:"rule"`
	// N is the number of evaluations that answered the question.
	N int `json:"n"`
	// Value is the mean or the median of the scores; nil for all.
	Value *float64 `json:"value,omitempty"`
	// Min, Max and SD (the sample standard deviation, nil under two
	// evaluations) describe the spread of the scores.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	SD  *float64 `json:"sd,omitempty"`
}

// Aggregated reports whether the rule evaluates each evaluation on its own
// (mean, median, all) rather than one agreed answer.
func Aggregated(rule string) bool {
	return rule == AggregateMean || rule == AggregateMedian || rule == AggregateAll
}

// TextAnswer is one person's free-text answer kept with the ground truth.
type TextAnswer struct {
	// Author is the user id of who wrote it (a pseudonym once exported).
	Author string `json:"author"`
	// Role is "annotator", "corrected" (a reviewer's correction of a label,
	// Author being the reviewer) or "adjudicator".
	Role string `json:"role"`
	// Text is the answer as written.
	Text string `json:"text"`
}

// Provenance is how an item's ground truth was reached.
type Provenance struct {
	// Kind is one of ProvenanceKinds.
	Kind string `json:"kind"`
	// Adjudicator is the user id of the adjudicator (a pseudonym once
	// exported); empty unless Kind is adjudicated.
	Adjudicator string `json:"adjudicator,omitempty"`
	// Rationale is the adjudicator's rationale.
	Rationale string `json:"rationale,omitempty"`
	// Confidence is the adjudicator's confidence in [0, 1], when given.
	Confidence *float64 `json:"confidence,omitempty"`
	// Revision is the ground-truth revision exported (1 for the first).
	Revision int `json:"revision"`
}

// Roles of the people in labels and reviews.
const (
	RoleAnnotator = "annotator"
	RoleReviewer  = "reviewer"
)

// ReviewRejected is the review status of a label a reviewer rejected: it is
// kept in the record but does not count.
const ReviewRejected = "rejected"

// Label is one person's label of an item, as they submitted it.
type Label struct {
	// Annotator is the labeller's user id (a pseudonym once exported).
	Annotator string `json:"annotator"`
	// Role is RoleAnnotator; Export sets it.
	Role string `json:"role"`
	// Answers are the annotator's own answers, in canonical candidate order;
	// a reviewer's correction is in that review's answers.
	Answers tasks.Answers `json:"answers"`
	// Review is the label's review status (approved, corrected, rejected,
	// disputed, pending); empty when it was not reviewed.
	Review string `json:"review,omitempty"`
}

// Review is one cross-review verdict on a label.
type Review struct {
	// Reviewer is the reviewer's user id (a pseudonym once exported).
	Reviewer string `json:"reviewer"`
	// Role is RoleReviewer; Export sets it.
	Role string `json:"role"`
	// Annotator is the user id of the person whose label was reviewed.
	Annotator string `json:"annotator"`
	// Verdict is approve, correct, reject or disputed (a blind review that
	// disagreed).
	Verdict string `json:"verdict"`
	// Comment is the reviewer's overall comment.
	Comment string `json:"comment,omitempty"`
	// Comments holds per-question comments by question key.
	Comments map[string]string `json:"comments,omitempty"`
	// Answers are the reviewer's answers (verdict correct: the correction
	// that counts in place of the label's), in canonical candidate order.
	Answers tasks.Answers `json:"answers,omitempty"`
}

// countedLabels are the labels as consensus counted them: rejected labels
// left out, and a label a reviewer corrected replaced by the correction,
// under the reviewer (Annotator is then the reviewer: who gave the answers
// that count).
func countedLabels(labels []Label, reviews []Review) []Label {
	out := make([]Label, 0, len(labels))
	for _, l := range labels {
		if l.Review == ReviewRejected {
			continue
		}
		for _, r := range reviews {
			if r.Verdict == "correct" && r.Annotator == l.Annotator && len(r.Answers) > 0 {
				l = Label{Annotator: r.Reviewer, Role: r.Role, Answers: r.Answers, Review: l.Review}
				break
			}
		}
		out = append(out, l)
	}
	return out
}

// ItemAgreement is how far an item's labels agreed.
type ItemAgreement struct {
	// Labels is the number of labels compared.
	Labels int `json:"labels"`
	// PercentAgreement is the mean over questions of the share of agreeing
	// label pairs; nil when no question had two answers.
	PercentAgreement *float64 `json:"percent_agreement"`
	// Questions maps a question key to its share of agreeing label pairs.
	Questions map[string]float64 `json:"questions,omitempty"`
}

// Release is the header of a release: what the project is, how it was
// annotated, and the figures the dataset card reports. Everything here comes
// from the caller; Export adds what it counts while streaming.
type Release struct {
	// Name names the release, e.g. "v1".
	Name string
	// Project describes the project released.
	Project Project
	// Schema is the project's task schema (the version the ground truth
	// answers).
	Schema tasks.Schema
	// Template is the id of the built-in template the project follows
	// ("d3omni-t2i", "robojudge", ...), empty for a custom schema. Benchmark
	// formats use it to name the task or track.
	Template string
	// Policy is the workflow policy as stored, copied into the manifest.
	Policy json.RawMessage
	// PolicySummary describes the workflow in a sentence for the card, e.g.
	// "3 independent labels per item; no consensus is dropped".
	PolicySummary string
	// Figures are the project's annotation figures for the card.
	Figures Figures
	// Card holds the dataset card's front matter fields.
	Card Card
	// Criteria, when the project has a criteria stage, counts the criteria
	// written and those its QC removed; the tally carries them, with the
	// units Export reads.
	Criteria *CriteriaQC
	// CreatedAt is the release time written to the manifest (never to data
	// files).
	CreatedAt time.Time
	// ArbiterVersion is the version of the server making the release.
	ArbiterVersion string
	// Salt keys the annotator pseudonyms (HMAC-SHA256). Use one secret per
	// project: pseudonyms then stay stable across that project's releases
	// (so a release can be reproduced byte for byte) and differ between
	// projects. It must not be empty.
	Salt []byte
}

// Project names and describes the released project.
type Project struct {
	// ID is the project's id, copied into the manifest.
	ID string
	// Name titles the card and the manifest.
	Name string
	// Description opens the card (Markdown).
	Description string
}

// Card holds the Hugging Face front matter of the dataset card.
type Card struct {
	// License is a Hugging Face license id ("cc-by-4.0"); default "other".
	License string
	// Languages are ISO 639-1 codes; default ["en"].
	Languages []string
	// TaskCategories are Hugging Face task categories; when empty they are
	// derived from the template.
	TaskCategories []string
	// Tags are free tags.
	Tags []string
	// Citation is a BibTeX entry shown at the end of the card.
	Citation string
}

// Figures are a project's annotation figures, as the card reports them.
//
// Item counts are not figures: the card counts items from the release's
// Tally alone.
type Figures struct {
	// Annotators, Reviewers and Adjudicators count distinct people per role
	// who contributed.
	Annotators   int
	Reviewers    int
	Adjudicators int
	// Overlap is the number of independent labels per item the policy asks.
	Overlap int
	// Labels is the number of labels submitted.
	Labels int
	// Reviews counts review verdicts, by verdict (approve, correct, reject).
	Reviews map[string]int
	// Adjudications is the number of adjudicated items.
	Adjudications int
	// Agreement is the agreement per question, in schema order.
	Agreement []QuestionAgreement
	// AgreementScope says what Agreement was computed over, completing
	// "Value and interval are computed over ..."; empty means "the whole
	// project".
	AgreementScope string
}

// QuestionAgreement is the agreement on one question across the project.
type QuestionAgreement struct {
	// Question is the question key.
	Question string `json:"question"`
	// Level is the level of measurement the metric used.
	Level string `json:"level"`
	// Metric names the headline coefficient, e.g. "krippendorff_alpha".
	Metric string `json:"metric"`
	// Value is the coefficient, null when undefined for the data.
	Value agreement.Estimate `json:"value"`
	// CI is its 95% bootstrap interval, when computed.
	CI *agreement.CI `json:"ci95"`
	// Units and Raters are the numbers of items and annotators involved.
	Units  int `json:"units"`
	Raters int `json:"raters"`
	// Report is the full agreement report, copied into agreement.json.
	Report *agreement.Report `json:"report,omitempty"`
}

// QuestionAgreementFrom takes the headline figure of an agreement report:
// Krippendorff's alpha at the report's level, with its interval when the
// report was bootstrapped.
func QuestionAgreementFrom(question string, r *agreement.Report) QuestionAgreement {
	qa := QuestionAgreement{Question: question, Level: r.Level, Metric: "krippendorff_alpha",
		Units: r.NUnits, Raters: r.NRaters, Report: r}
	if r.KrippendorffAlpha != nil {
		qa.Value = *r.KrippendorffAlpha
	}
	if ci, ok := r.CI95["krippendorff_alpha"]; ok && ci != nil && ci.Replicates > 0 {
		qa.CI = ci
	}
	return qa
}
