package tasks

import (
	"fmt"
	"slices"
)

// Pass is one step of a form that is answered in passes: a group of questions
// asked together, seeing only the inputs the pass names. RoboJudge judges
// Physical Adherence from the video alone, then Instruction Alignment with the
// instruction; the server sends each pass only its own inputs and questions.
type Pass struct {
	// Key names the pass in revisions and exports, e.g. "pa".
	Key string `json:"key"`
	// Label is shown above the pass's form ("Pass 1 of 2: Physical adherence").
	Label string `json:"label"`
	// Help is guidance shown with the pass.
	Help string `json:"help,omitempty"`
	// Inputs are the only inputs this pass may see.
	Inputs []string `json:"inputs"`
	// Questions are the keys of the questions asked in this pass, each in
	// exactly one pass; they are asked in schema order.
	Questions []string `json:"questions"`
}

// PassMode says who answers the passes of an item.
type PassMode string

// Pass modes.
const (
	// PassSamePerson: one person answers every pass of an item, in order, as
	// one assignment that moves from pass to pass (default).
	PassSamePerson PassMode = "same_person"
	// PassOwnQueue: each pass is its own queue, answered by different people.
	// An item's passes are labelled in order: pass k+1 opens once pass k has
	// its full overlap of labels, and whoever labelled one pass of an item
	// labels no other. Each label holds only its pass's answers.
	PassOwnQueue PassMode = "own_queue"
)

// CodeNotInPass marks an answer or reference outside the current pass.
const CodeNotInPass = "not_in_pass"

// HasPasses reports whether the form is answered in passes.
func (s *Schema) HasPasses() bool { return len(s.Passes) > 0 }

// PassForm returns the form of pass i: only the pass's questions, only the
// inputs it may see (in the order the pass lists them), and no passes of its own. Answers of the pass validate
// against it, and ViewFor on it gives the pass's view.
func (s *Schema) PassForm(i int) (Schema, error) {
	if i < 0 || i >= len(s.Passes) {
		return Schema{}, Field("pass", CodeOutOfRange, "the form has %d passes, not %d", len(s.Passes), i+1)
	}
	ps := s.Passes[i]
	out, err := s.Subset(ps.Questions...)
	if err != nil {
		return Schema{}, err
	}
	out.Passes, out.PassMode = nil, ""
	keep := map[string]bool{}
	for _, n := range ps.Inputs {
		keep[n] = true
	}
	out = out.reduced(keep)
	// note: in the pass's order, which puts first what the pass adds (RoboJudge's instruction)
	slices.SortStableFunc(out.Inputs, func(a, b Input) int {
		return slices.Index(ps.Inputs, a.Name) - slices.Index(ps.Inputs, b.Name)
	})
	used := map[string]bool{}
	for _, q := range out.Questions {
		used[q.Group] = true
	}
	out.Groups = slices.DeleteFunc(slices.Clone(out.Groups), func(g Group) bool { return !used[g.Key] })
	return out, nil
}

// PassOf returns the index of the pass that asks question key, or -1.
func (s *Schema) PassOf(key string) int {
	for i, ps := range s.Passes {
		if slices.Contains(ps.Questions, key) {
			return i
		}
	}
	return -1
}

// validatePasses checks the passes: known questions and inputs, every
// question in exactly one pass, and every input a pass's questions need shown
// in that pass.
func (s *Schema) validatePasses(fe FieldErrors) {
	switch s.PassMode {
	case "", PassSamePerson, PassOwnQueue:
	default:
		fe.add("pass_mode", CodeInvalidValue, "unknown pass_mode %q (one of %q, %q)", s.PassMode, PassSamePerson, PassOwnQueue)
	}
	if s.PassMode != "" && len(s.Passes) == 0 {
		fe.add("pass_mode", CodeInvalidValue, "pass_mode applies only with passes")
	}
	if len(s.Passes) == 0 {
		return
	}
	keys, inPass := map[string]bool{}, map[string]string{}
	for i, ps := range s.Passes {
		p := fmt.Sprintf("passes[%d]", i)
		checkKey(fe, p+".key", ps.Key, keys)
		if ps.Label == "" {
			fe.add(p+".label", CodeRequired, "pass label is required")
		}
		s.validatePassInputs(fe, p, ps)
		if len(ps.Questions) == 0 {
			fe.add(p+".questions", CodeRequired, "a pass asks at least one question")
		}
		for j, k := range ps.Questions {
			qp := fmt.Sprintf("%s.questions[%d]", p, j)
			q, ok := s.Question(k)
			switch {
			case !ok:
				fe.add(qp, CodeUnknownQuestion, "%q is not a question of this schema", k)
				continue
			case inPass[k] != "":
				fe.add(qp, CodeDuplicateKey, "question %q is already asked in pass %q; each question belongs to one pass", k, inPass[k])
				continue
			}
			inPass[k] = ps.Key
			s.validatePassQuestion(fe, qp, ps, q)
		}
	}
	for i, q := range s.Questions {
		if inPass[q.Key] == "" && q.Key != "" {
			fe.add(fmt.Sprintf("questions[%d]", i), CodeNotInPass, "question %q is in no pass; with passes, every question belongs to one", q.Key)
		}
	}
}

func (s *Schema) validatePassInputs(fe FieldErrors, p string, ps Pass) {
	if len(ps.Inputs) == 0 {
		fe.add(p+".inputs", CodeRequired, "name the inputs this pass may see")
	}
	s.validateInputNames(fe, p, ps.Inputs)
}

// validatePassQuestion reports an input the question cannot do without that
// the pass does not show: one it needs, the candidates it compares or the list
// it edits. Inputs it merely may see are narrowed to the pass's.
func (s *Schema) validatePassQuestion(fe FieldErrors, qp string, ps Pass, q Question) {
	for _, n := range s.requiredInputs(q) {
		if !slices.Contains(ps.Inputs, n) {
			fe.add(qp, CodeInputMissing, "question %q needs input %q, which pass %q does not show", q.Key, n, ps.Key)
			return
		}
	}
	for _, in := range s.InputsOf(q) {
		if slices.Contains(ps.Inputs, in.Name) {
			return
		}
	}
	fe.add(qp, CodeInputMissing, "question %q sees none of the inputs of pass %q (%v)", q.Key, ps.Key, ps.Inputs)
}

// requiredInputs lists the inputs q cannot do without: those it needs, the
// candidates it compares and the list it edits.
func (s *Schema) requiredInputs(q Question) []string {
	required := slices.Clone(q.Needs)
	k := KindOf(q)
	if k.ComparesCandidates() {
		if in, ok := s.candidatesInput(q); ok {
			required = append(required, in.Name)
		}
	}
	if ib, ok := k.def.(itemBound); ok {
		required = append(required, ib.itemInputs(q)...)
	}
	return required
}

// PassStep says where a view stands in a form with passes, for the form to
// show ("Pass 1 of 2: Physical adherence").
type PassStep struct {
	// Number counts from 1.
	Number int    `json:"number"`
	Count  int    `json:"count"`
	Key    string `json:"key"`
	Label  string `json:"label"`
	Help   string `json:"help,omitempty"`
}

// Step returns pass i as a PassStep, or nil when there is no such pass.
func (s *Schema) Step(i int) *PassStep {
	if i < 0 || i >= len(s.Passes) {
		return nil
	}
	ps := s.Passes[i]
	return &PassStep{Number: i + 1, Count: len(s.Passes), Key: ps.Key, Label: ps.Label, Help: ps.Help}
}
