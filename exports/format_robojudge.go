package exports

import (
	"encoding/json"
	"errors"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// roboAxis is one scored axis: the 1-5 likert question, and the checklist
// and evidence questions of its group.
type roboAxis struct {
	score     tasks.Question
	checklist *tasks.Question
	evidence  *tasks.Question
	inputs    []tasks.Input
}

// roboAxes finds the axes of a schema: every likert question, with the
// first checklist and free-text question of the same group, and the inputs
// the axis is judged on (its own inputs, or every visible input).
func roboAxes(s *tasks.Schema) []roboAxis {
	var axes []roboAxis
	for _, q := range s.Questions {
		if q.Kind != tasks.KindLikert {
			continue
		}
		a := roboAxis{score: q}
		for _, o := range s.Questions {
			if o.Group == "" || o.Group != q.Group {
				continue
			}
			switch {
			case o.Kind == tasks.KindChecklist && a.checklist == nil:
				a.checklist = &o
			case o.Kind == tasks.KindText && a.evidence == nil:
				a.evidence = &o
			}
		}
		for _, in := range s.InputsOf(q) {
			if !in.Hidden || len(q.Inputs) > 0 { // note: a hidden input is judged on only when the axis names it
				a.inputs = append(a.inputs, in)
			}
		}
		axes = append(axes, a)
	}
	return axes
}

func fitsRoboJudge(s *tasks.Schema) error {
	if len(roboAxes(s)) == 0 {
		return errors.New("it needs at least one 1-5 likert axis")
	}
	return nil
}

// roboJudgeWriter writes, per split under robojudge/<split>/:
//   - items.jsonl: one record per item with every input (media as paths),
//     each axis's score, checklist and evidence under the question keys
//     (physical_adherence, pa_checklist, pa_evidence, ...), the metadata
//     and the provenance;
//     and, when consensus decided the scores, "evidence": every accepted
//     label's evidence per evidence question, [{author, role, text}];
//     "assessments": every assessment behind the scores, in the order of
//     the paper's label → cross-review: each label as its annotator gave it
//     {author, role: "annotator", review, <axis fields>} followed by its
//     reviews {author, role: "reviewer", verdict, comment, comments, <axis
//     fields of the reviewer's answers: a correction>}; and, when an expert
//     adjudicated, "decision": {author, role: "adjudicator", rationale,
//     confidence} (the scores above are that decision);
//   - sft_<axis>.jsonl: per axis, the inputs that axis is judged on (PA sees
//     the video only, never the instruction) and the target
//     {"reasoning": <evidence>, "<axis>": <score>}, reasoning first as the
//     judge prompt asks: the ground truth's evidence (an adjudicator's), or
//     under consensus one row per counted label (a correction in place of
//     its label) whose score is the agreed score, with its evidence; items
//     without evidence and items labelled by a rule (provenance "rule": the
//     paper's real demonstrations, PA = IA = 5, which no person assessed)
//     are left out;
//   - rl.jsonl: per item and axis, the same inputs and the integer
//     reference score the exact-match reward needs.
type roboJudgeWriter struct {
	env   *env
	axes  []roboAxis
	lines *lineFiles
}

func openRoboJudge(env *env) (writer, error) {
	return &roboJudgeWriter{env: env, axes: roboAxes(&env.rel.Schema), lines: newLineFiles(env, "robojudge")}, nil
}

func (w *roboJudgeWriter) leaves(e *entry) (string, string) { return groundTruthOnly(e) }

func (w *roboJudgeWriter) write(e *entry) error {
	if kind, _ := w.leaves(e); kind != "" {
		return nil
	}
	dir := "robojudge/" + e.Split + "/"
	if err := w.lines.add(dir+"items.jsonl", w.item(e)); err != nil {
		return err
	}
	for _, a := range w.axes {
		score, ok := e.answered[a.score.Key].(int64)
		if !ok {
			continue
		}
		if a.evidence != nil && e.Provenance.Kind != ProvRule {
			for _, ev := range sftEvidence(e, a, score) {
				var target obj
				target.add("reasoning", ev)
				target.add(a.score.Key, score)
				row := w.prompt(e, a)
				row.add("response", target)
				if err := w.lines.add(dir+"sft_"+a.score.Key+".jsonl", row); err != nil {
					return err
				}
			}
		}
		row := w.prompt(e, a)
		row.add("reference", score)
		if err := w.lines.add(dir+"rl.jsonl", row); err != nil {
			return err
		}
	}
	return nil
}

// item builds the per-item record.
func (w *roboJudgeWriter) item(e *entry) obj {
	var r obj
	r.add("item_id", itemKey(e))
	for _, in := range w.env.rel.Schema.Inputs {
		r.add(in.Name, inputValue(in, e.Inputs[in.Name]))
	}
	for _, a := range w.axes {
		r.add(a.score.Key, e.answered[a.score.Key])
		if a.checklist != nil {
			r.add(a.checklist.Key, checklistObj(*a.checklist, e.answered[a.checklist.Key]))
		}
		if a.evidence != nil {
			r.add(a.evidence.Key, e.answered[a.evidence.Key])
		}
	}
	r.add("metadata", nonNil(e.Meta))
	r.add("provenance", e.Provenance.Kind)
	var evidence obj
	for _, a := range w.axes {
		if a.evidence != nil && len(e.Texts[a.evidence.Key]) > 0 && answeredString(e, a.evidence.Key) == "" {
			evidence.add(a.evidence.Key, e.Texts[a.evidence.Key])
		}
	}
	if len(evidence) > 0 {
		r.add("evidence", evidence)
	}
	if as := w.assessments(e); len(as) > 0 {
		r.add("assessments", as)
	}
	if p := e.Provenance; p.Kind == ProvAdjudicated {
		d := obj{{"author", p.Adjudicator}, {"role", "adjudicator"}, {"rationale", p.Rationale}}
		if p.Confidence != nil {
			d.add("confidence", *p.Confidence)
		}
		r.add("decision", d)
	}
	return r
}

// assessments lists the item's labels, each followed by its reviews, with
// the axis fields of whoever gave the answers; reviews of no listed label
// come last.
func (w *roboJudgeWriter) assessments(e *entry) []any {
	var out []any
	done := make([]bool, len(e.Reviews))
	for _, l := range e.Labels {
		a := obj{{"author", l.Annotator}, {"role", RoleAnnotator}}
		if l.Review != "" {
			a.add("review", l.Review)
		}
		out = append(out, w.axisFields(a, l.Answers))
		for i, rv := range e.Reviews {
			if !done[i] && rv.Annotator == l.Annotator {
				done[i] = true
				out = append(out, w.review(rv))
			}
		}
	}
	for i, rv := range e.Reviews {
		if !done[i] {
			out = append(out, w.review(rv))
		}
	}
	return out
}

// review is one review as an assessment.
func (w *roboJudgeWriter) review(rv Review) obj {
	a := obj{{"author", rv.Reviewer}, {"role", RoleReviewer}, {"verdict", rv.Verdict}}
	if rv.Comment != "" {
		a.add("comment", rv.Comment)
	}
	if len(rv.Comments) > 0 {
		a.add("comments", rv.Comments)
	}
	return w.axisFields(a, rv.Answers)
}

// axisFields adds each axis's score, checklist and evidence that answers
// give.
func (w *roboJudgeWriter) axisFields(a obj, answers tasks.Answers) obj {
	if len(answers) == 0 {
		return a
	}
	v := decodeLenient(&w.env.rel.Schema, answers)
	for _, ax := range w.axes {
		if s, ok := v[ax.score.Key]; ok {
			a.add(ax.score.Key, s)
		}
		if ax.checklist != nil {
			if c := checklistObj(*ax.checklist, v[ax.checklist.Key]); c != nil {
				a.add(ax.checklist.Key, c)
			}
		}
		if ax.evidence != nil {
			if ev, ok := v[ax.evidence.Key].(string); ok {
				a.add(ax.evidence.Key, ev)
			}
		}
	}
	return a
}

// sftEvidence returns the reasonings an axis's SFT rows are built from: the
// ground truth's evidence when it has one, otherwise the evidence of every
// counted label (a reviewer's correction in place of its label, the text
// then the reviewer's) that gave the agreed score itself (their reasoning
// argues for that score), in label order.
func sftEvidence(e *entry, a roboAxis, score int64) []string {
	if ev := answeredString(e, a.evidence.Key); ev != "" {
		return []string{ev}
	}
	var out []string
	counted := countedLabels(e.Labels, e.Reviews)
	for _, t := range e.Texts[a.evidence.Key] {
		if t.Text == "" {
			continue
		}
		for _, l := range counted {
			var own int64
			if l.Annotator == t.Author && json.Unmarshal(l.Answers[a.score.Key], &own) == nil && own == score {
				out = append(out, t.Text)
				break
			}
		}
	}
	return out
}

// checklistObj orders checklist scores as the rubric lists its items; nil
// when unanswered.
func checklistObj(q tasks.Question, v any) any {
	m, ok := v.(map[string]int64)
	if !ok {
		return nil
	}
	var o obj
	for _, it := range q.Items {
		o.add(it.Key, m[it.Key])
	}
	return o
}

// prompt starts an axis-level row: item id, axis and the axis's inputs.
func (w *roboJudgeWriter) prompt(e *entry, a roboAxis) obj {
	var r obj
	r.add("item_id", itemKey(e))
	r.add("axis", a.score.Key)
	for _, in := range a.inputs {
		r.add(in.Name, inputValue(in, e.Inputs[in.Name]))
	}
	return r
}

func (w *roboJudgeWriter) close() error { return w.lines.close() }
