package exports

import (
	"encoding/json"
	"errors"
	"regexp"

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
// configuration, the track, a status ("ok", or "incomplete" when a
// criterion has no score) and human_eval, which holds each criterion as
// {"score", "rationale"} under the paper's key, in rubric order. The track
// is the item's metadata "track", else the template's; "integrated" is
// written as "joint", the repository's name for it.
type storyBenchWriter struct {
	env      *env
	criteria []storyCriterion
	arrays   *arrayFiles
}

func openStoryBench(env *env) (writer, error) {
	return &storyBenchWriter{env: env, criteria: storyCriteria(&env.rel.Schema), arrays: newArrayFiles(env, "storybench")}, nil
}

func (w *storyBenchWriter) write(e *entry) error {
	if !e.resolved() {
		return nil
	}
	track, err := w.track(e)
	if err != nil {
		return err
	}
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
	eval, complete := w.evaluation(e)
	r.add("status", ifStr(complete, "ok", "incomplete"))
	r.add("human_eval", eval)
	return w.arrays.add("storybench/"+e.Split+"/"+track+"/all_results.json", r)
}

// evaluation returns the {"score", "rationale"} objects and whether every
// criterion was scored.
func (w *storyBenchWriter) evaluation(e *entry) (obj, bool) {
	var eval obj
	complete := true
	for _, c := range w.criteria {
		score, ok := e.answered[c.score.Key].(int64)
		if !ok {
			complete = false
			continue
		}
		var sr obj
		sr.add("score", score)
		if c.rationale != nil {
			sr.add("rationale", answeredString(e, c.rationale.Key))
		}
		eval.add(c.score.Key, sr)
	}
	return eval, complete
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

func (w *storyBenchWriter) close() error { return w.arrays.close() }
