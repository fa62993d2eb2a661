package projects

import (
	"context"
	"fmt"
	"slices"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Warning is one reason the project's work cannot finish with its current members.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Needed  int    `json:"needed"`
	Have    int    `json:"have"`
	// Language, when set, says the shortfall is among the members who read this language: the
	// project's items in it cannot finish.
	Language string `json:"language,omitempty"`
}

// Feasibility is what the policy needs of the members, and what is missing.
type Feasibility struct {
	Annotators   int       `json:"annotators"`
	Reviewers    int       `json:"reviewers"`
	Adjudicators int       `json:"adjudicators"`
	Warnings     []Warning `json:"warnings"`
}

// Feasibility checks the policy against the project's members before any work, naming every
// part of it they cannot finish, with the numbers: the labels per item (overlap, once per pass
// when each pass is its own queue) against the annotators, one more when the author of a unit's
// criterion may not label it; the criteria overlap; the review of criteria by someone who did
// not write them; cross review by someone who did not label the item; adjudication by someone
// who did neither; and, with require_qualification, enough qualified annotators. Each check is
// made over every member, then over the members who read each language of the policy and of
// the items waiting for work.
func (s *Service) Feasibility(ctx context.Context, p *workflow.Project) (*Feasibility, error) {
	ms, err := s.store.Members(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	reads, err := s.store.MemberLanguages(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	langs, err := s.store.ItemLanguages(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		ms[i].Languages = reads[ms[i].UserID]
	}
	all := crewOf(ms, "")
	f := &Feasibility{Annotators: len(all.annotators), Reviewers: len(all.reviewers), Adjudicators: len(all.adjudicators)}
	f.Warnings = feasibilityWarnings(p.Policy, shapeOf(p), ms, unique(append(slices.Clone(p.Policy.Languages), langs...)))
	return f, nil
}

// shape is what of a project's schema the feasibility check reads: how many passes of a label
// are each their own queue (1 when the form is answered whole or by one person).
type shape struct{ passes int }

func shapeOf(p *workflow.Project) shape {
	if p.Schema != nil && p.Schema.PassMode == tasks.PassOwnQueue && p.Schema.HasPasses() {
		return shape{passes: len(p.Schema.Passes)}
	}
	return shape{passes: 1}
}

// crew is who holds each role among the members a check counts.
type crew struct {
	annotators, reviewers, adjudicators []string
	qualified                           int      // annotators who are qualified
	criteriaReviewers                   []string // leads and reviewers: who marks criteria
}

// crewOf is the crew of the members who read language ("" for every member).
func crewOf(ms []store.MemberView, language string) crew {
	var c crew
	for _, m := range ms {
		if !tasks.ReadsLanguage(m.Languages, language) {
			continue
		}
		if m.Roles.Has(store.RoleAnnotator) {
			c.annotators = append(c.annotators, m.UserID)
			if m.Qualified {
				c.qualified++
			}
		}
		if m.Roles.Has(store.RoleReviewer) {
			c.reviewers = append(c.reviewers, m.UserID)
		}
		if m.Roles.Has(store.RoleAdjudicator) {
			c.adjudicators = append(c.adjudicators, m.UserID)
		}
		if m.Roles.Has(store.RoleReviewer) || m.Roles.Has(store.RoleLead) {
			c.criteriaReviewers = append(c.criteriaReviewers, m.UserID)
		}
	}
	return c
}

// same reports whether two crews hold the same people in every role.
func (c crew) same(o crew) bool {
	return slices.Equal(c.annotators, o.annotators) && slices.Equal(c.reviewers, o.reviewers) &&
		slices.Equal(c.adjudicators, o.adjudicators) && c.qualified == o.qualified
}

// feasibilityWarnings are the warnings of a policy for the members: every check over all of
// them, then the checks over the readers of each language that fail there and not for all.
func feasibilityWarnings(pol workflow.Policy, sh shape, ms []store.MemberView, languages []string) []Warning {
	all := crewOf(ms, "")
	out := crewWarnings(pol, sh, all, "")
	if pol.CriteriaStage != nil {
		out = append(out, criteriaReviewWarnings(all)...)
	}
	for _, l := range languages {
		c := crewOf(ms, l)
		if c.same(all) {
			continue
		}
		for _, w := range crewWarnings(pol, sh, c, l) {
			if !slices.ContainsFunc(out, func(o Warning) bool { return o.Code == w.Code && o.Language == "" }) {
				out = append(out, w)
			}
		}
	}
	return out
}

// crewWarnings checks the work of each item (its criteria, labels, reviews and adjudication)
// against one crew: every member, or the readers of language.
func crewWarnings(pol workflow.Policy, sh shape, c crew, language string) []Warning {
	out := []Warning{}
	in := ""
	if language != "" {
		in = "items in " + language + ": "
	}
	warn := func(code string, needed, have int, format string, args ...any) {
		out = append(out, Warning{Code: code, Needed: needed, Have: have, Message: in + fmt.Sprintf(format, args...), Language: language})
	}
	n := len(c.annotators)
	labels := pol.Overlap * sh.passes
	overlap := fmt.Sprintf("overlap %d", pol.Overlap)
	if sh.passes > 1 {
		overlap = fmt.Sprintf("overlap %d in each of %d passes, each its own queue (nobody labels two passes of an item),", pol.Overlap, sh.passes)
	}
	criteria := pol.CriteriaStage
	authorsOff := criteria != nil && !criteria.AuthorsLabel
	switch {
	case pol.ChecklistStage != nil && n < labels+1:
		warn("checklist_refiner", labels+1, n, "%s needs %s with a checklist stage: the person who refines an item's checklist does not label it (one role per item), so with %s every item stops at %d of %d labels; add an annotator",
			overlap, counted(labels+1, "annotator"), counted(n, "annotator"), max(n-1, 0), labels)
	case n < labels && authorsOff:
		warn("annotators", labels+1, n, "%s needs %s, one more than the labels of a unit since nobody labels a unit of their own criterion (criteria_stage.authors_label is off); the project has %d",
			overlap, counted(labels+1, "annotator"), n)
	case n < labels:
		warn("annotators", labels, n, "%s needs %s; the project has %d", overlap, counted(labels, "annotator"), n)
	case authorsOff && n < labels+1:
		warn("authors_label", labels+1, n, "%s needs %s with a criteria stage: the author of each unit's criterion may not label it (criteria_stage.authors_label is off), so with %s every unit stops at %d of %d labels; let authors label units of their own criteria, or add an annotator",
			overlap, counted(labels+1, "annotator"), counted(n, "annotator"), n-1, labels)
	}
	if criteria != nil && n < criteria.Overlap {
		warn("criteria_authors", criteria.Overlap, n, "criteria overlap %d needs %s to write criteria for each item; the project has %d", criteria.Overlap, counted(criteria.Overlap, "annotator"), n)
	}
	if pol.RequireQualification && c.qualified < labels {
		warn("qualified", labels, c.qualified, "require_qualification: %s needs %s who are qualified; %d of %s %s (by passing a calibration round, or by a lead)",
			overlap, counted(labels, "annotator"), c.qualified, counted(n, "annotator"), isAre(c.qualified))
	}
	// note: the author of a unit's criterion, an annotator, never reviews or adjudicates it, so
	// with a criteria stage a unit may take one more annotator than its labels
	perItem, also := labels, ""
	switch {
	case criteria != nil:
		perItem, also = labels+1, " or wrote its criterion"
	case pol.ChecklistStage != nil:
		perItem, also = labels+1, " or refined its checklist"
	}
	if pol.Review == workflow.ReviewCross {
		if free := freeOf(c.reviewers, c.annotators, perItem); free < 1 {
			warn("reviewers", 1, free, "cross review needs a reviewer who %s: with %s and %s, every reviewer labels every item%s",
				store.RuleOneRole.Says(flow.StageReview), overlap, counted(n, "annotator"), also)
		}
	}
	if why := adjudicates(pol); why != "" {
		if pol.Review == workflow.ReviewCross {
			perItem++
		}
		if free := freeOf(c.adjudicators, append(slices.Clone(c.annotators), c.reviewers...), perItem); free < 1 {
			have := "no adjudicator"
			if len(c.adjudicators) > 0 {
				have = counted(len(c.adjudicators), "adjudicator") + " and none is free"
			}
			warn("adjudicators", 1, free, "%s needs an adjudicator who %s; the project has %s", why, store.RuleOneRole.Says(flow.StageAdjudicate), have)
		}
	}
	return out
}

// adjudicates says why items of the policy may reach adjudication, "" when none can: always;
// on disagreement unless such items are dropped; and a blind reviewer's disagreement, whatever
// the adjudication setting.
func adjudicates(pol workflow.Policy) string {
	switch {
	case pol.Adjudication == workflow.AdjudicateAlways,
		pol.Adjudication == workflow.AdjudicateOnDisagreement && pol.OnNoConsensus == workflow.NoConsensusAdjudicate:
		return fmt.Sprintf("adjudication (%s)", pol.Adjudication)
	case pol.Review == workflow.ReviewCross && pol.BlindReview:
		return "a disputed blind review"
	}
	return ""
}

// criteriaReviewWarnings checks that each criterion can be marked by a lead or reviewer who did
// not write it (criteria are not read by language).
func criteriaReviewWarnings(c crew) []Warning {
	rs := unique(c.criteriaReviewers)
	switch {
	case len(rs) == 0:
		return []Warning{{Code: "criteria_reviewers", Needed: 1, Have: 0,
			Message: "criteria review needs a lead or reviewer who did not write the criterion; the project has none"}}
	case len(rs) == 1 && slices.Contains(c.annotators, rs[0]):
		return []Warning{{Code: "criteria_reviewers", Needed: 2, Have: 1,
			Message: "criteria review needs a lead or reviewer who did not write the criterion; the project's only one is also an annotator, and nobody marks their own criteria"}}
	}
	return nil
}

// isAre is "is" for one, "are" otherwise.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// counted is a number of people with the noun in the singular or plural ("1 annotator",
// "3 annotators").
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// freeOf counts the people of want who can still act on an item that perItem people of busy
// have worked on: those outside busy always, the others only when busy has more people than an
// item takes.
func freeOf(want, busy []string, perItem int) int {
	busy = unique(busy)
	free := 0
	for _, id := range want {
		if !slices.Contains(busy, id) || len(busy) > perItem {
			free++
		}
	}
	return free
}

func unique(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
