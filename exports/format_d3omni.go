package exports

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// d3omniTasks names a task after the media input type when the project
// does not follow a D3-Omni template.
var d3omniTasks = map[tasks.InputType]string{tasks.InputImage: "t2i", tasks.InputVideo: "t2v", tasks.InputAudio: "tts"}

// fitsD3Omni needs binary dimensions and one media input to judge.
func fitsD3Omni(s *tasks.Schema) error {
	if len(d3omniDimensions(s)) == 0 {
		return errors.New("it needs binary (Yes/No) dimensions")
	}
	if _, ok := d3omniMedia(s); !ok {
		return errors.New("it needs an image, video or audio input to judge")
	}
	return nil
}

// d3omniDimensions returns the binary questions in rubric order: by Index
// when set, schema order otherwise.
func d3omniDimensions(s *tasks.Schema) []tasks.Question {
	var dims []tasks.Question
	for _, q := range s.Questions {
		if q.Kind == tasks.KindBinary {
			dims = append(dims, q)
		}
	}
	slices.SortStableFunc(dims, func(a, b tasks.Question) int {
		if a.Index == 0 || b.Index == 0 {
			return 0
		}
		return a.Index - b.Index
	})
	return dims
}

// d3omniMedia is the first visible image, video or audio input.
func d3omniMedia(s *tasks.Schema) (tasks.Input, bool) {
	for _, in := range s.Inputs {
		if _, ok := d3omniTasks[in.Type]; ok && !in.Hidden {
			return in, true
		}
	}
	return tasks.Input{}, false
}

// d3omniWriter writes d3omni/<task>_rubric.json and, per split,
// d3omni/<split>/<task>.jsonl: the id, the task, the item's language (its
// BCP 47 tag, null without one: the benchmark is judged in English and
// Chinese, and one file holds both), the prompt fields, the media path, the
// ["Yes", "No", ...] array in the rubric's dimension order, the 0/1 vector,
// the total score and the item's metadata (seed id, is_seed, flip set,
// operator: the seed/negative relation). Yes means the requirement is
// satisfied: defect-phrased questions and N/A are normalised first.
//
// The schema's hidden inputs (the generator) are written only with option
// hidden_inputs: the benchmark's records carry none. A seed (metadata
// is_seed true) whose ground truth is not Yes on every dimension is left
// out, as the benchmark admits only all-Yes seeds; items a blind spot check
// rejected never reach the format (see Record.SpotCheck).
type d3omniWriter struct {
	env   *env
	task  string
	dims  []tasks.Question
	media tasks.Input
	lines *lineFiles
}

func openD3Omni(env *env) (writer, error) {
	s := &env.rel.Schema
	media, _ := d3omniMedia(s)
	task := templateSuffix(env.rel.Template, "d3omni-")
	if task == "" {
		task = d3omniTasks[media.Type]
	}
	w := &d3omniWriter{env: env, task: task, dims: d3omniDimensions(s), media: media, lines: newLineFiles(env, "d3omni")}
	return w, w.writeRubric()
}

// writeRubric writes the dimension order once.
func (w *d3omniWriter) writeRubric() error {
	f, err := w.env.files.create("d3omni/"+w.task+"_rubric.json", "d3omni")
	if err != nil {
		return err
	}
	dims := make([]obj, 0, len(w.dims))
	for i, q := range w.dims {
		var d obj
		d.add("position", i+1)
		d.add("index", q.Index)
		d.add("key", q.Key)
		d.add("name", q.Label)
		d.add("short_label", q.ShortLabel)
		d.add("category", q.Group)
		d.add("question_polarity", string(orDefault(q.YesMeans, tasks.YesMeansSatisfied)))
		d.add("na_means", string(orDefault(q.NAMeans, tasks.NAMissing)))
		dims = append(dims, d)
		f.record()
	}
	var doc obj
	doc.add("task", w.task)
	doc.add("label_meaning", `"Yes" = the requirement of the dimension is satisfied`)
	doc.add("dimensions", dims)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	f.Write(append(b, '\n'))
	return f.Close()
}

func orDefault[T ~string](v, def T) T {
	if v == "" {
		return def
	}
	return v
}

// leaves leaves out items without ground truth and seeds that are not
// all-Yes, naming the dimensions that are not.
func (w *d3omniWriter) leaves(e *entry) (string, string) {
	if kind, reason := groundTruthOnly(e); kind != "" {
		return kind, reason
	}
	if seed, _ := jsonBool(e.Meta["is_seed"]); !seed {
		return "", ""
	}
	var not []string
	for _, q := range w.dims {
		if e.normalized[q.Key] != true {
			not = append(not, q.Key)
		}
	}
	if len(not) == 0 {
		return "", ""
	}
	return LossSeedNotAllYes, "not Yes on " + strings.Join(not, ", ")
}

func (w *d3omniWriter) write(e *entry) error {
	if kind, _ := w.leaves(e); kind != "" {
		return nil
	}
	var r obj
	r.add("id", itemKey(e))
	r.add("task", w.task)
	r.add("language", nilIfEmpty(e.Language))
	for _, in := range w.env.rel.Schema.Inputs {
		if in.Type == tasks.InputText && !in.Hidden {
			r.add(in.Name, inputValue(in, e.Inputs[in.Name]))
		}
	}
	r.add("media_path", inputValue(w.media, e.Inputs[w.media.Name]))
	labels, vector, score := w.vector(e)
	r.add("labels", labels)
	r.add("label_vector", vector)
	r.add("total_score", score)
	r.add("num_dimensions", len(w.dims))
	for _, in := range w.env.rel.Schema.Inputs {
		if in.Hidden && w.env.spec.HiddenInputs {
			r.add(in.Name, inputValue(in, e.Inputs[in.Name]))
		}
	}
	r.add("meta", nonNil(e.Meta))
	r.add("provenance", e.Provenance.Kind)
	return w.lines.add("d3omni/"+e.Split+"/"+w.task+".jsonl", r)
}

// vector returns the Yes/No array, the 0/1 vector (null where unknown) and
// the number of satisfied dimensions.
func (w *d3omniWriter) vector(e *entry) ([]any, []any, int) {
	labels, vector := make([]any, len(w.dims)), make([]any, len(w.dims))
	score := 0
	for i, q := range w.dims {
		switch e.normalized[q.Key] {
		case true:
			labels[i], vector[i] = "Yes", 1
			score++
		case false:
			labels[i], vector[i] = "No", 0
		}
	}
	return labels, vector, score
}

func (w *d3omniWriter) close() error { return w.lines.close() }

// jsonBool reads a JSON boolean; ok is false for anything else.
func jsonBool(raw json.RawMessage) (v, ok bool) {
	return v, json.Unmarshal(raw, &v) == nil && len(raw) > 0
}
