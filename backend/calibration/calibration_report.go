package calibration

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The report's interval of alpha: replicates of a percentile bootstrap with a fixed seed, so a
// round's report does not change between reads.
const (
	reportReplicates = 1000
	reportSeed       = 20260311
	maxDisputed      = 10
)

// PairFigures compare one annotator with another rater (a peer, or gold) on one question.
type PairFigures struct {
	Exact     *float64 `json:"exact"`
	WithinOne *float64 `json:"within_one"`
	MAD       *float64 `json:"mad"`
	Alpha     *float64 `json:"alpha"`
}

// AnnotatorQuestion is one annotator's figures on one question.
type AnnotatorQuestion struct {
	Accuracy      *float64               `json:"accuracy"`
	YesAccuracy   *float64               `json:"yes_accuracy"`
	NoAccuracy    *float64               `json:"no_accuracy"`
	Exact         *float64               `json:"exact"`
	WithinOne     *float64               `json:"within_one"`
	MAD           *float64               `json:"mad"`
	PeerAgreement *float64               `json:"peer_agreement"`
	Peers         map[string]PairFigures `json:"peers"`
}

// ReportAnnotator is one participant's part of a round report.
type ReportAnnotator struct {
	UserID        string                       `json:"user_id"`
	Name          string                       `json:"name"`
	ItemsDone     int                          `json:"items_done"`
	MedianSeconds *float64                     `json:"median_seconds"`
	Score         *float64                     `json:"score"`
	Passed        bool                         `json:"passed"`
	Questions     map[string]AnnotatorQuestion `json:"questions"`
}

// QuestionFigures are the group's figures on one question.
type QuestionFigures struct {
	Key       string      `json:"key"`
	Label     string      `json:"label"`
	Type      tasks.Kind  `json:"type"`
	Level     tasks.Level `json:"level"`
	Alpha     *float64    `json:"alpha"`
	AlphaCI   []float64   `json:"alpha_ci"`
	Exact     *float64    `json:"exact"`
	WithinOne *float64    `json:"within_one"`
	MAD       *float64    `json:"mad"`
	NUnits    int         `json:"n_units"`
	NRatings  int         `json:"n_ratings"`
}

// Person names a participant.
type Person struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"`
}

// Matrix is the annotator × annotator agreement.
type Matrix struct {
	Annotators []Person     `json:"annotators"`
	Values     [][]*float64 `json:"values"`
}

// DisputedAnswer is one participant's answer to a disputed question.
type DisputedAnswer struct {
	UserID string          `json:"user_id"`
	Name   string          `json:"name"`
	Answer json.RawMessage `json:"answer"`
}

// Disputed is an (item, question) on which participants disagreed.
type Disputed struct {
	ItemID     string           `json:"item_id"`
	ExternalID string           `json:"external_id"`
	Question   string           `json:"question"`
	Gold       json.RawMessage  `json:"gold"`
	Answers    []DisputedAnswer `json:"answers"`
	exact, mad float64
}

// TrendSeries are one question's group figures, one entry per round.
type TrendSeries struct {
	Alpha     []*float64 `json:"alpha"`
	Exact     []*float64 `json:"exact"`
	WithinOne []*float64 `json:"within_one"`
	MAD       []*float64 `json:"mad"`
}

// Trend holds the group figures of every round of the project up to the reported one.
type Trend struct {
	Rounds    []int                  `json:"rounds"`
	Questions map[string]TrendSeries `json:"questions"`
	// Pooled is the pooled figures' series; nil when the form has no pooled scores.
	Pooled *TrendSeries `json:"pooled"`
}

// Report is a calibration round's report.
type Report struct {
	Round      RoundView         `json:"round"`
	Annotators []ReportAnnotator `json:"annotators"`
	Questions  []QuestionFigures `json:"questions"`
	// Pooled are the figures over every primary score at once; nil when the form has fewer than
	// two Likert questions on one scale.
	Pooled   *PooledFigures `json:"pooled"`
	Matrix   Matrix         `json:"matrix"`
	Disputed []Disputed     `json:"disputed"`
	Trend    Trend          `json:"trend"`
	Pass     PassRule       `json:"pass"`
}

// Report computes a round's report, with the trend over every round of the project up to it.
// Every agreement figure comes from package agreement.
func (s *Service) Report(ctx context.Context, p *workflow.Project, roundID string) (*Report, error) {
	r, err := s.store.Round(ctx, p.ID, roundID)
	if err != nil {
		return nil, store.Missing(err, "calibration round")
	}
	return s.report(ctx, s.store, p, r)
}

// roundData is what a round's figures are computed from.
type roundData struct {
	round  store.Round
	pass   PassRule
	items  []store.RoundItem
	people []store.RoundPerson
	work   map[string]map[string]store.Assignment // user → item → submitted work
	gold   map[string]tasks.Answers
}

func (s *Service) loadRound(ctx context.Context, st *store.Store, r store.Round) (*roundData, error) {
	d := &roundData{round: r, work: map[string]map[string]store.Assignment{}}
	json.Unmarshal(r.PassRule, &d.pass)
	var err error
	if d.items, err = st.RoundItems(ctx, r.ID); err != nil {
		return nil, err
	}
	if d.people, err = st.RoundPeople(ctx, []string{r.ID}); err != nil {
		return nil, err
	}
	work, err := st.RoundWork(ctx, []string{r.ID})
	if err != nil {
		return nil, err
	}
	for _, a := range work {
		if d.work[a.UserID] == nil {
			d.work[a.UserID] = map[string]store.Assignment{}
		}
		d.work[a.UserID][a.ItemID] = a
	}
	ids := make([]string, len(d.items))
	for i, it := range d.items {
		ids[i] = it.ItemID
	}
	gold, err := st.Gold(ctx, ids)
	if err != nil {
		return nil, err
	}
	d.gold = make(map[string]tasks.Answers, len(gold))
	for id, g := range gold {
		d.gold[id] = workflow.DecodeAnswers(g)
	}
	return d, nil
}

// answer is a participant's answer to a question of an item, or nil.
func (d *roundData) answer(userID, itemID, key string) json.RawMessage {
	a, ok := d.work[userID][itemID]
	if !ok {
		return nil
	}
	return workflow.DecodeAnswers(a.Answers)[key]
}

// calibrationRatings reads an answer as agreement values, on the item or on a sub-unit (a
// checklist item, a ranked option), keyed by the sub-unit's suffix. Answers are compared as
// given (binary yes, no, na; a Likert N/A a category of its own): the feedback is about the
// answer chosen.
func calibrationRatings(q tasks.Question, raw json.RawMessage) map[string]string {
	rs := tasks.KindOf(q).Ratings(raw, tasks.RatingsAnswered)
	if len(rs) == 0 {
		return nil
	}
	out := make(map[string]string, len(rs))
	for _, r := range rs {
		out[r.UnitSuffix] = r.Value
	}
	return out
}

// levelOf is the agreement level of a question.
func levelOf(q tasks.Question) agreement.Level {
	l, err := agreement.ParseLevel(string(q.MeasurementLevel()))
	if err != nil {
		return agreement.Nominal
	}
	return l
}

// reportLevel is how the report names a question's level: nominal, or ordinal for ordered scores.
func reportLevel(q tasks.Question) tasks.Level {
	if ordinal(q) {
		return tasks.LevelOrdinal
	}
	return tasks.LevelNominal
}

// tableOf builds an agreement table of a question over the given raters (user ids, or
// "gold"), on the given items; nil when it holds no rating.
func (d *roundData) tableOf(q tasks.Question, raters []string, items []store.RoundItem) *agreement.Table {
	b := agreement.NewBuilder(levelOf(q), 0)
	d.addRatings(b, q, "", raters, items)
	t, err := b.Build()
	if err != nil {
		return nil
	}
	return t
}

// addRatings adds the raters' ratings of a question on the items, each unit's key after prefix.
func (d *roundData) addRatings(b *agreement.Builder, q tasks.Question, prefix string, raters []string, items []store.RoundItem) {
	for _, it := range items {
		for _, r := range raters {
			var raw json.RawMessage
			if r == goldRater {
				raw = d.gold[it.ItemID][q.Key]
			} else {
				raw = d.answer(r, it.ItemID, q.Key)
			}
			for sub, v := range calibrationRatings(q, raw) {
				b.Add(prefix+it.ItemID+sub, r, v)
			}
		}
	}
}

// goldRater names gold among the raters of a table.
const goldRater = "\x00gold"

// alphaOf is a table's α and, withCI, its bootstrap interval (nil when not defined).
func tableAlpha(t *agreement.Table, withCI bool) (*float64, []float64) {
	alpha := num(agreement.Alpha(t))
	if !withCI || alpha == nil {
		return alpha, nil
	}
	cis, err := agreement.BootstrapCounts(t, []func(*agreement.Table) (float64, error){agreement.Alpha},
		agreement.BootstrapOptions{Replicates: reportReplicates, Seed: reportSeed})
	if err != nil || len(cis) != 1 || cis[0].Replicates == 0 {
		return alpha, nil
	}
	return alpha, []float64{cis[0].Lower, cis[0].Upper}
}

func num(v float64, err error) *float64 {
	if err != nil {
		return nil
	}
	return &v
}

// groupFigures are a question's group figures in a round; withCI adds the bootstrap interval.
func (d *roundData) groupFigures(q tasks.Question, withCI bool) QuestionFigures {
	f := QuestionFigures{Key: q.Key, Label: q.Label, Type: q.Kind, Level: reportLevel(q)}
	t := d.tableOf(q, d.participantIDs(), d.items)
	if t == nil {
		return f
	}
	f.NUnits, f.NRatings = t.NumUnits(), t.NumRatings()
	f.Alpha, f.AlphaCI = tableAlpha(t, withCI)
	if ordinal(q) {
		if o, err := agreement.OrdinalAgreement(t); err == nil {
			f.Exact, f.WithinOne, f.MAD = &o.Exact, &o.WithinOne, &o.MeanAbsDiff
		}
	}
	return f
}

func (d *roundData) participantIDs() []string {
	ids := make([]string, len(d.people))
	for i, p := range d.people {
		ids[i] = p.UserID
	}
	return ids
}

// pair compares rater a with rater b on a question.
func (d *roundData) pair(q tasks.Question, a, b string) PairFigures {
	var f PairFigures
	t := d.tableOf(q, []string{a, b}, d.items)
	if t == nil {
		return f
	}
	f.Alpha = num(agreement.Alpha(t))
	if ordinal(q) {
		if o, err := agreement.OrdinalAgreement(t); err == nil {
			f.Exact, f.WithinOne, f.MAD = &o.Exact, &o.WithinOne, &o.MeanAbsDiff
		}
		return f
	}
	f.Exact = num(agreement.PercentAgreement(t))
	return f
}

// accuracy scores a participant's answers against gold on a question.
func (d *roundData) accuracy(q tasks.Question, userID string, out *AnnotatorQuestion) {
	var ref, pred []string
	for _, it := range d.items {
		gold := calibrationRatings(q, d.gold[it.ItemID][q.Key])
		mine := calibrationRatings(q, d.answer(userID, it.ItemID, q.Key))
		for sub, g := range gold {
			if m, ok := mine[sub]; ok {
				ref, pred = append(ref, g), append(pred, m)
			}
		}
	}
	c, err := agreement.Classify(ref, pred, "")
	if err != nil {
		return
	}
	out.Accuracy = &c.Accuracy
	if q.Kind == tasks.KindBinary {
		if v, ok := c.Recall[tasks.AnswerYes]; ok {
			out.YesAccuracy = &v
		}
		if v, ok := c.Recall[tasks.AnswerNo]; ok {
			out.NoAccuracy = &v
		}
	}
}

// meanDefined averages the defined values; nil when none is.
func meanDefined(vs []*float64) *float64 {
	var sum float64
	n := 0
	for _, v := range vs {
		if v != nil {
			sum += *v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	m := sum / float64(n)
	return &m
}

// annotator computes one participant's figures and their score by the pass rule.
func (d *roundData) annotator(schema *tasks.Schema, p store.RoundPerson) ReportAnnotator {
	a := ReportAnnotator{UserID: p.UserID, Name: p.Name, Questions: map[string]AnnotatorQuestion{}}
	var secs []float64
	for _, w := range d.work[p.UserID] {
		secs = append(secs, float64(w.TimeSpentMS)/1000)
	}
	a.ItemsDone, a.MedianSeconds = len(d.work[p.UserID]), insight.MedianOf(secs)
	for _, q := range schema.Questions {
		if !levelled(q) {
			continue
		}
		aq := AnnotatorQuestion{Peers: map[string]PairFigures{}}
		d.accuracy(q, p.UserID, &aq)
		if ordinal(q) {
			g := d.pair(q, goldRater, p.UserID)
			aq.Exact, aq.WithinOne, aq.MAD = g.Exact, g.WithinOne, g.MAD
		}
		var exact []*float64
		for _, peer := range d.people {
			if peer.UserID != p.UserID {
				f := d.pair(q, p.UserID, peer.UserID)
				aq.Peers[peer.UserID] = f
				exact = append(exact, f.Exact)
			}
		}
		aq.PeerAgreement = meanDefined(exact)
		a.Questions[q.Key] = aq
	}
	var perQuestion []*float64
	for _, key := range d.pass.Questions {
		aq := a.Questions[key]
		var peers []*float64
		for _, f := range aq.Peers {
			switch d.pass.Metric {
			case flow.PassExactWithPeers:
				peers = append(peers, f.Exact)
			case flow.PassWithinOneWithPeers:
				peers = append(peers, f.WithinOne)
			case flow.PassAlphaWithPeers:
				peers = append(peers, f.Alpha)
			}
		}
		if d.pass.Metric == flow.PassAccuracyVsGold {
			perQuestion = append(perQuestion, aq.Accuracy)
		} else {
			perQuestion = append(perQuestion, meanDefined(peers))
		}
	}
	a.Score = meanDefined(perQuestion)
	a.Passed = a.ItemsDone == len(d.items) && len(d.items) > 0 && a.Score != nil && *a.Score >= d.pass.Threshold
	return a
}

// matrix is the pairwise share of equal answers over the pass questions.
func (d *roundData) matrix(schema *tasks.Schema) Matrix {
	m := Matrix{Annotators: make([]Person, len(d.people)), Values: make([][]*float64, len(d.people))}
	for i, a := range d.people {
		m.Annotators[i] = Person{UserID: a.UserID, Name: a.Name}
		m.Values[i] = make([]*float64, len(d.people))
		for j, b := range d.people {
			if i == j {
				one := 1.0
				m.Values[i][j] = &one
				continue
			}
			bl := agreement.NewBuilder(agreement.Nominal, 0)
			for _, key := range d.pass.Questions {
				q, _ := schema.Question(key)
				for _, it := range d.items {
					for sub, v := range calibrationRatings(q, d.answer(a.UserID, it.ItemID, key)) {
						bl.Add(key+"\x00"+it.ItemID+sub, a.UserID, v)
					}
					for sub, v := range calibrationRatings(q, d.answer(b.UserID, it.ItemID, key)) {
						bl.Add(key+"\x00"+it.ItemID+sub, b.UserID, v)
					}
				}
			}
			if t, err := bl.Build(); err == nil {
				m.Values[i][j] = num(agreement.PercentAgreement(t))
			}
		}
	}
	return m
}

// disputed lists the (item, question) pairs with the least exact agreement among the
// participants (then the largest mean absolute difference), at most maxDisputed.
func (d *roundData) disputed(schema *tasks.Schema) []Disputed {
	out := []Disputed{}
	for _, it := range d.items {
		for _, q := range schema.Questions {
			if !levelled(q) {
				continue
			}
			t := d.tableOf(q, d.participantIDs(), []store.RoundItem{it})
			if t == nil {
				continue
			}
			o, err := agreement.OrdinalAgreement(t)
			if err != nil || o.Exact >= 1 {
				continue
			}
			ds := Disputed{ItemID: it.ItemID, ExternalID: it.ExternalID, Question: q.Key, Gold: d.gold[it.ItemID][q.Key],
				Answers: []DisputedAnswer{}, exact: o.Exact, mad: o.MeanAbsDiff}
			for _, p := range d.people {
				if raw := d.answer(p.UserID, it.ItemID, q.Key); raw != nil {
					ds.Answers = append(ds.Answers, DisputedAnswer{UserID: p.UserID, Name: p.Name, Answer: raw})
				}
			}
			out = append(out, ds)
		}
	}
	slices.SortStableFunc(out, func(a, b Disputed) int {
		return cmp.Or(cmp.Compare(a.exact, b.exact), cmp.Compare(b.mad, a.mad))
	})
	return out[:min(len(out), maxDisputed)]
}

// report computes the report of round r from the store st (a transaction when closing).
func (s *Service) report(ctx context.Context, st *store.Store, p *workflow.Project, r *store.Round) (*Report, error) {
	all, err := st.Rounds(ctx, p.ID, "")
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b store.Round) int { return cmp.Compare(a.Number, b.Number) })
	trend := Trend{Rounds: []int{}, Questions: map[string]TrendSeries{}}
	var cur *roundData
	for _, past := range all {
		if past.Number > r.Number {
			break
		}
		if past.ID == r.ID {
			past = *r // note: the caller's copy may be newer (closing)
		}
		d, err := s.loadRound(ctx, st, past)
		if err != nil {
			return nil, err
		}
		trend.Rounds = append(trend.Rounds, past.Number)
		for _, q := range p.Schema.Questions {
			if !levelled(q) {
				continue
			}
			f := d.groupFigures(q, false)
			ts := trend.Questions[q.Key]
			ts.Alpha, ts.Exact = append(ts.Alpha, f.Alpha), append(ts.Exact, f.Exact)
			ts.WithinOne, ts.MAD = append(ts.WithinOne, f.WithinOne), append(ts.MAD, f.MAD)
			trend.Questions[q.Key] = ts
		}
		if f := d.pooledFigures(p.Schema, false); f != nil {
			if trend.Pooled == nil {
				trend.Pooled = &TrendSeries{}
			}
			ts := trend.Pooled
			ts.Alpha, ts.Exact = append(ts.Alpha, f.Alpha), append(ts.Exact, f.Exact)
			ts.WithinOne, ts.MAD = append(ts.WithinOne, f.WithinOne), append(ts.MAD, f.MAD)
		}
		if past.ID == r.ID {
			cur = d
		}
	}
	if cur == nil {
		return nil, &store.NotFoundError{What: "calibration round"}
	}
	view, err := s.roundView(ctx, st, r, "")
	if err != nil {
		return nil, err
	}
	rep := &Report{Round: *view, Pass: cur.pass, Trend: trend, Annotators: []ReportAnnotator{}, Questions: []QuestionFigures{}}
	for _, pp := range cur.people {
		rep.Annotators = append(rep.Annotators, cur.annotator(p.Schema, pp))
	}
	for _, q := range p.Schema.Questions {
		if levelled(q) {
			rep.Questions = append(rep.Questions, cur.groupFigures(q, true))
		}
	}
	rep.Pooled = cur.pooledFigures(p.Schema, true)
	rep.Matrix, rep.Disputed = cur.matrix(p.Schema), cur.disputed(p.Schema)
	return rep, nil
}
