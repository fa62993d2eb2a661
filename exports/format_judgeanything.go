package exports

import (
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// judgeAnythingChoice maps a canonical pairwise answer to the Judge
// Anything choice code: 0 first better, 1 tie, 2 second better.
var judgeAnythingChoice = map[string]int{tasks.AnswerA: 0, tasks.AnswerTie: 1, tasks.AnswerB: 2}

// judgeAnythingSetup is what a schema offers the format: the candidates
// input and the rubric questions (likert for score evaluation over one
// response, pairwise for pair comparison over two).
type judgeAnythingSetup struct {
	responses tasks.Input
	pair      bool
	rubrics   []tasks.Question
}

func judgeAnythingOf(s *tasks.Schema) (judgeAnythingSetup, error) {
	var js judgeAnythingSetup
	for _, in := range s.Inputs {
		if in.Type == tasks.InputCandidates && (in.Count == 1 || in.Count == 2) {
			js.responses, js.pair = in, in.Count == 2
			break
		}
	}
	if js.responses.Name == "" {
		return js, errors.New("it needs a candidates input with one response (score) or two (pair)")
	}
	want := tasks.KindLikert
	if js.pair {
		want = tasks.KindPairwise
	}
	for _, q := range s.Questions {
		if q.Kind == want {
			js.rubrics = append(js.rubrics, q)
		}
	}
	if len(js.rubrics) == 0 {
		return js, errors.New("it needs likert rubrics over one response or pairwise rubrics over two")
	}
	return js, nil
}

func fitsJudgeAnything(s *tasks.Schema) error {
	_, err := judgeAnythingOf(s)
	return err
}

// judgeAnythingWriter writes, per split under judgeanything/<split>/, the
// files of the Judge Anything repository: TaskAnything.json (queries:
// uniq_id, task_name, question, image_path, audio_path, video_path),
// JudgeAnything.json (responses: uniq_id, response_id, task_name,
// model_name, response {type, content}), checklist.json (uniq_id, rubric,
// checklists; when a person refined the drafted checklist before labeling,
// also drafted, entries [{text, origin drafted|reworded|added, drafted}],
// dropped and refined_by) when items carry a checklist, and the human
// judgments:
// Human_Scoring.json rows {uniq_id, task_name, model_name, response_id,
// rubric_name, score 1-5, comment, comments} or Human_Pairing.json rows
// {uniq_id, task_name, model_pair, response_ids, rubric_name, choice
// 0|1|2, comment, comments}. comment is the rubric's "<key>_comment" as the
// repository's rows carry it: the adjudicator's when adjudicated, else that
// of an annotator whose label gave the released answer; comments lists every
// comment kept with the ground truth, [{author, role, text}] (the
// adjudicator's first, then every annotator's), so no annotator's comment
// is lost to a consensus decision.
// The query id is the item's metadata "uniq_id" (so the items of one query
// share it), else its external id; the task category is metadata
// "task_name", else inferred from the input and response types. Queries,
// responses and checklists are written once per split.
type judgeAnythingWriter struct {
	env    *env
	setup  judgeAnythingSetup
	arrays *arrayFiles
	seen   seenSet
}

func openJudgeAnything(env *env) (writer, error) {
	js, err := judgeAnythingOf(&env.rel.Schema)
	if err != nil {
		return nil, err
	}
	return &judgeAnythingWriter{env: env, setup: js, arrays: newArrayFiles(env, "judgeanything"), seen: seenSet{}}, nil
}

func (w *judgeAnythingWriter) leaves(e *entry) (string, string) { return groundTruthOnly(e) }

func (w *judgeAnythingWriter) write(e *entry) error {
	if kind, _ := w.leaves(e); kind != "" {
		return nil
	}
	cands := e.candidates(w.setup.responses.Name)
	if len(cands) != w.setup.responses.Count {
		return recordErr(e.ID, e.ExternalID, "inputs."+w.setup.responses.Name, tasks.CodeOutOfRange,
			"judgeanything needs %d response(s)", w.setup.responses.Count)
	}
	dir := "judgeanything/" + e.Split + "/"
	uid, _ := metaString(e.Meta, "uniq_id")
	if uid == "" {
		uid = itemKey(e)
	}
	task, _ := metaString(e.Meta, "task_name")
	if task == "" {
		task = w.inferTask(e, cands[0])
	}
	if err := w.writeQuery(dir, e, uid, task); err != nil {
		return err
	}
	for _, c := range cands {
		if err := w.writeResponse(dir, uid, task, c); err != nil {
			return err
		}
	}
	return w.writeJudgments(dir, e, uid, task, cands)
}

// writeQuery writes the query record and its checklists once.
func (w *judgeAnythingWriter) writeQuery(dir string, e *entry, uid, task string) error {
	if !w.seen.first(dir, "query", uid) {
		return nil
	}
	var q obj
	q.add("uniq_id", uid)
	q.add("task_name", task)
	for _, in := range w.env.rel.Schema.Inputs {
		v := inputValue(in, e.Inputs[in.Name])
		switch {
		case v == nil:
		case in.Type == tasks.InputText && in.Name == "question":
			q.add("question", v)
		case in.Type == tasks.InputImage || in.Type == tasks.InputImageList:
			if paths, ok := v.([]string); ok && len(paths) == 1 {
				v = paths[0]
			}
			q.add("image_path", v)
		case in.Type == tasks.InputAudio:
			q.add("audio_path", v)
		case in.Type == tasks.InputVideo:
			q.add("video_path", v)
		}
	}
	if err := w.arrays.add(dir+"TaskAnything.json", q); err != nil {
		return err
	}
	return w.writeChecklists(dir, e, uid)
}

// writeChecklists writes the item's checklist input ({rubric: [items]}).
func (w *judgeAnythingWriter) writeChecklists(dir string, e *entry, uid string) error {
	in, ok := w.env.rel.Schema.Input("checklist")
	if !ok || in.Type != tasks.InputJSON || isNull(e.Inputs[in.Name]) {
		return nil
	}
	var lists map[string][]string
	if err := json.Unmarshal(e.Inputs[in.Name], &lists); err != nil {
		return recordErr(e.ID, e.ExternalID, "inputs.checklist", tasks.CodeInvalidType, "expected {rubric: [items]}: %v", err)
	}
	for _, rubric := range slices.Sorted(maps.Keys(lists)) {
		var c obj
		c.add("uniq_id", uid)
		c.add("rubric", rubric)
		c.add("checklists", lists[rubric])
		if r := refinementOf(e, in.Name, rubric); r != nil {
			c.add("drafted", r.Drafted)
			c.add("entries", r.Entries)
			c.add("dropped", r.Dropped)
			c.add("refined_by", r.By)
		}
		if err := w.arrays.add(dir+"checklist.json", c); err != nil {
			return err
		}
	}
	return nil
}

// refinementOf is the refinement of the list under key of input, nil when it was not refined.
func refinementOf(e *entry, input, key string) *Refinement {
	for i, r := range e.Refinements {
		if r.Input == input && r.Key == key {
			return &e.Refinements[i]
		}
	}
	return nil
}

// writeResponse writes a response record once.
func (w *judgeAnythingWriter) writeResponse(dir, uid, task string, c tasks.Candidate) error {
	if !w.seen.first(dir, "response", uid, c.ID) {
		return nil
	}
	var content obj
	content.add("type", judgeAnythingType(c.Type))
	content.add("content", candidateValue(c))
	var r obj
	r.add("uniq_id", uid)
	r.add("response_id", c.ID)
	r.add("task_name", task)
	r.add("model_name", candidateModel(c))
	r.add("response", content)
	return w.arrays.add(dir+"JudgeAnything.json", r)
}

// writeJudgments writes one row per answered rubric.
func (w *judgeAnythingWriter) writeJudgments(dir string, e *entry, uid, task string, cands []tasks.Candidate) error {
	s := &w.env.rel.Schema
	file := dir + "Human_Scoring.json"
	if w.setup.pair {
		file = dir + "Human_Pairing.json"
	}
	for _, q := range w.setup.rubrics {
		var r obj
		r.add("uniq_id", uid)
		r.add("task_name", task)
		if w.setup.pair {
			choice, ok := judgeAnythingChoice[answeredString(e, q.Key)]
			if !ok {
				continue
			}
			r.add("model_pair", candidateModel(cands[0])+"_vs_"+candidateModel(cands[1]))
			r.add("response_ids", []string{cands[0].ID, cands[1].ID})
			r.add("rubric_name", judgeAnythingRubric(q.Key))
			r.add("choice", choice)
		} else {
			score, ok := e.answered[q.Key].(int64)
			if !ok {
				continue
			}
			r.add("model_name", candidateModel(cands[0]))
			r.add("response_id", cands[0].ID)
			r.add("rubric_name", judgeAnythingRubric(q.Key))
			r.add("score", score)
		}
		comment, comments := "", []TextAnswer{}
		if cq, ok := commentFor(s, q.Key, "_comment"); ok {
			comment = judgeAnythingComment(e, q.Key, cq.Key)
			if ts := e.Texts[cq.Key]; len(ts) > 0 {
				comments = ts
			}
		}
		r.add("comment", comment)
		r.add("comments", comments)
		if err := w.arrays.add(file, r); err != nil {
			return err
		}
	}
	return nil
}

// judgeAnythingComment is the comment on the released judgment: the adjudicator's when
// adjudicated (empty when they wrote none); otherwise the ground truth's own, else the first
// kept comment of an annotator whose label gave the released answer, else the first kept.
func judgeAnythingComment(e *entry, key, commentKey string) string {
	if s := answeredString(e, commentKey); s != "" || e.Provenance.Kind == ProvAdjudicated {
		return s
	}
	ts := e.Texts[commentKey]
	for _, t := range ts {
		for _, l := range e.Labels {
			if l.Annotator == t.Author && sameJSON(l.Answers[key], e.Answers[key]) {
				return t.Text
			}
		}
	}
	if len(ts) > 0 {
		return ts[0].Text
	}
	return ""
}

// sameJSON reports whether two JSON values are equal as values.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// judgeAnythingRubric names a rubric as the repository does: the overall
// judgment is "overall_score", the rubrics keep their keys.
func judgeAnythingRubric(key string) string {
	if key == "overall" {
		return "overall_score"
	}
	return key
}

// judgeAnythingType is the response type word: text, image, audio, video.
func judgeAnythingType(t tasks.InputType) string {
	switch t {
	case tasks.InputMarkdown:
		return "text"
	case tasks.InputImageList:
		return "image"
	}
	return string(t)
}

// inferTask names the task category from the query media and the response
// type, as "Image2Text" or "AudioVideo2Text".
func (w *judgeAnythingWriter) inferTask(e *entry, first tasks.Candidate) string {
	has := map[tasks.InputType]bool{}
	for _, def := range w.env.rel.Schema.Inputs {
		if !isNull(e.Inputs[def.Name]) {
			has[def.Type] = true
		}
	}
	in := "Text"
	switch {
	case has[tasks.InputVideo] && has[tasks.InputAudio]:
		in = "AudioVideo"
	case has[tasks.InputVideo]:
		in = "Video"
	case has[tasks.InputAudio]:
		in = "Audio"
	case has[tasks.InputImage] || has[tasks.InputImageList]:
		in = "Image"
	}
	out := judgeAnythingType(first.Type)
	return in + "2" + strings.ToUpper(out[:1]) + out[1:]
}

func (w *judgeAnythingWriter) close() error { return w.arrays.close() }
