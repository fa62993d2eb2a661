package insight

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// judgeTruth is the decided items' ground truth as columns, in external id order: item i is
// unit i of keys, its metadata values are numbers of names (interned, names[0] is ""), and
// its value of question k is the code vals[i*len(qs)+k] (-1: none).
type judgeTruth struct {
	keys                        agreement.JudgeKeys
	cluster, stratum, a, b, sys []int32
	names                       []string
	vals                        []int32
	codes                       *valueCodes
}

// valueCodes numbers the judge values of answers (each distinct value is kept once), and
// keeps the codes of answers documents seen (up to maxKeptBytes of them), so that a document
// that repeats, as most do, is decoded once.
type valueCodes struct {
	nameCodes                    // the distinct values, numbered
	docs      map[string][]int32 // codes of the documents kept
	kept      int                // bytes of the documents in docs
}

// maxKeptBytes bounds the documents kept to be read once (answers, and metadata apart): a
// project whose documents never repeat (free-text rationales) keeps no more than this.
const maxKeptBytes = 16 << 20

// forget drops the kept documents once the reading is done.
func (vc *valueCodes) forget() { vc.docs, vc.kept = nil, 0 }

func newValueCodes() *valueCodes {
	return &valueCodes{nameCodes: nameCodes{code: map[string]int32{}}, docs: map[string][]int32{}}
}

// appendAnswers appends the codes of an answers document's judge values, one per question
// of qs (-1 where the answer gives none), decoding the document once.
func (vc *valueCodes) appendAnswers(dst []int32, qs []tasks.Question, doc []byte) []int32 {
	if codes, ok := vc.docs[string(doc)]; ok {
		return append(dst, codes...)
	}
	start := len(dst)
	var answers map[string]json.RawMessage
	json.Unmarshal(doc, &answers)
	for _, q := range qs {
		v, ok := JudgeValue(q, answers[q.Key])
		if !ok {
			dst = append(dst, -1)
			continue
		}
		dst = append(dst, vc.of(v))
	}
	if vc.docs != nil && vc.kept+len(doc) <= maxKeptBytes {
		vc.docs[string(doc)] = slices.Clone(dst[start:])
		vc.kept += len(doc)
	}
	return dst
}

// nameCodes numbers metadata values (names[0] is "").
type nameCodes struct {
	code  map[string]int32
	names []string
}

func (nc *nameCodes) of(s string) int32 {
	c, ok := nc.code[s]
	if !ok {
		c = int32(len(nc.names))
		nc.code[s], nc.names = c, append(nc.names, s)
	}
	return c
}

// judgeMeta is what the judge figures read of an item's metadata: the numbers of its
// cluster, stratum, players and system, and which option keys it lacks.
type judgeMeta struct {
	cluster, stratum, a, b, sys int32
	missing                     []string // option fields
}

// judgeTruth reads the decided items' ground truth as columns, the number of each item by
// its id, and the count of items missing each option's metadata key. A metadata document
// that repeats is read once.
func (s *Service) judgeTruth(ctx context.Context, p *workflow.Project, qs []tasks.Question, o JudgeOptions) (*judgeTruth, map[string]int32, map[string]int64, error) {
	keys := o.keys()
	missing := map[string]int64{}
	for field := range keys {
		missing[field] = 0
	}
	// note: the columns and the index at their size from the start, not grown row by row
	hint, err := s.store.CountItemsInStages(ctx, p.ID, []flow.Stage{flow.StageDone})
	if err != nil {
		return nil, nil, nil, err
	}
	n := int(hint)
	tr := &judgeTruth{codes: newValueCodes(), keys: agreement.JudgeKeys{Units: make([]string, 0, n)}, vals: make([]int32, 0, n*len(qs)),
		cluster: make([]int32, 0, n), stratum: make([]int32, 0, n), a: make([]int32, 0, n), b: make([]int32, 0, n)}
	if o.SystemKey != "" {
		tr.sys = make([]int32, 0, n)
	}
	names := &nameCodes{code: map[string]int32{}}
	names.of("")
	metas, metaBytes := map[string]*judgeMeta{}, 0
	index := make(map[string]int32, n)
	err = s.store.EachDecidedTruth(ctx, p.ID, func(r *store.DecidedTruth) error {
		if len(r.Answers) == 0 {
			return nil
		}
		index[r.ID] = int32(len(tr.keys.Units))
		jm := metas[string(r.Meta)]
		if jm == nil {
			m := workflow.MetaStrings(r.Meta)
			jm = &judgeMeta{cluster: names.of(m[o.ClusterKey]), stratum: names.of(m[o.StrataKey]),
				a: names.of(m["model_a"]), b: names.of(m["model_b"])}
			if o.SystemKey != "" {
				jm.sys = names.of(m[o.SystemKey])
			}
			for field, key := range keys {
				if _, ok := m[key]; !ok {
					jm.missing = append(jm.missing, field)
				}
			}
			if metaBytes+len(r.Meta) <= maxKeptBytes {
				metas[string(r.Meta)] = jm
				metaBytes += len(r.Meta)
			}
		}
		for _, field := range jm.missing {
			missing[field]++
		}
		tr.keys.Units = append(tr.keys.Units, r.ExternalID)
		tr.cluster, tr.stratum = append(tr.cluster, jm.cluster), append(tr.stratum, jm.stratum)
		tr.a, tr.b = append(tr.a, jm.a), append(tr.b, jm.b)
		if o.SystemKey != "" {
			tr.sys = append(tr.sys, jm.sys)
		}
		// note: each answer's value once, though a binary question is in two groups
		tr.vals = tr.codes.appendAnswers(tr.vals, qs, r.Answers)
		return nil
	})
	tr.names = names.names
	return tr, index, missing, err
}

// judgePred is one model's predictions: the code of its value of question k for item i at
// vals[i*len(qs)+k] (-1: none), and the same as judge data on the truth's keys.
type judgePred struct {
	vals []int32
	data *agreement.JudgeData
}

// judgePredictions reads every model's predictions of the decided items as value codes,
// then each model's judge data on the truth's keys, at its exact number of records.
func (s *Service) judgePredictions(ctx context.Context, p *workflow.Project, qs []tasks.Question, index map[string]int32, codes *valueCodes) (map[string]*judgePred, []string, error) {
	nq := len(qs)
	byModel := map[string]*judgePred{}
	var scratch []int32
	err := s.store.EachPredictionAnswers(ctx, p.ID, func(pr *store.PredictionAnswers) error {
		jp := byModel[string(pr.Model)]
		if jp == nil {
			jp = &judgePred{vals: make([]int32, len(index)*nq)}
			for i := range jp.vals {
				jp.vals[i] = -1
			}
			byModel[string(pr.Model)] = jp
		}
		i, ok := index[string(pr.ItemID)]
		if !ok {
			return nil
		}
		scratch = codes.appendAnswers(scratch[:0], qs, pr.Answers)
		copy(jp.vals[int(i)*nq:], scratch)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	models := make([]string, 0, len(byModel))
	for m := range byModel {
		models = append(models, m)
	}
	slices.Sort(models)
	return byModel, models, nil
}

// build sets the model's judge data on keys, its records in item order.
func (jp *judgePred) build(keys *agreement.JudgeKeys, values []string) error {
	nq := len(keys.Questions)
	n := 0
	for _, c := range jp.vals {
		n += int(c>>31 + 1) // 1 unless the code is -1
	}
	c := agreement.JudgeColumns{Keys: keys, Values: values, Unit: make([]int32, 0, n), Question: make([]int32, 0, n), Value: make([]int32, 0, n)}
	for x, v := range jp.vals {
		if v >= 0 {
			c.Unit, c.Question, c.Value = append(c.Unit, int32(x/nq)), append(c.Question, int32(x%nq)), append(c.Value, v)
		}
	}
	var err error
	jp.data, err = agreement.NewJudgeColumns(c)
	return err
}
