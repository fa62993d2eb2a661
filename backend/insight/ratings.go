package insight

import (
	"encoding/json"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// SetSeparator joins the options of a multi-choice answer into one agreement value.
const SetSeparator = tasks.SetSeparator

// Rating is one agreement value of an answer, on the item (UnitSuffix "") or on one of its
// sub-units: a checklist sub-item or a ranked option ("/key").
type Rating = tasks.Rating

// AnswerRatings reads an answer as agreement values (the kind's Ratings). Binary answers are
// "satisfied" or "not_satisfied" after the question's polarity and N/A mapping (an unmapped
// N/A gives none), or with rawBinary the answer itself; answers that do not decode give none.
func AnswerRatings(q tasks.Question, raw json.RawMessage, rawBinary bool) []Rating {
	mode := tasks.RatingsAnalysed
	if rawBinary && q.Kind == tasks.KindBinary {
		mode = tasks.RatingsAnswered
	}
	return tasks.KindOf(q).Ratings(raw, mode)
}

// agreementLevel is a question's level of measurement for agreement; ok is false for
// questions without one (free text, criteria).
func agreementLevel(q tasks.Question) (agreement.Level, bool) {
	l, err := agreement.ParseLevel(string(tasks.KindOf(q).Level()))
	return l, err == nil
}

// alphaOf is Krippendorff's alpha of a question's table: with the MASI set distance for
// multi-choice answers, at the table's level otherwise.
func alphaOf(q tasks.Question) func(*agreement.Table) (float64, error) {
	if tasks.KindOf(q).Distance() == tasks.DistanceMASI {
		return func(t *agreement.Table) (float64, error) {
			return agreement.AlphaDistance(t, agreement.SetDistance(t, SetSeparator, agreement.MASI))
		}
	}
	return agreement.Alpha
}
