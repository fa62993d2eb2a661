package insight

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// CriteriaCounts counts the criteria annotators wrote and how their review went.
type CriteriaCounts struct {
	Written     int64 `json:"written"`
	Pending     int64 `json:"pending"`
	Valid       int64 `json:"valid"`
	TooVague    int64 `json:"too_vague"`
	TooSpecific int64 `json:"too_specific"`
	// LossShare is the share of reviewed criteria refused (too vague or too specific).
	LossShare *float64 `json:"loss_share"`
}

// LabelsBin is how many items have a number of submitted labels.
type LabelsBin struct {
	Labels int   `json:"labels"`
	Items  int64 `json:"items"`
}

// AdjudicationRate is one question's share of decided items that went to adjudication with
// the labels disagreeing on it.
type AdjudicationRate struct {
	Key         string   `json:"key"`
	Label       string   `json:"label"`
	Disagreed   int64    `json:"disagreed"`
	Adjudicated int64    `json:"adjudicated"`
	Rate        *float64 `json:"rate"`
}

// AnnotatorCount is one annotator's submitted labels and median seconds per label.
type AnnotatorCount struct {
	UserID        string   `json:"user_id"`
	Name          string   `json:"name"`
	Labels        int64    `json:"labels"`
	MedianSeconds *float64 `json:"median_seconds"`
}

// reportFigures is what the job keeps.
type reportFigures struct {
	Items         int64              `json:"items"`
	Decided       int64              `json:"decided"`
	Stages        []ValueCount       `json:"stages"`
	Provenance    []ValueCount       `json:"provenance"`
	Dropped       []ValueCount       `json:"dropped"`
	DroppedShare  *float64           `json:"dropped_share"`
	Criteria      CriteriaCounts     `json:"criteria"`
	Labels        int64              `json:"labels"`
	LabelsPerItem []LabelsBin        `json:"labels_per_item"`
	Reviews       []ValueCount       `json:"reviews"`
	Adjudication  []AdjudicationRate `json:"adjudication"`
	MedianSeconds *float64           `json:"median_seconds"`
	Annotators    []AnnotatorCount   `json:"annotators"`
	Scores        []Distribution     `json:"scores"`
	// Languages counts items and decided items per language ("" for items without one).
	Languages []LanguageCount `json:"languages"`
	// Adaptive is what adaptive overlap spent and got; nil without it.
	Adaptive *AdaptiveSaving `json:"adaptive"`
}

// AdaptiveSaving is the labels adaptive overlap spent against the fixed overlap it replaces,
// and the ground truth's accuracy as its posteriors estimate it.
type AdaptiveSaving struct {
	Baseline int `json:"baseline"`
	// Labels are the production labels so far; BaselineLabels what the baseline takes of every
	// item; Ratio the one over the other.
	Labels         int64    `json:"labels"`
	BaselineLabels int64    `json:"baseline_labels"`
	Ratio          *float64 `json:"ratio"`
	// Posteriors counts the decided items whose provenance holds posteriors; EstimatedAccuracy
	// is the mean over them of the probability that every answer is right (the product of
	// their questions' posteriors), and Questions the mean posterior per question.
	Posteriors        int64              `json:"posteriors"`
	EstimatedAccuracy *float64           `json:"estimated_accuracy"`
	Questions         map[string]float64 `json:"questions"`
}

// adaptiveTally adds up the decided items' posteriors.
type adaptiveTally struct {
	items    int64
	all      float64
	question map[string]float64
	counted  map[string]int64
}

func (a *adaptiveTally) add(details store.JSON) {
	var d struct {
		Posterior workflow.Posteriors `json:"posterior"`
	}
	if json.Unmarshal(details, &d) != nil || len(d.Posterior) == 0 {
		return
	}
	a.items++
	all := 1.0
	for k, p := range d.Posterior {
		all *= p.Probability
		a.question[k] += p.Probability
		a.counted[k]++
	}
	a.all += all
}

// saving is the report's adaptive figures over the labels counted and the items.
func (a *adaptiveTally) saving(pol *workflow.AdaptiveOverlap, labels, items int64) *AdaptiveSaving {
	out := &AdaptiveSaving{Baseline: pol.Baseline, Labels: labels, BaselineLabels: items * int64(pol.Baseline), Posteriors: a.items, Questions: map[string]float64{}}
	if out.BaselineLabels > 0 {
		r := float64(labels) / float64(out.BaselineLabels)
		out.Ratio = &r
	}
	if a.items > 0 {
		e := a.all / float64(a.items)
		out.EstimatedAccuracy = &e
	}
	for k, sum := range a.question {
		out.Questions[k] = sum / float64(a.counted[k])
	}
	return out
}

// LanguageCount is how many items are in one language and how many of them are decided.
type LanguageCount struct {
	Language string `json:"language"`
	Items    int64  `json:"items"`
	Decided  int64  `json:"decided"`
}

// DatasetReport is a project's dataset statistics and loss accounting, as GET .../report
// answers it.
type DatasetReport struct {
	FiguresState
	reportFigures
}

// DatasetReport answers a project's dataset report from what the job kept.
func (s *Service) DatasetReport(ctx context.Context, p *workflow.Project) (*DatasetReport, error) {
	rep := &DatasetReport{reportFigures: emptyReport()}
	st, _, err := s.cachedFigures(ctx, p, flow.FiguresReport, "", &rep.reportFigures)
	rep.FiguresState = st
	return rep, err
}

func emptyReport() reportFigures {
	return reportFigures{Stages: []ValueCount{}, Provenance: []ValueCount{}, Dropped: []ValueCount{}, LabelsPerItem: []LabelsBin{},
		Reviews: []ValueCount{}, Adjudication: []AdjudicationRate{}, Annotators: []AnnotatorCount{}, Scores: []Distribution{},
		Languages: []LanguageCount{}}
}

// ComputeReport computes a project's dataset report now (the job's work, and the release's
// dataset card).
func (s *Service) ComputeReport(ctx context.Context, p *workflow.Project) (*DatasetReport, error) {
	f, err := s.computeReport(ctx, p)
	if err != nil {
		return nil, err
	}
	return &DatasetReport{FiguresState: FiguresState{Status: AgreementReady}, reportFigures: *f}, nil
}

// LabelTotals are the dataset report's counts of labels, of the annotators who wrote them and
// of review verdicts, counted by the database without reading a label (a release's card
// reports them; the report computes the same counts from the labels it reads).
type LabelTotals struct {
	Labels, Annotators int64
	Reviews            []ValueCount
}

// CountLabels counts a project's LabelTotals.
func (s *Service) CountLabels(ctx context.Context, projectID string) (LabelTotals, error) {
	var t LabelTotals
	var err error
	if t.Labels, t.Annotators, err = s.store.ProductionLabelTotals(ctx, projectID); err != nil {
		return t, err
	}
	t.Reviews, err = s.reviewVerdicts(ctx, projectID)
	return t, err
}

// reviewVerdicts counts a project's submitted reviews by verdict.
func (s *Service) reviewVerdicts(ctx context.Context, projectID string) ([]ValueCount, error) {
	verdicts, err := s.store.ReviewVerdicts(ctx, projectID)
	out := make([]ValueCount, 0, len(verdicts))
	for _, v := range verdicts {
		out = append(out, ValueCount{string(v.Verdict), v.Count})
	}
	return out, err
}

// computeReport reads items with their ground truth, then every production label (the job's work).
func (s *Service) computeReport(ctx context.Context, p *workflow.Project) (*reportFigures, error) {
	f := emptyReport()
	stages, prov := map[string]int64{}, map[string]int64{}
	scores := newBalanceTally(&tasks.Schema{})
	adjudicated := map[string]bool{}
	langs := map[string]*LanguageCount{}
	adaptive := &adaptiveTally{question: map[string]float64{}, counted: map[string]int64{}}
	err := s.store.EachTruth(ctx, p.ID, func(r *store.TruthRow) error {
		f.Items++
		stages[string(r.Stage)]++
		lc := langs[r.Language]
		if lc == nil {
			lc = &LanguageCount{Language: r.Language}
			langs[r.Language] = lc
		}
		lc.Items++
		if r.Provenance == nil || r.Stage != flow.StageDone {
			return nil
		}
		f.Decided++
		lc.Decided++
		prov[string(*r.Provenance)]++
		adaptive.add(r.Details)
		if *r.Provenance == flow.ProvenanceAdjudicated {
			adjudicated[r.ID] = true
		}
		var answers map[string]json.RawMessage
		json.Unmarshal(r.Answers, &answers)
		scores.addScores(p.Schema, answers)
		return nil
	})
	if err != nil {
		return nil, err
	}
	f.Stages, f.Provenance = sortedCounts(stages, false), sortedCounts(prov, false)
	f.DroppedShare = share(stages[string(flow.StageDropped)], f.Items)
	f.Scores = scores.scoreDistributions(p.Schema)
	for _, lc := range langs {
		f.Languages = append(f.Languages, *lc)
	}
	slices.SortFunc(f.Languages, func(a, b LanguageCount) int { return strings.Compare(a.Language, b.Language) })
	if err := s.reportLabels(ctx, p, &f, adjudicated); err != nil {
		return nil, err
	}
	if a := p.Policy.AdaptiveOverlap; a != nil {
		f.Adaptive = adaptive.saving(a, f.Labels, f.Items)
	}
	if err := s.reportCounts(ctx, p, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// addScores counts every question's ground-truth values (binary after polarity and N/A mapping).
func (t *balanceTally) addScores(schema *tasks.Schema, answers map[string]json.RawMessage) {
	for _, q := range schema.Questions {
		raw, ok := answers[q.Key]
		if !ok {
			continue
		}
		for _, r := range AnswerRatings(q, raw, false) {
			k := q.Key + r.UnitSuffix
			if t.dist[k] == nil {
				t.dist[k] = map[string]int64{}
			}
			t.dist[k][r.Value]++
		}
	}
}

func (t *balanceTally) scoreDistributions(schema *tasks.Schema) []Distribution {
	saved := t.schema
	t.schema = schema
	defer func() { t.schema = saved }()
	return t.figures().Distributions
}

// reportLabels counts labels per item and per annotator, the median seconds per label, and
// per question the decided items whose labels disagreed and that went to adjudication.
func (s *Service) reportLabels(ctx context.Context, p *workflow.Project, f *reportFigures, adjudicated map[string]bool) error {
	perItem := map[string]int{}
	first := map[string]map[string]string{} // item → question → first label's value
	disagree := map[string]map[string]bool{}
	seconds := map[string][]float64{}
	var all []float64
	err := s.store.EachProductionLabel(ctx, p.ID, false, func(r *store.LabelRow) error {
		f.Labels++
		perItem[r.ItemID]++
		sec := float64(r.TimeSpentMS) / 1000
		seconds[r.UserID] = append(seconds[r.UserID], sec)
		all = append(all, sec)
		src := r.Answers
		if len(r.Effective) > 0 {
			src = r.Effective
		}
		var answers map[string]json.RawMessage
		json.Unmarshal(src, &answers)
		if first[r.ItemID] == nil {
			first[r.ItemID], disagree[r.ItemID] = map[string]string{}, map[string]bool{}
		}
		for _, q := range p.Schema.Questions {
			v := string(answers[q.Key])
			if q.Kind == tasks.KindBinary {
				v = fmt.Sprint(AnswerRatings(q, answers[q.Key], false))
			}
			if prev, ok := first[r.ItemID][q.Key]; !ok {
				first[r.ItemID][q.Key] = v
			} else if prev != v {
				disagree[r.ItemID][q.Key] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	bins := map[int]int64{}
	for _, n := range perItem {
		bins[n]++
	}
	for n, c := range bins {
		f.LabelsPerItem = append(f.LabelsPerItem, LabelsBin{n, c})
	}
	slices.SortFunc(f.LabelsPerItem, func(a, b LabelsBin) int { return a.Labels - b.Labels })
	for _, q := range p.Schema.Questions {
		ar := AdjudicationRate{Key: q.Key, Label: q.Label}
		for item, qs := range disagree {
			if qs[q.Key] {
				ar.Disagreed++
				if adjudicated[item] {
					ar.Adjudicated++
				}
			}
		}
		ar.Rate = share(ar.Adjudicated, f.Decided)
		f.Adjudication = append(f.Adjudication, ar)
	}
	f.MedianSeconds = MedianOf(all)
	refs := make([]AnnotatorRef, 0, len(seconds))
	for id := range seconds {
		refs = append(refs, AnnotatorRef{UserID: id})
	}
	if err := s.nameAnnotators(ctx, p.ID, refs); err != nil {
		return err
	}
	for _, r := range refs {
		f.Annotators = append(f.Annotators, AnnotatorCount{UserID: r.UserID, Name: r.Name, Labels: int64(len(seconds[r.UserID])), MedianSeconds: MedianOf(seconds[r.UserID])})
	}
	slices.SortFunc(f.Annotators, func(a, b AnnotatorCount) int {
		if a.Name != b.Name {
			if a.Name < b.Name {
				return -1
			}
			return 1
		}
		if a.UserID < b.UserID {
			return -1
		}
		return 1
	})
	return nil
}

// reportCounts adds the review verdicts and the criteria counts.
func (s *Service) reportCounts(ctx context.Context, p *workflow.Project, f *reportFigures) error {
	// note: verdicts and drop reasons are counted by the queries the release's dataset card uses
	var err error
	if f.Reviews, err = s.reviewVerdicts(ctx, p.ID); err != nil {
		return err
	}
	drops, err := s.store.DropReasons(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, d := range drops {
		reason := d.Reason
		if reason == "" {
			reason = "unspecified"
		}
		f.Dropped = append(f.Dropped, ValueCount{reason, d.Items})
	}
	crit, err := s.store.CriteriaStatusCounts(ctx, p.ID)
	if err != nil {
		return err
	}
	c := &f.Criteria
	for _, r := range crit {
		c.Written += r.Count
		switch flow.CriterionStatus(r.Value) {
		case flow.CriterionPending:
			c.Pending += r.Count
		case flow.CriterionValid:
			c.Valid += r.Count
		case flow.CriterionTooVague:
			c.TooVague += r.Count
		case flow.CriterionTooSpecific:
			c.TooSpecific += r.Count
		}
	}
	c.LossShare = share(c.TooVague+c.TooSpecific, c.Valid+c.TooVague+c.TooSpecific)
	return nil
}

// MedianOf is the median of the values; nil when there are none.
func MedianOf(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	slices.Sort(vs)
	m := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		m = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return &m
}
