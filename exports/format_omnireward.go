package exports

import (
	"errors"
	"regexp"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// omniRewardTaskName is the shape of a task name usable in a file name.
var omniRewardTaskName = regexp.MustCompile(`^[A-Za-z0-9_]{1,64}$`)

// omniRewardQuestion is the first pairwise question over two candidates.
func omniRewardQuestion(s *tasks.Schema) (tasks.Question, tasks.Input, bool) {
	for _, q := range s.Questions {
		if q.Kind != tasks.KindPairwise {
			continue
		}
		for _, in := range s.Inputs {
			if in.Type == tasks.InputCandidates && in.Count == 2 && (q.Candidates == "" || q.Candidates == in.Name) {
				return q, in, true
			}
		}
	}
	return tasks.Question{}, tasks.Input{}, false
}

// omniRewardCriterion is the text input holding the criterion.
func omniRewardCriterion(s *tasks.Schema) (tasks.Input, bool) {
	for _, name := range []string{"criterion", "criteria"} {
		if in, ok := s.Input(name); ok && in.Type == tasks.InputText {
			return in, true
		}
	}
	return tasks.Input{}, false
}

// fitsOmniReward needs a pairwise question over two candidates and a
// criterion text input.
func fitsOmniReward(s *tasks.Schema) error {
	if _, _, ok := omniRewardQuestion(s); !ok {
		return errors.New("it needs a pairwise question over a candidates input of count 2")
	}
	if _, ok := omniRewardCriterion(s); !ok {
		return errors.New(`it needs a text input named "criterion" holding the evaluation criterion`)
	}
	return nil
}

// omniRewardWriter writes omnireward/<split>/<task>_preferences.json, one
// JSON array per task as Omni-RewardBench ships them: id, prompt, criteria,
// response1, response2 (text, or a media path; a list of paths for
// multi-view renders), the input media (image, video, audio) and
// criteria_preference ∈ response1 | response2 | tie, taken from the stored
// (canonical) candidate order. The task is the item's metadata "task"
// (text_to_image, ...), inferred from the input and response types when
// absent. With option ties=false, tie records are left out (the paper's
// "w/o Ties" setting).
type omniRewardWriter struct {
	env       *env
	question  tasks.Question
	responses tasks.Input
	criterion tasks.Input
	arrays    *arrayFiles
}

func openOmniReward(env *env) (writer, error) {
	s := &env.rel.Schema
	q, resp, _ := omniRewardQuestion(s)
	crit, _ := omniRewardCriterion(s)
	return &omniRewardWriter{env: env, question: q, responses: resp, criterion: crit, arrays: newArrayFiles(env, "omnireward")}, nil
}

// omniRewardPreference maps a canonical pairwise answer.
var omniRewardPreference = map[string]string{tasks.AnswerA: "response1", tasks.AnswerB: "response2", tasks.AnswerTie: "tie"}

// leaves leaves out items without ground truth or without a preference,
// and ties in the w/o Ties setting.
func (w *omniRewardWriter) leaves(e *entry) (string, string) {
	if kind, reason := groundTruthOnly(e); kind != "" {
		return kind, reason
	}
	pref, ok := omniRewardPreference[answeredString(e, w.question.Key)]
	switch {
	case !ok:
		return LossUnanswered, w.question.Key
	case pref == "tie" && !w.env.spec.Ties:
		return LossTie, "ties=false, the w/o Ties setting"
	}
	return "", ""
}

func (w *omniRewardWriter) write(e *entry) error {
	if kind, _ := w.leaves(e); kind != "" {
		return nil
	}
	pref := omniRewardPreference[answeredString(e, w.question.Key)]
	cands := e.candidates(w.responses.Name)
	if len(cands) != 2 {
		return recordErr(e.ID, e.ExternalID, "inputs."+w.responses.Name, tasks.CodeOutOfRange, "omnireward needs exactly two responses")
	}
	s := &w.env.rel.Schema
	var r obj
	r.add("id", itemKey(e))
	r.add("prompt", w.prompt(e))
	r.add("criteria", inputValue(w.criterion, e.Inputs[w.criterion.Name]))
	r.add("response1", candidateValue(cands[0]))
	r.add("response2", candidateValue(cands[1]))
	for _, in := range s.Inputs {
		switch in.Type {
		case tasks.InputImage, tasks.InputVideo, tasks.InputAudio, tasks.InputImageList, tasks.InputModel3D:
			if v := inputValue(in, e.Inputs[in.Name]); v != nil {
				r.add(in.Name, v)
			}
		}
	}
	r.add("criteria_preference", pref)
	task, err := w.task(e, cands[0])
	if err != nil {
		return err
	}
	return w.arrays.add("omnireward/"+e.Split+"/"+task+"_preferences.json", r)
}

// prompt is the input named "prompt", else the first visible text input
// that is not the criterion.
func (w *omniRewardWriter) prompt(e *entry) any {
	s := &w.env.rel.Schema
	if in, ok := s.Input("prompt"); ok {
		return inputValue(in, e.Inputs[in.Name])
	}
	for _, in := range s.Inputs {
		if in.Type == tasks.InputText && !in.Hidden && in.Name != w.criterion.Name {
			return inputValue(in, e.Inputs[in.Name])
		}
	}
	return nil
}

// task is the item's metadata "task", or the task the types imply.
func (w *omniRewardWriter) task(e *entry, first tasks.Candidate) (string, error) {
	if t, ok := metaString(e.Meta, "task"); ok {
		if !omniRewardTaskName.MatchString(t) {
			return "", recordErr(e.ID, e.ExternalID, "meta.task", tasks.CodeInvalidValue, "task %q cannot name a file", t)
		}
		return t, nil
	}
	has := func(t tasks.InputType) bool {
		for _, in := range w.env.rel.Schema.Inputs {
			if in.Type == t && !isNull(e.Inputs[in.Name]) {
				return true
			}
		}
		return false
	}
	switch first.Type {
	case tasks.InputImage:
		if has(tasks.InputImage) {
			return "text_image_to_image", nil
		}
		return "text_to_image", nil
	case tasks.InputVideo:
		return "text_to_video", nil
	case tasks.InputAudio:
		return "text_to_audio", nil
	case tasks.InputModel3D, tasks.InputImageList:
		return "text_to_3D", nil
	}
	switch {
	case has(tasks.InputImage):
		return "text_image_to_text", nil
	case has(tasks.InputVideo):
		return "text_video_to_text", nil
	case has(tasks.InputAudio):
		return "text_audio_to_text", nil
	}
	return "text_to_text", nil
}

func (w *omniRewardWriter) close() error { return w.arrays.close() }
