package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// AdaptiveOverlap lets each item take as many labels as its answer needs: Min labels, then one
// more at a time until the posterior of its answer (from the project's reliability model and
// class priors) reaches Confidence on every question with categories, or Max labels are in.
type AdaptiveOverlap struct {
	Min        int     `json:"min"`
	Max        int     `json:"max"`
	Confidence float64 `json:"confidence"`
	// OnMax is what decides an item that reaches max labels without confidence: "consensus"
	// (the default: the consensus rule over its labels, and where the rule settles nothing, the
	// policy's on_no_consensus), "adjudicate" or "drop".
	OnMax string `json:"on_max,omitempty"`
	// Baseline is the fixed overlap this replaces, which the dataset report compares the labels
	// spent with (default min + 1, at most max).
	Baseline int `json:"baseline,omitempty"`
}

// What decides an item at max labels without confidence.
const (
	OnMaxConsensus  = "consensus"
	OnMaxAdjudicate = "adjudicate"
	OnMaxDrop       = "drop"
)

// OnMaxActions lists the valid on_max values.
var OnMaxActions = []string{OnMaxConsensus, OnMaxAdjudicate, OnMaxDrop}

// validateAdaptive checks the adaptive overlap: 1 ≤ min ≤ max ≤ 50, a confidence in (0.5, 1),
// the policy's overlap (the labels every item starts with) equal to min, and a form whose passes,
// if any, one person answers in turn.
func (p Policy) validateAdaptive(schema *tasks.Schema, bad func(field, code, format string, args ...any)) {
	a := p.AdaptiveOverlap
	if a == nil {
		return
	}
	if a.Min < 1 || a.Min > 50 {
		bad("workflow.adaptive_overlap.min", "out_of_range", "min must be 1 to 50")
	}
	if a.Max < a.Min || a.Max > 50 {
		bad("workflow.adaptive_overlap.max", "out_of_range", "max must be from min to 50")
	}
	if !(a.Confidence > 0.5 && a.Confidence < 1) {
		bad("workflow.adaptive_overlap.confidence", "out_of_range", "confidence must be more than 0.5 and less than 1")
	}
	oneOf(bad, "workflow.adaptive_overlap.on_max", a.OnMax, OnMaxActions)
	if a.Baseline < 1 || a.Baseline > 50 {
		bad("workflow.adaptive_overlap.baseline", "out_of_range", "baseline must be 1 to 50")
	}
	if a.OnMax == OnMaxAdjudicate && p.Adjudication == AdjudicateNever {
		bad("workflow.adaptive_overlap.on_max", "invalid_value", "with adjudication %q nothing is adjudicated: set on_max to %q or %q", AdjudicateNever, OnMaxConsensus, OnMaxDrop)
	}
	if p.Overlap != a.Min {
		bad("workflow.overlap", "invalid_value", "with adaptive_overlap every item starts with min labels: leave overlap out or set it to %d", a.Min)
	}
	if schema != nil && schema.PassMode == tasks.PassOwnQueue && schema.HasPasses() {
		bad("workflow.adaptive_overlap", "invalid_value", "adaptive overlap needs a form whose passes one person answers in turn, not pass_mode %q", tasks.PassOwnQueue)
	}
}

// adaptiveFallback is how often an annotator the reliability model does not know yet (no model,
// or none of their labels in it) is taken to be right, and adaptiveStrength how many ratings of
// each true value that assumption counts as beside a known annotator's own (see
// agreement.ReliabilityModel.Posterior): early in a project, when the model rests on few labels,
// its confusion matrices are noisy.
const (
	adaptiveFallback = 0.8
	adaptiveStrength = 4
)

// Posteriors is, per question with categories, the posterior probability of the likeliest
// answer and that answer's rating value.
type Posteriors map[string]Posterior

// Posterior is one question's likeliest value and its probability.
type Posterior struct {
	Value       string  `json:"value"`
	Probability float64 `json:"probability"`
}

// posteriors computes each modelled question's posterior from an item's labels: the question's
// reliability model where it has one, or a uniform prior with every annotator right at
// adaptiveFallback. Questions without categories, and those no label answered, are left out.
func posteriors(schema *tasks.Schema, models map[string]*agreement.ReliabilityModel, labels []Label) Posteriors {
	out := Posteriors{}
	for _, q := range schema.Questions {
		kind := tasks.KindOf(q)
		if kind.Level() == tasks.LevelNone || kind.Distance() == tasks.DistanceMASI {
			continue
		}
		var ratings []agreement.Rating
		for _, l := range labels {
			raw, ok := l.Answers[q.Key]
			if !ok {
				continue
			}
			for _, r := range kind.Ratings(raw, tasks.RatingsAnalysed) {
				if r.UnitSuffix == "" {
					ratings = append(ratings, agreement.Rating{Rater: l.By, Value: r.Value})
				}
			}
		}
		if len(ratings) == 0 {
			continue
		}
		m := models[q.Key]
		if m == nil {
			m = uniformModel(ratings)
		}
		post := m.Posterior(ratings, adaptiveFallback, adaptiveStrength)
		best := 0
		for k, x := range post {
			if x > post[best] {
				best = k
			}
		}
		out[q.Key] = Posterior{Value: m.Values[best], Probability: post[best]}
	}
	return out
}

// uniformModel is a model of the values the ratings give (at least two), with a uniform prior
// and no rater known.
func uniformModel(ratings []agreement.Rating) *agreement.ReliabilityModel {
	m := &agreement.ReliabilityModel{}
	for _, r := range ratings {
		seen := false
		for _, v := range m.Values {
			seen = seen || v == r.Value
		}
		if !seen {
			m.Values = append(m.Values, r.Value)
		}
	}
	if len(m.Values) < 2 {
		m.Values = append(m.Values, "\x00other")
	}
	for range m.Values {
		m.Prior = append(m.Prior, 1/float64(len(m.Values)))
	}
	return m
}

// confident reports whether every question's posterior reaches the confidence.
func (ps Posteriors) confident(confidence float64) bool {
	for _, p := range ps {
		if p.Probability < confidence {
			return false
		}
	}
	return true
}

// adaptive decides an item whose labels are all in under adaptive overlap: by the consensus rule
// once every question's posterior reaches the confidence and the rule settles the labels; else
// with one more label while it has fewer than max; else, at max, as on_max says.
func (s *Service) adaptive(ctx context.Context, tx *store.Store, p *Project, it *store.Item, labels []Label) (flow.Stage, error) {
	a := p.Policy.AdaptiveOverlap
	models, err := s.reliabilityModels(ctx, tx, p)
	if err != nil {
		return "", err
	}
	post := posteriors(p.Schema, models, labels)
	// note: a confident answer the consensus rule cannot settle (a 1 against 1 that the model
	// reads as sure) takes one more label too, rather than being adjudicated or dropped early
	c := p.Policy.Consensus
	c.posterior = post
	if post.confident(a.Confidence) && Aggregate(p.Schema, c, p.Policy.Aggregation, labels).Agreed {
		return s.finalize(ctx, tx, p, it, labels, false, post)
	}
	if n := p.labelsPerItem() + it.ExtraLabels; n < a.Max {
		it.ExtraLabels++
		return flow.StageLabel, tx.WantMoreLabels(ctx, it.ID, flow.StageLabel, store.Event{ProjectID: p.ID, Action: "item.more_labels",
			Target: "item:" + it.ID, Before: map[string]any{"labels": n}, After: map[string]any{"labels": n + 1, "posterior": post, "confidence": a.Confidence}})
	}
	switch a.OnMax {
	case OnMaxAdjudicate:
		return flow.StageAdjudicate, s.moveItem(ctx, tx, p, it, flow.StageAdjudicate, nil)
	case OnMaxDrop:
		reason := fmt.Sprintf("no answer reached confidence %g after %d labels: %s", a.Confidence, len(labels), post)
		return flow.StageDropped, s.moveItem(ctx, tx, p, it, flow.StageDropped, &reason)
	}
	return s.finalize(ctx, tx, p, it, labels, false, post)
}

// String lists the questions' likeliest answers with their probabilities, by question key.
func (ps Posteriors) String() string {
	keys := make([]string, 0, len(ps))
	for k := range ps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %s at %.3f", k, ps[k].Value, ps[k].Probability)
	}
	return strings.Join(parts, "; ")
}

// FiguresQueue queues the refresh of a project's kept figures in the caller's transaction.
type FiguresQueue interface {
	EnqueueFigures(ctx context.Context, tx *store.Store, projectID string, kind flow.FiguresKind, params string) error
}

// UseJobs lets adaptive overlap have the reliability model refreshed in the background (the
// queue's workers call back into the services, so it is wired after both exist).
func (s *Service) UseJobs(q FiguresQueue) { s.jobs = q }

// ReliabilityModels is a project's kept reliability model (the reliability figures job's
// result): per question with categories, the fitted values, prior and each annotator's
// confusion matrix, over the labels it counts.
type ReliabilityModels struct {
	Labels    int64                                  `json:"labels"`
	Questions map[string]*agreement.ReliabilityModel `json:"questions"`
}

// How adaptive overlap keeps its reliability models current. A replica reads a project's kept
// model again after modelReadDecisions adaptive decisions or modelRead, whichever comes first,
// and asks for a refresh when there is none yet, when it has made more decisions since the
// model's fit than a tenth of the labels the model counts (at least modelRefreshDecisions), or
// when the model is older than modelAge; a request counts as pending for modelAsk.
const (
	modelRead             = 5 * time.Second
	modelReadDecisions    = 10
	modelRefreshDecisions = 20
	modelAge              = 10 * time.Minute
	modelAsk              = 10 * time.Minute
)

// keptModels is a project's models as a replica last read them, with the decisions it made
// since.
type keptModels struct {
	questions  map[string]*agreement.ReliabilityModel
	labels     int64      // the labels the model counts
	computedAt *time.Time // when it was fitted; nil before the first fit
	read       time.Time
	sinceRead  int // decisions since the row was read
	sinceFit   int // decisions since the model was fitted (as far as this replica knows)
}

// reliabilityModels returns the project's kept reliability models (none before the first job),
// queueing a refresh in tx when they are missing or behind.
func (s *Service) reliabilityModels(ctx context.Context, tx *store.Store, p *Project) (map[string]*agreement.ReliabilityModel, error) {
	t := s.now()
	var k keptModels
	if v, ok := s.models.Load(p.ID); ok {
		k = *v.(*keptModels)
	}
	k.sinceRead++
	k.sinceFit++
	if k.read.IsZero() || k.sinceRead >= modelReadDecisions || t.Sub(k.read) >= modelRead {
		name := string(flow.FiguresReliability)
		row, err := tx.FiguresResult(ctx, p.ID, name)
		if errors.Is(err, store.ErrNotFound) {
			row, err = &store.FiguresResult{}, nil
		}
		if err != nil {
			return nil, err
		}
		if row.ComputedAt != nil && (k.computedAt == nil || !row.ComputedAt.Equal(*k.computedAt)) {
			var kept ReliabilityModels
			if err := json.Unmarshal(row.Result, &kept); err != nil {
				return nil, fmt.Errorf("reliability model of project %s: %w", p.ID, err)
			}
			k.questions, k.labels, k.computedAt, k.sinceFit = kept.Questions, kept.Labels, row.ComputedAt, 0
		}
		k.read, k.sinceRead = t, 0
		behind := k.computedAt == nil || k.sinceFit >= max(modelRefreshDecisions, int(k.labels/10)) || t.Sub(*k.computedAt) > modelAge
		if s.jobs != nil && behind {
			queue, err := tx.RequestFigures(ctx, p.ID, name, t, t.Add(-modelAsk))
			if err != nil {
				return nil, err
			}
			if queue {
				if err := s.jobs.EnqueueFigures(ctx, tx, p.ID, flow.FiguresReliability, ""); err != nil {
					return nil, err
				}
			}
		}
	}
	s.models.Store(p.ID, &k)
	return k.questions, nil
}
