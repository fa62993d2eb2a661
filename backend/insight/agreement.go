package insight

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
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The agreement figures' bootstrap: replicates over units with a fixed seed, so the same labels
// give the same interval.
const (
	AgreementReplicates = 1000
	AgreementSeed       = 20260311
)

// agreementRequestTimeout is how long a queued refresh counts as pending; after it a request
// queues another job (the first one's replica may have died).
const agreementRequestTimeout = 10 * time.Minute

// Agreement statuses.
const (
	AgreementReady     = "ready"
	AgreementComputing = "computing"
)

// AgreementReport is a project's agreement per question, as GET .../agreement answers it.
type AgreementReport struct {
	Status        string              `json:"status"`
	ComputedAt    *time.Time          `json:"computed_at"`
	SchemaVersion int                 `json:"schema_version"`
	Labels        int64               `json:"labels"`
	Questions     []QuestionAgreement `json:"questions"`
	Macro         MacroAgreement      `json:"macro"`
	Matrix        AgreementMatrix     `json:"matrix"`
}

// QuestionAgreement is one question's figures; a figure that is undefined for the data or
// does not apply at the question's level is nil.
type QuestionAgreement struct {
	Key              string        `json:"key"`
	Label            string        `json:"label"`
	Type             string        `json:"type"`
	Level            string        `json:"level"`
	NUnits           int           `json:"n_units"`
	NRatings         int           `json:"n_ratings"`
	Alpha            *float64      `json:"alpha"`
	AlphaCI          *[2]float64   `json:"alpha_ci"`
	PercentAgreement *float64      `json:"percent_agreement"`
	FleissKappa      *float64      `json:"fleiss_kappa"`
	GwetAC1          *float64      `json:"gwet_ac1"`
	Exact            *float64      `json:"exact"`
	WithinOne        *float64      `json:"within_one"`
	MAD              *float64      `json:"mad"`
	Raw              *RawAgreement `json:"raw"`
}

// RawAgreement is a binary question's figures over the raw Yes/No/N-A answers.
type RawAgreement struct {
	Alpha            *float64 `json:"alpha"`
	PercentAgreement *float64 `json:"percent_agreement"`
}

// MacroAgreement averages the shown questions' figures, undefined ones left out.
type MacroAgreement struct {
	Alpha            *float64 `json:"alpha"`
	PercentAgreement *float64 `json:"percent_agreement"`
}

// AnnotatorRef names an annotator.
type AnnotatorRef struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"`
}

// AgreementMatrix is each pair of annotators' share of agreeing ratings on the units both
// rated; nil where they share none and on the diagonal.
type AgreementMatrix struct {
	Annotators []AnnotatorRef `json:"annotators"`
	Values     [][]*float64   `json:"values"`
}

// agreementFigures is what the job keeps: every question's figures and, per question, each
// pair's agreeing and shared units, so that any choice of questions pools into one matrix.
type agreementFigures struct {
	Annotators []AnnotatorRef    `json:"annotators"`
	Questions  []questionFigures `json:"questions"`
}

type questionFigures struct {
	QuestionAgreement
	// Pairs holds [a, b, agreeing, shared] with a < b indexes of Annotators.
	Pairs [][4]int64 `json:"pairs"`
}

// ratingTable is one question's ratings, mapped and (for binary questions) raw.
type ratingTable struct {
	q                         tasks.Question
	mapped                    *agreement.Builder
	raw                       *agreement.Builder
	mappedRatings, rawRatings ratingsCache
	nRatings                  int
}

// add adds the ratings of one answer; it fails when the answer is not JSON.
func (rt *ratingTable) add(item, rater string, raw json.RawMessage) error {
	rs, err := rt.mappedRatings.ratings(rt.q, raw, false)
	if err != nil {
		return err
	}
	for _, r := range rs {
		rt.mapped.Add(item+r.UnitSuffix, rater, r.Value)
	}
	if rt.raw != nil {
		rs, _ = rt.rawRatings.ratings(rt.q, raw, true)
		for _, r := range rs {
			rt.raw.Add(item+r.UnitSuffix, rater, r.Value)
		}
	}
	return nil
}

// AgreementTables collects a schema's label answers into one rating table per question that
// has a level of measurement. Raters are user ids, units item ids (with a sub-unit suffix for
// checklist items and ranked options).
type AgreementTables struct {
	schema *tasks.Schema
	tables map[string]*ratingTable
	owner  map[string]string // units of labels compared with their drafts → the person
	fields []member          // scratch of addDocument
	Labels int64
}

// NewAgreementTables returns empty tables for a schema.
func NewAgreementTables(schema *tasks.Schema) *AgreementTables {
	t := &AgreementTables{schema: schema, tables: map[string]*ratingTable{}}
	for _, q := range schema.Questions {
		level, ok := agreementLevel(q)
		if !ok {
			continue
		}
		rt := &ratingTable{q: q, mapped: agreement.NewBuilder(level, 0), mappedRatings: ratingsCache{}, rawRatings: ratingsCache{}}
		if q.Kind == tasks.KindBinary {
			rt.raw = agreement.NewBuilder(level, 0)
		}
		t.tables[q.Key] = rt
	}
	return t
}

// Add adds one label's answers (canonical order).
func (t *AgreementTables) Add(item, rater string, answers map[string]json.RawMessage) {
	t.Labels++
	for key, raw := range answers {
		if rt := t.tables[key]; rt != nil {
			rt.add(item, rater, raw) // decoded answers are JSON
		}
	}
}

// figures computes every question's figures, in schema order, with the annotators' pairs.
func (t *AgreementTables) figures(replicates int) (*agreementFigures, error) {
	out := &agreementFigures{Annotators: []AnnotatorRef{}, Questions: []questionFigures{}}
	index := map[string]int{}
	var boot bootstrapped
	for _, q := range t.schema.Questions {
		rt := t.tables[q.Key]
		if rt == nil {
			continue
		}
		level, _ := agreementLevel(q)
		qf := questionFigures{QuestionAgreement: QuestionAgreement{Key: q.Key, Label: q.Label, Type: string(q.Kind), Level: level.String()}, Pairs: [][4]int64{}}
		tab, err := rt.mapped.Build()
		if err != nil && !errors.Is(err, agreement.ErrNoData) {
			return nil, fmt.Errorf("question %s: %w", q.Key, err)
		}
		if tab != nil {
			if qf.measure(q, tab) && replicates > 0 {
				boot.add(len(out.Questions), tab, alphaOf(q))
			}
			qf.Pairs = pairsOf(tab, out, index)
		}
		if rt.raw != nil {
			qf.Raw = &RawAgreement{}
			if raw, err := rt.raw.Build(); err == nil {
				qf.Raw.Alpha = defined(agreement.Alpha(raw))
				qf.Raw.PercentAgreement = defined(agreement.PercentAgreement(raw))
			}
		}
		out.Questions = append(out.Questions, qf)
	}
	boot.intervals(out.Questions, replicates)
	return out, nil
}

// bootstrapped is the questions whose alpha gets a bootstrap interval, bootstrapped together
// (agreement.BootstrapCountsEach: tables with as many units share the draws).
type bootstrapped struct {
	at     []int // index in the figures' questions
	tables []*agreement.Table
	alphas [][]func(*agreement.Table) (float64, error)
}

func (b *bootstrapped) add(at int, tab *agreement.Table, alpha func(*agreement.Table) (float64, error)) {
	b.at, b.tables = append(b.at, at), append(b.tables, tab)
	b.alphas = append(b.alphas, []func(*agreement.Table) (float64, error){alpha})
}

// intervals sets each question's alpha interval, left nil when no replicate defines alpha.
func (b *bootstrapped) intervals(qs []questionFigures, replicates int) {
	cis, errs := agreement.BootstrapCountsEach(b.tables, b.alphas, agreement.BootstrapOptions{Replicates: replicates, Seed: AgreementSeed})
	for k, at := range b.at {
		if errs[k] == nil && len(cis[k]) == 1 && cis[k][0].Replicates > 0 {
			qs[at].AlphaCI = &[2]float64{cis[k][0].Lower, cis[k][0].Upper}
		}
	}
}

// measure fills a question's figures from its table, and reports whether alpha is defined.
func (qf *questionFigures) measure(q tasks.Question, tab *agreement.Table) bool {
	qf.NUnits, qf.NRatings = tab.NumUnits(), tab.NumRatings()
	qf.Alpha = defined(alphaOf(q)(tab))
	qf.PercentAgreement = defined(agreement.PercentAgreement(tab))
	if tab.Level() == agreement.Nominal {
		qf.FleissKappa = defined(agreement.FleissKappa(tab))
		qf.GwetAC1 = defined(agreement.GwetAC1(tab))
	} else if o, err := agreement.OrdinalAgreement(tab); err == nil && o.Pairs > 0 {
		qf.Exact, qf.WithinOne, qf.MAD = &o.Exact, &o.WithinOne, &o.MeanAbsDiff
	}
	return qf.Alpha != nil
}

// pairsOf lists each pair of raters' agreeing and shared units, adding new raters to the
// figures' annotators.
func pairsOf(tab *agreement.Table, out *agreementFigures, index map[string]int) [][4]int64 {
	code := make([]int, tab.NumRaters())
	for r := range code {
		id := tab.Rater(r)
		i, ok := index[id]
		if !ok {
			i = len(out.Annotators)
			index[id] = i
			out.Annotators = append(out.Annotators, AnnotatorRef{UserID: id})
		}
		code[r] = i
	}
	pairs := [][4]int64{}
	for _, c := range agreement.AllPairConfusions(tab) {
		pa, err := c.PercentAgreement()
		if err != nil {
			continue
		}
		a, b := code[c.A], code[c.B]
		if a > b {
			a, b = b, a
		}
		pairs = append(pairs, [4]int64{int64(a), int64(b), int64(pa*float64(c.N) + 0.5), c.N})
	}
	return pairs
}

// defined turns a metric's result into a figure: nil when it is undefined for the data.
func defined(v float64, err error) *float64 {
	if err != nil {
		return nil
	}
	return &v
}

// ComputeAgreement reads a project's production labels into tables; the figures of the job.
func (s *Service) computeAgreement(ctx context.Context, p *workflow.Project, replicates int) (*agreementFigures, int64, error) {
	t := NewAgreementTables(p.Schema)
	err := s.store.EachProductionLabel(ctx, p.ID, false, func(r *store.LabelRow) error {
		src := r.Answers
		if len(r.Effective) > 0 {
			src = r.Effective
		}
		if err := t.addDocument(r.ItemID, r.UserID, src); err != nil {
			return fmt.Errorf("label %s: %w", r.ID, err)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	f, err := t.figures(replicates)
	if err != nil {
		return nil, 0, err
	}
	return f, t.Labels, s.nameAnnotators(ctx, p.ID, f.Annotators)
}

// nameAnnotators fills in the names of annotators (members and former members alike).
func (s *Service) nameAnnotators(ctx context.Context, projectID string, as []AnnotatorRef) error {
	if len(as) == 0 {
		return nil
	}
	ids := make([]string, len(as))
	for i, a := range as {
		ids[i] = a.UserID
	}
	names, err := s.store.UserNames(ctx, ids)
	if err != nil {
		return err
	}
	for i := range as {
		as[i].Name = names[as[i].UserID]
	}
	return nil
}

// RunAgreement computes and keeps a project's agreement figures of a stage (the job's work).
// The key is read before the labels, so a label that arrives meanwhile makes the figures stale.
func (s *Service) RunAgreement(ctx context.Context, projectID string, stage flow.Stage) error {
	p, err := s.jobProject(ctx, projectID)
	if err != nil || p == nil {
		return err
	}
	stamp, err := s.store.LatestSubmit(ctx, p.ID)
	if err != nil {
		return err
	}
	f, labels, err := s.computeAgreement(ctx, p, AgreementReplicates)
	if err != nil {
		return err
	}
	t := s.now()
	return s.store.PutAgreementResult(ctx, &store.AgreementResult{ProjectID: p.ID, Stage: stage, SchemaVersion: p.SchemaVersion,
		Stamp: stamp, Labels: labels, Result: workflow.Encode(f), ComputedAt: &t})
}

// Agreement answers a project's agreement figures from what the job kept. Kept figures of an
// older schema version or older labels are answered with status computing and a job is queued
// to refresh them; a server without a job queue computes them at once.
func (s *Service) Agreement(ctx context.Context, p *workflow.Project, stage string, questions []string) (*AgreementReport, error) {
	if stage == "" {
		stage = string(flow.StageLabel)
	}
	if stage != string(flow.StageLabel) {
		return nil, tasks.Field("stage", "invalid_value", "agreement is computed over the label stage only, not %q", stage)
	}
	if err := checkAgreementQuestions(p.Schema, questions); err != nil {
		return nil, err
	}
	row, fresh, err := s.agreementRow(ctx, p)
	if err != nil {
		return nil, err
	}
	rep := &AgreementReport{Status: AgreementReady, SchemaVersion: p.SchemaVersion, Questions: []QuestionAgreement{},
		Matrix: AgreementMatrix{Annotators: []AnnotatorRef{}, Values: [][]*float64{}}}
	if !fresh {
		rep.Status = AgreementComputing
	}
	if row == nil || row.ComputedAt == nil {
		return rep, nil
	}
	var f agreementFigures
	if err := json.Unmarshal(row.Result, &f); err != nil {
		return nil, fmt.Errorf("agreement of project %s: %w", p.ID, err)
	}
	rep.ComputedAt, rep.SchemaVersion, rep.Labels = row.ComputedAt, row.SchemaVersion, row.Labels
	f.report(rep, questions)
	return rep, nil
}

// agreementRow returns the kept figures and whether they are current, queueing a refresh
// when they are not (or computing it at once without a job queue).
func (s *Service) agreementRow(ctx context.Context, p *workflow.Project) (*store.AgreementResult, bool, error) {
	row, err := s.store.AgreementResult(ctx, p.ID, flow.StageLabel)
	if errors.Is(err, store.ErrNotFound) {
		row, err = nil, nil
	}
	if err != nil {
		return nil, false, err
	}
	stamp, err := s.store.LatestSubmit(ctx, p.ID)
	if err != nil {
		return nil, false, err
	}
	if row != nil && row.ComputedAt != nil && row.SchemaVersion == p.SchemaVersion && sameTime(row.Stamp, stamp) {
		return row, true, nil
	}
	if s.jobs == nil {
		if err := s.RunAgreement(ctx, p.ID, flow.StageLabel); err != nil {
			return nil, false, err
		}
		row, err = s.store.AgreementResult(ctx, p.ID, flow.StageLabel)
		return row, err == nil, err
	}
	t := s.now()
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		queue, err := tx.RequestAgreement(ctx, p.ID, flow.StageLabel, t, t.Add(-agreementRequestTimeout))
		if err != nil || !queue {
			return err
		}
		return s.jobs.EnqueueAgreement(ctx, tx, p.ID, flow.StageLabel)
	})
	return row, false, err
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// checkAgreementQuestions refuses question keys the schema lacks or that have no level.
func checkAgreementQuestions(schema *tasks.Schema, keys []string) error {
	for _, k := range keys {
		q, ok := schema.Question(k)
		if _, measured := agreementLevel(q); !ok || !measured {
			return tasks.Field("questions", "unknown_question", "%q is not a question of the schema with a level of measurement", k)
		}
	}
	return nil
}

// report fills a report with the chosen questions (all when none are named), their macro
// averages and the matrix pooled over them.
func (f *agreementFigures) report(rep *AgreementReport, keys []string) {
	n := len(f.Annotators)
	agree, shared := make([]int64, n*n), make([]int64, n*n)
	var alphas, pas []float64
	for _, q := range f.Questions {
		if len(keys) > 0 && !slices.Contains(keys, q.Key) {
			continue
		}
		rep.Questions = append(rep.Questions, q.QuestionAgreement)
		if q.Alpha != nil {
			alphas = append(alphas, *q.Alpha)
		}
		if q.PercentAgreement != nil {
			pas = append(pas, *q.PercentAgreement)
		}
		for _, p := range q.Pairs {
			agree[p[0]*int64(n)+p[1]] += p[2]
			shared[p[0]*int64(n)+p[1]] += p[3]
		}
	}
	rep.Macro = MacroAgreement{Alpha: average(alphas), PercentAgreement: average(pas)}
	rep.Matrix.Annotators = f.Annotators
	rep.Matrix.Values = make([][]*float64, n)
	for i := range rep.Matrix.Values {
		rep.Matrix.Values[i] = make([]*float64, n)
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if s := shared[a*n+b]; s > 0 {
				v := float64(agree[a*n+b]) / float64(s)
				rep.Matrix.Values[a][b], rep.Matrix.Values[b][a] = &v, &v
			}
		}
	}
}

func average(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	v := s / float64(len(xs))
	return &v
}

// ParseQuestionList splits a comma-separated list of question keys.
func ParseQuestionList(s string) []string {
	var out []string
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, k)
		}
	}
	return out
}
