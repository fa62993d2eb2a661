package tasks

import (
	"slices"
	"strings"
)

// rubricVariants names the templates offered also one rubric at a time, as
// Judge Anything's annotators worked (one rubric per pass, the overall
// judgment last), and the id of that variant.
var rubricVariants = map[string]string{
	"judgeanything-score": "judgeanything-score-by-rubric",
	"judgeanything-pair":  "judgeanything-pair-by-rubric",
}

// commentSuffix marks the free-text question that goes with a rubric's score.
const commentSuffix = "_comment"

// byRubric returns t asked in passes: one per scored question together with
// its comment, every input shown in each, rubrics first and "overall" last.
// t must be a fresh copy; it is changed.
func byRubric(t Template, id string) Template {
	t.ID = id
	t.Name += ", one rubric at a time"
	t.Description += " Asked in passes, one rubric per pass and the overall judgment last."
	t.Guidelines += "\nThis variant asks one rubric at a time: each pass shows one rubric and its comment, and a " +
		"submitted pass cannot be changed. The overall judgment comes last, after every rubric.\n"
	inputs := make([]string, len(t.Schema.Inputs))
	for i, in := range t.Schema.Inputs {
		inputs[i] = in.Name
	}
	var passes []Pass
	for _, q := range t.Schema.Questions {
		if strings.HasSuffix(q.Key, commentSuffix) {
			continue
		}
		keys := []string{q.Key}
		if _, ok := t.Schema.Question(q.Key + commentSuffix); ok {
			keys = append(keys, q.Key+commentSuffix)
		}
		passes = append(passes, Pass{Key: q.Key, Label: q.Label, Inputs: slices.Clone(inputs), Questions: keys})
	}
	slices.SortStableFunc(passes, func(a, b Pass) int {
		return boolOrder(a.Key == "overall") - boolOrder(b.Key == "overall")
	})
	t.Schema.Passes = passes
	return t
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}
