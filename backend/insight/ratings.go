package insight

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// SetSeparator joins the options of a multi-choice answer into one agreement value.
const SetSeparator = "\x1f"

// Rating is one agreement value of an answer, on the item (UnitSuffix "") or on one of its
// sub-units: a checklist sub-item or a ranked option ("/key").
type Rating struct{ UnitSuffix, Value string }

// AnswerRatings reads an answer as agreement values. Binary answers are "satisfied" or
// "not_satisfied" after the question's polarity and N/A mapping (an unmapped N/A gives none),
// or with raw the answer itself; answers that do not decode give none.
func AnswerRatings(q tasks.Question, raw json.RawMessage, rawBinary bool) []Rating {
	if tasks.IsMissing(raw) {
		return nil // note: the system's "missing" (no output to rate) is no rating
	}
	switch q.Kind {
	case tasks.KindListEdit:
		list, err := tasks.EditedList(raw)
		if err != nil {
			return nil
		}
		b, _ := json.Marshal(list)
		return []Rating{{"", string(b)}} // note: one nominal value, the list it leaves
	case tasks.KindChecklist:
		var m map[string]int64
		json.Unmarshal(raw, &m)
		out := make([]Rating, 0, len(m))
		for k, v := range m {
			out = append(out, Rating{"/" + k, strconv.FormatInt(v, 10)})
		}
		return out
	case tasks.KindRanking:
		var order []string
		json.Unmarshal(raw, &order)
		out := make([]Rating, 0, len(order))
		for i, o := range order {
			out = append(out, Rating{"/" + o, strconv.Itoa(i + 1)})
		}
		return out
	case tasks.KindMultiChoice:
		var set []string
		if json.Unmarshal(raw, &set) != nil {
			return nil
		}
		slices.Sort(set)
		return []Rating{{"", strings.Join(set, SetSeparator)}}
	case tasks.KindLikert:
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return []Rating{{"", strconv.FormatInt(n, 10)}}
		}
		return nil
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	if q.Kind == tasks.KindBinary && !rawBinary {
		switch q.Satisfied(v) {
		case tasks.Satisfied:
			return []Rating{{"", "satisfied"}}
		case tasks.NotSatisfied:
			return []Rating{{"", "not_satisfied"}}
		}
		return nil
	}
	return []Rating{{"", v}}
}

// agreementLevel is a question's level of measurement for agreement; ok is false for
// questions without one (free text, criteria).
func agreementLevel(q tasks.Question) (agreement.Level, bool) {
	l, err := agreement.ParseLevel(string(q.MeasurementLevel()))
	return l, err == nil
}

// alphaOf is Krippendorff's alpha of a question's table: with the MASI set distance for
// multi-choice answers, at the table's level otherwise.
func alphaOf(q tasks.Question) func(*agreement.Table) (float64, error) {
	if q.Kind == tasks.KindMultiChoice {
		return func(t *agreement.Table) (float64, error) {
			return agreement.AlphaDistance(t, agreement.SetDistance(t, SetSeparator, agreement.MASI))
		}
	}
	return agreement.Alpha
}
