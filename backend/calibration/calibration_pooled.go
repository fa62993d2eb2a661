package calibration

import (
	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// PooledFigures are the group's figures over the primary scores of a form (its Likert
// questions, when there are two or more on one scale) pooled as units of one question: every
// pair of annotators' scores of every item and question counts once. RoboJudge's calibration
// table reports exact, ±1 and MAD pooled so, over PA and IA.
type PooledFigures struct {
	Questions []string  `json:"questions"`
	Alpha     *float64  `json:"alpha"`
	AlphaCI   []float64 `json:"alpha_ci"`
	Exact     *float64  `json:"exact"`
	WithinOne *float64  `json:"within_one"`
	MAD       *float64  `json:"mad"`
	NUnits    int       `json:"n_units"`
	NRatings  int       `json:"n_ratings"`
}

// pooledScores are the Likert questions of a schema when there are two or more and all share
// one scale, the primary scores whose figures are also reported pooled; nil otherwise.
func pooledScores(schema *tasks.Schema) []tasks.Question {
	var qs []tasks.Question
	for _, q := range schema.Questions {
		if q.Kind != tasks.KindLikert {
			continue
		}
		if len(qs) > 0 && (!sameBound(q.Min, qs[0].Min) || !sameBound(q.Max, qs[0].Max)) {
			return nil
		}
		qs = append(qs, q)
	}
	if len(qs) < 2 {
		return nil
	}
	return qs
}

func sameBound(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// pooledFigures are the participants' figures over the pooled scores, each (question, item) a
// unit; withCI adds the bootstrap interval of alpha. Nil without pooled scores.
func (d *roundData) pooledFigures(schema *tasks.Schema, withCI bool) *PooledFigures {
	qs := pooledScores(schema)
	if qs == nil {
		return nil
	}
	f := &PooledFigures{}
	b := agreement.NewBuilder(agreement.Ordinal, 0)
	for _, q := range qs {
		f.Questions = append(f.Questions, q.Key)
		d.addRatings(b, q, q.Key+"\x00", d.participantIDs(), d.items)
	}
	t, err := b.Build()
	if err != nil {
		return f
	}
	f.NUnits, f.NRatings = t.NumUnits(), t.NumRatings()
	f.Alpha, f.AlphaCI = tableAlpha(t, withCI)
	if o, err := agreement.OrdinalAgreement(t); err == nil {
		f.Exact, f.WithinOne, f.MAD = &o.Exact, &o.WithinOne, &o.MeanAbsDiff
	}
	return f
}
