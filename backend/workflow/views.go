package workflow

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// viewOf returns what the assignment's person may see of the item with the given form, and
// the shown order.
func viewOf(form *tasks.Schema, it *store.Item, a *store.Assignment) (tasks.View, error) {
	item, err := storeItem(it)
	if err != nil {
		return tasks.View{}, err
	}
	return form.ViewFor(a.Stage.Role(), item, uint64(a.Seed))
}

// claimView builds the claim response: the blinded view, the draft in shown order, and the
// stage's context. it is the assignment's item when the caller has it (nil: read it).
func (s *Service) claimView(ctx context.Context, p *Project, a *store.Assignment, it *store.Item, role tasks.Role) (*Claim, error) {
	if a.SchemaVersion != p.SchemaVersion {
		old, err := s.LoadProject(ctx, p.Project, a.SchemaVersion)
		if err != nil {
			return nil, err
		}
		p = old
	}
	if it == nil {
		var err error
		if it, err = s.store.Item(ctx, p.ID, a.ItemID); err != nil {
			return nil, err
		}
	}
	schema, ps, err := p.formOf(a)
	if err != nil {
		return nil, err
	}
	view, err := viewOf(schema, it, a)
	if err != nil {
		return nil, err
	}
	stored := DecodeAnswers(a.Draft)
	if ps != nil { // note: the draft of a pass holds that pass's answers only
		stored = passAnswers(schema, stored)
		view.Pass = p.StageSchema(a.Stage).Step(a.Pass)
	}
	draft, _ := schema.ToShown(stored, view.Shuffle)
	c := &Claim{Assignment: a, View: view, Draft: draft, Context: map[string]any{}}
	if a.DraftSource != nil {
		// note: which model drafted the answers is the lead's to know; the person only learns
		// that the form was prefilled
		prefilled := DraftPrefilled
		c.DraftSource = &prefilled
	}
	switch a.Stage {
	case flow.StageReview:
		err = s.reviewContext(ctx, p, a, view.Shuffle, c.Context)
	case flow.StageAdjudicate:
		err = s.adjudicationContext(ctx, p, a.ItemID, view.Shuffle, c.Context, false)
	}
	return c, err
}

// reviewContext holds the label under review, in the reviewer's shown order, unless the
// review is blind.
func (s *Service) reviewContext(ctx context.Context, p *Project, a *store.Assignment, sh tasks.Shuffle, out map[string]any) error {
	out["blind"] = p.Policy.BlindReview
	if p.Policy.BlindReview {
		return nil
	}
	label, err := s.store.Assignment(ctx, *a.TargetID)
	if err != nil {
		return err
	}
	shown, err := p.Schema.ToShown(DecodeAnswers(label.Answers), sh)
	if err != nil {
		return err
	}
	out["label"] = map[string]any{"answers": shown, "submitted_at": label.SubmittedAt, "time_spent_ms": label.TimeSpentMS}
	return nil
}

// LabelView is one label as an adjudicator or lead sees it.
type LabelView struct {
	AssignmentID string `json:"assignment_id"`
	By           string `json:"by"`
	Name         string `json:"name,omitempty"`
	// Answers are the answers that count: the reviewer's correction when there is one.
	Answers tasks.Answers `json:"answers"`
	// Original is the label as its annotator submitted it, before any correction.
	Original tasks.Answers `json:"original"`
	// Counted is false for a label its reviewer rejected: shown, but not part of consensus.
	Counted bool        `json:"counted"`
	Review  *ReviewView `json:"review,omitempty"`
}

// ReviewView is a review of a label.
type ReviewView struct {
	By       string            `json:"by"`
	Name     string            `json:"name,omitempty"`
	Verdict  flow.Verdict      `json:"verdict"`
	Comment  string            `json:"comment,omitempty"`
	Comments map[string]string `json:"comments,omitempty"`
	Answers  tasks.Answers     `json:"answers,omitempty"`
}

// ConsensusView is what the consensus rule made of the counted labels: overall, and per
// question in schema order with the settled answer in the viewer's shown order.
type ConsensusView struct {
	Agreed     bool              `json:"agreed"`
	Provenance flow.Provenance   `json:"provenance"`
	Questions  []QuestionOutcome `json:"questions"`
}

// adjudicationContext lists every submitted label (rejected ones too, marked as not counted)
// with its original answers and its review, in the viewer's shown order, where the counted
// labels disagree and the consensus state of each question. Names are shown to leads, or when
// the project says so.
func (s *Service) adjudicationContext(ctx context.Context, p *Project, itemID string, sh tasks.Shuffle, out map[string]any, lead bool) error {
	as, err := s.store.ItemAssignments(ctx, itemID, "")
	if err != nil {
		return err
	}
	names := lead || p.Policy.ShowAnnotatorNames
	pseud := pseudonyms(as)
	labels := []LabelView{}
	var forConsensus []Label
	for _, l := range as {
		if l.Stage != flow.StageLabel || (l.Status != flow.AssignSubmitted && l.Status != flow.AssignRejected) {
			continue
		}
		counted := l.Status == flow.AssignSubmitted
		if counted {
			forConsensus = append(forConsensus, labelOf(l))
		}
		lv := LabelView{AssignmentID: l.ID, By: pseud[l.UserID], Counted: counted}
		if lv.Answers, err = p.Schema.ToShown(labelOf(l).Answers, sh); err != nil {
			return err
		}
		if lv.Original, err = p.Schema.ToShown(DecodeAnswers(l.Answers), sh); err != nil {
			return err
		}
		if names {
			lv.By, lv.Name = l.UserID, s.userName(ctx, l.UserID)
		}
		if lv.Review, err = s.reviewOf(ctx, p, as, l.ID, sh, names, pseud); err != nil {
			return err
		}
		labels = append(labels, lv)
	}
	outcome := Evaluate(p.Schema, p.Policy.Consensus, forConsensus)
	out["labels"] = labels
	out["disagreements"] = shownDisagreements(p.Schema, outcome.Disagreements, forConsensus, sh)
	out["consensus"] = ConsensusView{Agreed: outcome.Agreed, Provenance: outcome.Provenance, Questions: shownOutcomes(p.Schema, outcome.Questions, sh)}
	return nil
}

// shownOutcomes re-expresses the settled answers in the viewer's shown order.
func shownOutcomes(schema *tasks.Schema, qs []QuestionOutcome, sh tasks.Shuffle) []QuestionOutcome {
	out := make([]QuestionOutcome, len(qs))
	for i, q := range qs {
		out[i] = q
		if len(q.Answer) == 0 {
			continue
		}
		if shown, err := schema.ToShown(tasks.Answers{q.Question: q.Answer}, sh); err == nil {
			out[i].Answer = shown[q.Question]
		}
	}
	return out
}

func (s *Service) reviewOf(ctx context.Context, p *Project, as []store.Assignment, labelID string, sh tasks.Shuffle, names bool, pseud map[string]string) (*ReviewView, error) {
	for _, r := range as {
		if r.Stage != flow.StageReview || r.Status != flow.AssignSubmitted || r.TargetID == nil || *r.TargetID != labelID {
			continue
		}
		rv := &ReviewView{By: pseud[r.UserID], Verdict: deref(r.Verdict), Comment: deref(r.Comment)}
		if len(r.Comments) > 0 {
			json.Unmarshal(r.Comments, &rv.Comments)
		}
		if names {
			rv.By, rv.Name = r.UserID, s.userName(ctx, r.UserID)
		}
		if len(r.Answers) > 0 {
			shown, err := p.Schema.ToShown(DecodeAnswers(r.Answers), sh)
			if err != nil {
				return nil, err
			}
			rv.Answers = shown
		}
		return rv, nil
	}
	return nil, nil
}

// shownDisagreements re-expresses the disagreement values in the viewer's shown order.
func shownDisagreements(schema *tasks.Schema, ds []Disagreement, labels []Label, sh tasks.Shuffle) []Disagreement {
	out := make([]Disagreement, 0, len(ds))
	for _, d := range ds {
		vals := make([]json.RawMessage, 0, len(d.Values))
		for _, l := range labels {
			raw, ok := l.Answers[d.Question]
			if !ok {
				continue
			}
			shown, err := schema.ToShown(tasks.Answers{d.Question: raw}, sh)
			if err == nil {
				raw = shown[d.Question]
			}
			vals = append(vals, raw)
		}
		out = append(out, Disagreement{Question: d.Question, Resolved: d.Resolved, Values: vals})
	}
	return out
}

// pseudonyms names people "Annotator 1", "Annotator 2"... in the order they worked on the item.
func pseudonyms(as []store.Assignment) map[string]string {
	out := map[string]string{}
	n := map[string]int{}
	for _, a := range as {
		if _, ok := out[a.UserID]; ok {
			continue
		}
		kind := "Annotator"
		if a.Stage == flow.StageReview {
			kind = "Reviewer"
		}
		n[kind]++
		out[a.UserID] = fmt.Sprintf("%s %d", kind, n[kind])
	}
	return out
}

func (s *Service) userName(ctx context.Context, id string) string {
	u, err := s.store.User(ctx, id)
	if err != nil {
		return ""
	}
	return u.Name
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
