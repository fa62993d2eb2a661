package exports

import (
	"encoding/json"
	"errors"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// storyCriterion is one criterion: its score question and rationale.
type storyCriterion struct {
	score     tasks.Question
	rationale *tasks.Question
}

// storyCriteria finds the likert questions, each with its
// "<key>_rationale" text question when the schema has one.
func storyCriteria(s *tasks.Schema) []storyCriterion {
	var out []storyCriterion
	for _, q := range s.Questions {
		if q.Kind != tasks.KindLikert {
			continue
		}
		c := storyCriterion{score: q}
		if r, ok := commentFor(s, q.Key, "_rationale"); ok {
			c.rationale = &r
		}
		out = append(out, c)
	}
	return out
}

func fitsStoryBench(s *tasks.Schema) error {
	for _, c := range storyCriteria(s) {
		if c.rationale != nil {
			return nil
		}
	}
	return errors.New(`it needs likert criteria with a "<key>_rationale" text question`)
}

// storyTrackName is the shape of a track name usable in a path.
var storyTrackName = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// storyBenchWriter writes storybench/<split>/<track>/all_results.json, one
// JSON array per track in the layout of the Omni-StoryBench evaluation
// results: dataset_index, id, source, book, prev_key and next_key (from the
// metadata keys index, source, book, from_key, to_key), the system
// configuration, the track, a status ("ok"; "missing" when the output was
// missing, so the system answered its criteria "missing"; "incomplete"
// when a criterion has no score otherwise) and human_eval, which holds each
// criterion as {"score", "rationale"} under the paper's key, in rubric
// order ({"score": null, "status": "missing"} for a missing output), with
// "rationales" listing every accepted rationale {author, role, text} when
// consensus decided the score. The track is the item's metadata "track",
// else the template's; "integrated" is written as "joint", the
// repository's name for it.
//
// When the policy aggregates the criteria (mean, median or all: the
// paper's human means, every evaluation weighted equally and nothing
// dropped), every evaluation is a record of its own: the same fields, the
// evaluator's pseudonym under "evaluator", the scores and rationales as that
// evaluator gave them, and the item's aggregates under "item_aggregates".
//
// Next to each all_results.json, summary.json reports the paper's two
// averages per criterion and for the Total Average (the mean of an
// example's criteria, averaged over examples): valid-only (over the records
// with every criterion scored) and zero-filled (a missing or unscored
// record counts 0, over every record), with the counts behind them, and
// the track's ordinal Krippendorff's α pooled over its criteria (one unit per
// item and criterion, every evaluator's score), as the paper reports it.
type storyBenchWriter struct {
	env      *env
	criteria []storyCriterion
	arrays   *arrayFiles
	sums     map[string]*storySummary
}

func openStoryBench(env *env) (writer, error) {
	return &storyBenchWriter{env: env, criteria: storyCriteria(&env.rel.Schema), arrays: newArrayFiles(env, "storybench"),
		sums: map[string]*storySummary{}}, nil
}

func (w *storyBenchWriter) leaves(e *entry) (string, string) { return groundTruthOnly(e) }

func (w *storyBenchWriter) write(e *entry) error {
	if kind, _ := w.leaves(e); kind != "" {
		return nil
	}
	track, err := w.track(e)
	if err != nil {
		return err
	}
	dir := "storybench/" + e.Split + "/" + track + "/"
	w.summary(dir).rate(w.criteria, e)
	if w.perEvaluation(e) {
		return w.writeEvaluations(e, track, dir)
	}
	r := w.head(e, track)
	eval, status := w.evaluation(e)
	r.add("status", status)
	r.add("human_eval", eval)
	w.summary(dir).add(w.criteria, answeredScores(w.criteria, e), status)
	return w.arrays.add(dir+"all_results.json", r)
}

// head is the start of a record: the item, its system and track.
func (w *storyBenchWriter) head(e *entry, track string) obj {
	var r obj
	if idx, ok := e.Meta["index"]; ok {
		r.add("dataset_index", json.RawMessage(idx))
	}
	r.add("id", itemKey(e))
	for _, k := range [][2]string{{"source", "source"}, {"book", "book"}, {"from_key", "prev_key"}, {"to_key", "next_key"}} {
		if v, ok := metaString(e.Meta, k[0]); ok {
			r.add(k[1], v)
		}
	}
	if in, ok := w.env.rel.Schema.Input("system"); ok {
		r.add("system", inputValue(in, e.Inputs[in.Name]))
	}
	r.add("track", track)
	return r
}

// perEvaluation reports whether the item's criteria are aggregated over its evaluations (the
// paper's human means: every evaluation weighted equally, nothing dropped) rather than decided:
// then every evaluation is a record of its own.
func (w *storyBenchWriter) perEvaluation(e *entry) bool {
	for _, c := range w.criteria {
		if Aggregated(e.Aggregates[c.score.Key].Rule) {
			return len(countedLabels(e.Labels, e.Reviews)) > 0
		}
	}
	return false
}

// writeEvaluations writes one record per evaluation of the item (its accepted labels, a
// reviewer's correction in place of its label), with its evaluator's pseudonym, each criterion's score and rationale as that evaluator gave them, and the
// item's aggregates beside them.
func (w *storyBenchWriter) writeEvaluations(e *entry, track, dir string) error {
	for _, l := range countedLabels(e.Labels, e.Reviews) {
		r := w.head(e, track)
		r.add("evaluator", l.Annotator)
		var eval obj
		scores := map[string]int64{}
		status := "ok"
		for _, c := range w.criteria {
			if slices.Contains(e.missing, c.score.Key) {
				eval.add(c.score.Key, obj{{"score", nil}, {"status", tasks.AnswerMissing}})
				status = tasks.AnswerMissing
				continue
			}
			var score int64
			if json.Unmarshal(l.Answers[c.score.Key], &score) != nil || tasks.IsMissing(l.Answers[c.score.Key]) {
				status = ifStr(status == "ok", "incomplete", status)
				continue
			}
			scores[c.score.Key] = score
			sr := obj{{"score", score}}
			if c.rationale != nil {
				var text string
				json.Unmarshal(l.Answers[c.rationale.Key], &text)
				sr.add("rationale", text)
			}
			eval.add(c.score.Key, sr)
		}
		r.add("status", status)
		r.add("human_eval", eval)
		r.add("item_aggregates", e.Aggregates)
		w.summary(dir).add(w.criteria, scores, status)
		if err := w.arrays.add(dir+"all_results.json", r); err != nil {
			return err
		}
	}
	return nil
}

// answeredScores are the ground truth's criterion scores.
func answeredScores(cs []storyCriterion, e *entry) map[string]int64 {
	out := map[string]int64{}
	for _, c := range cs {
		if score, ok := e.answered[c.score.Key].(int64); ok {
			out[c.score.Key] = score
		}
	}
	return out
}

// summary returns the running summary of one results directory.
func (w *storyBenchWriter) summary(dir string) *storySummary {
	s, ok := w.sums[dir]
	if !ok {
		s = &storySummary{sum: map[string]float64{}, scored: map[string]int{}}
		w.sums[dir] = s
	}
	return s
}

// evaluation returns the {"score", "rationale"} objects and the record's
// status: ok, missing or incomplete.
func (w *storyBenchWriter) evaluation(e *entry) (obj, string) {
	var eval obj
	status := "ok"
	for _, c := range w.criteria {
		if slices.Contains(e.missing, c.score.Key) {
			eval.add(c.score.Key, obj{{"score", nil}, {"status", tasks.AnswerMissing}})
			status = tasks.AnswerMissing
			continue
		}
		score, ok := e.answered[c.score.Key].(int64)
		if !ok {
			status = ifStr(status == "ok", "incomplete", status)
			continue
		}
		var sr obj
		sr.add("score", score)
		if c.rationale != nil {
			sr.add("rationale", rationaleOf(e, c.rationale.Key))
			if ts := e.Texts[c.rationale.Key]; len(ts) > 0 && answeredString(e, c.rationale.Key) == "" {
				sr.add("rationales", ts)
			}
		}
		eval.add(c.score.Key, sr)
	}
	return eval, status
}

// rationaleOf is the ground truth's text for key, else the first accepted
// text kept with it, else "".
func rationaleOf(e *entry, key string) string {
	if s := answeredString(e, key); s != "" {
		return s
	}
	if ts := e.Texts[key]; len(ts) > 0 {
		return ts[0].Text
	}
	return ""
}

// storySummary accumulates one results directory's averages.
type storySummary struct {
	records, valid, missing int
	total                   float64 // sum over valid records of their criterion mean
	sum                     map[string]float64
	scored                  map[string]int
	// ratings are every evaluator's criterion scores, one unit per item and criterion: the
	// paper's agreement per track, ordinal Krippendorff's α pooled over the four criteria
	// (Table 21).
	ratings *agreement.Builder
}

// rate adds an item's evaluations to the pooled agreement.
func (s *storySummary) rate(cs []storyCriterion, e *entry) {
	for _, l := range countedLabels(e.Labels, e.Reviews) {
		for _, c := range cs {
			var score int64
			if json.Unmarshal(l.Answers[c.score.Key], &score) != nil {
				continue // note: missing or unanswered: no rating
			}
			if s.ratings == nil {
				s.ratings = agreement.NewBuilder(agreement.Ordinal, 0)
			}
			s.ratings.Add(e.ID+"\x00"+c.score.Key, l.Annotator, strconv.FormatInt(score, 10))
		}
	}
}

// pooledAlpha is the ordinal α over every item and criterion; nil when it is not defined (no
// unit with two ratings, or no variation).
func (s *storySummary) pooledAlpha() any {
	if s.ratings == nil {
		return nil
	}
	t, err := s.ratings.Build()
	if err != nil {
		return nil
	}
	a, err := agreement.AlphaLevel(t, agreement.Ordinal)
	if err != nil || math.IsNaN(a) || math.IsInf(a, 0) {
		return nil
	}
	return math.Round(a*1e4) / 1e4
}

// add counts one record with its criterion scores.
func (s *storySummary) add(cs []storyCriterion, scores map[string]int64, status string) {
	s.records++
	if status == tasks.AnswerMissing {
		s.missing++
	}
	var rec float64
	for _, c := range cs {
		if score, ok := scores[c.score.Key]; ok {
			s.sum[c.score.Key] += float64(score)
			s.scored[c.score.Key]++
			rec += float64(score)
		}
	}
	if status == "ok" && len(cs) > 0 {
		s.valid++
		s.total += rec / float64(len(cs))
	}
}

// value is the summary object.
func (s *storySummary) value(cs []storyCriterion) obj {
	avg := func(sum float64, n int) any {
		if n == 0 {
			return nil
		}
		return math.Round(sum/float64(n)*1e4) / 1e4
	}
	var crit obj
	for _, c := range cs {
		k := c.score.Key
		crit.add(k, obj{{"scored", s.scored[k]}, {"valid_only", avg(s.sum[k], s.scored[k])}, {"zero_filled", avg(s.sum[k], s.records)}})
	}
	return obj{{"records", s.records}, {"valid", s.valid}, {"missing", s.missing}, {"incomplete", s.records - s.valid - s.missing},
		{"total_average", obj{{"valid_only", avg(s.total, s.valid)}, {"zero_filled", avg(s.total, s.records)}}},
		{"criteria", crit}, {"krippendorff_alpha_ordinal_pooled", s.pooledAlpha()}}
}

// track names the item's track.
func (w *storyBenchWriter) track(e *entry) (string, error) {
	t, ok := metaString(e.Meta, "track")
	if !ok {
		t = templateSuffix(w.env.rel.Template, "storybench-")
	}
	switch {
	case t == "":
		t = "default"
	case t == "integrated":
		t = "joint"
	case !storyTrackName.MatchString(t):
		return "", recordErr(e.ID, e.ExternalID, "meta.track", tasks.CodeInvalidValue, "track %q cannot name a directory", t)
	}
	return t, nil
}

func (w *storyBenchWriter) close() error {
	if err := w.arrays.close(); err != nil {
		return err
	}
	for _, dir := range slices.Sorted(maps.Keys(w.sums)) {
		f, err := w.env.files.create(dir+"summary.json", "storybench")
		if err != nil {
			return err
		}
		b := appendJSON(nil, w.sums[dir].value(w.criteria))
		if _, err := f.Write(append(b, '\n')); err != nil {
			return err
		}
		f.record()
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
