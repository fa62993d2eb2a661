package releases

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The project's agreement in a release is computed over a bounded sample, so that a release
// of a million items neither holds a million items' labels nor bootstraps them: the first
// agreementItems items (by id, that is in import order) that have two or more accepted labels,
// in any stage. Intervals come from agreementReplicates bootstrap replicates with a fixed seed,
// so the same project state gives the same figures.
const (
	agreementItems      = 2000
	agreementReplicates = 1000
	agreementSeed       = 20260301
	setSeparator        = insight.SetSeparator
)

// projectAgreement is Krippendorff's alpha per question (with its interval and the full
// report) over the sampled items. Raters are named by their release pseudonyms. Binary answers
// count as "requirement satisfied or not" (N/A mapped as the question says, else missing);
// checklist sub-items and ranked options are pooled as units of their question.
func (s *Service) projectAgreement(ctx context.Context, fp *workflow.Project, salt []byte) ([]exports.QuestionAgreement, string, error) {
	ids, err := s.store.MultiLabelItems(ctx, fp.ID, 2, agreementItems)
	if err != nil || len(ids) == 0 {
		return nil, "", err
	}
	scope := fmt.Sprintf("the %d items of the project with two or more accepted labels", len(ids))
	if len(ids) == agreementItems {
		scope = fmt.Sprintf("the project's first %d items (in import order) with two or more accepted labels", len(ids))
	}
	tables := newRatingTables(fp.Schema)
	names := map[string]string{}
	for start := 0; start < len(ids); start += pageSize {
		work, err := s.store.SubmittedWork(ctx, ids[start:min(start+pageSize, len(ids))])
		if err != nil {
			return nil, "", err
		}
		for _, a := range work {
			if a.Stage != flow.StageLabel || a.Status != flow.AssignSubmitted {
				continue
			}
			if names[a.UserID] == "" {
				names[a.UserID] = exports.Pseudonym(salt, a.UserID)
			}
			tables.add(a.ItemID, names[a.UserID], labelAnswers(a.Answers, a.Effective))
		}
	}
	qa, err := tables.reports(fp.Schema)
	return qa, scope, err
}

func labelAnswers(answers, effective []byte) tasks.Answers {
	src := answers
	if len(effective) > 0 {
		src = effective
	}
	var a tasks.Answers
	json.Unmarshal(src, &a)
	return a
}

// questionTable is one question's ratings.
type questionTable struct {
	q tasks.Question
	b *agreement.Builder
}

// ratingTables holds a table builder per question that has a level of measurement.
type ratingTables map[string]*questionTable

func newRatingTables(schema *tasks.Schema) ratingTables {
	out := ratingTables{}
	for _, q := range schema.Questions {
		level, err := agreement.ParseLevel(string(q.MeasurementLevel()))
		if err != nil {
			continue // free text and criteria
		}
		out[q.Key] = &questionTable{q: q, b: agreement.NewBuilder(level, 0)}
	}
	return out
}

// add adds one label's answers.
func (t ratingTables) add(item, rater string, answers tasks.Answers) {
	for key, raw := range answers {
		qt := t[key]
		if qt == nil {
			continue
		}
		for _, r := range insight.AnswerRatings(qt.q, raw, false) {
			qt.b.Add(item+r.UnitSuffix, rater, r.Value)
		}
	}
}

// reports summarises each question's table in schema order, with a bootstrap interval for
// alpha; a question without two ratings of one unit has no figure.
func (t ratingTables) reports(schema *tasks.Schema) ([]exports.QuestionAgreement, error) {
	var out []exports.QuestionAgreement
	for _, q := range schema.Questions {
		qt := t[q.Key]
		if qt == nil {
			continue
		}
		tab, err := qt.b.Build()
		if err != nil {
			continue
		}
		opts := agreement.ReportOptions{}
		// note: alpha reads only the table's counts, so its replicates add up precomputed
		// counts (BootstrapCounts); set distances read the values, so MASI resamples tables
		alpha, bootstrap := agreement.Alpha, agreement.BootstrapCounts
		if tasks.KindOf(q).Distance() == tasks.DistanceMASI {
			bootstrap = agreement.Bootstrap
			opts.SetSeparator, opts.SetMetric = setSeparator, agreement.MASI
			alpha = func(t *agreement.Table) (float64, error) {
				return agreement.AlphaDistance(t, agreement.SetDistance(t, setSeparator, agreement.MASI))
			}
		}
		rep, err := agreement.Summarize(tab, opts)
		if err != nil {
			return nil, err
		}
		cis, err := bootstrap(tab, []func(*agreement.Table) (float64, error){alpha},
			agreement.BootstrapOptions{Replicates: agreementReplicates, Seed: agreementSeed})
		if err == nil && len(cis) == 1 && cis[0].Replicates > 0 {
			rep.CI95 = map[string]*agreement.CI{"krippendorff_alpha": &cis[0]}
		}
		out = append(out, exports.QuestionAgreementFrom(q.Key, rep))
	}
	return out, nil
}
