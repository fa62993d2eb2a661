package tasks

import (
	"encoding/json"
	"testing"
)

// FuzzValidateAnswers feeds arbitrary JSON to answer validation, remapping
// and normalisation for every template and the kitchen-sink schema: no
// input may panic, and valid answers must survive the shown → canonical →
// shown round trip.
func FuzzValidateAnswers(f *testing.F) {
	seeds := []string{
		`{}`, `null`, `[]`, `"x"`, `{"bin":"yes","lik":3}`, `{"rank":["A","B","C"],"pw":"tie"}`,
		`{"cl":{"x":1,"y":null}}`, `{"crit":["a",""]}`, `{"lik":1e400}`, `{"lik":-9223372036854775809}`,
		`{"mc":[null]}`, `{"physical_adherence":5,"pa_checklist":{"agent_consistency":2}}`, `{"preference":"A"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), uint64(1))
	}
	schemas := []Schema{kitchenSink()}
	for _, tpl := range Templates() {
		for _, form := range allForms(tpl) {
			schemas = append(schemas, form.Schema)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		var answers Answers
		if json.Unmarshal(data, &answers) != nil {
			answers = Answers{"bin": data, "lik": data, "rank": data, "cl": data, "crit": data, "preference": data}
		}
		for i := range schemas {
			fuzzOne(t, &schemas[i], answers, seed)
		}
	})
}

func fuzzOne(t *testing.T, s *Schema, answers Answers, seed uint64) {
	err := s.ValidateAnswers(answers)
	_ = s.SatisfactionVector(answers)
	sh := Shuffle{}
	for _, in := range s.Inputs {
		if in.Type == InputCandidates {
			n := max(in.Count, 3)
			sh[in.Name] = CandidateOrder{Perm: permutation(n, seed, in.Name)}
		}
	}
	canon, cerr := s.ToCanonical(answers, sh)
	if err != nil || cerr != nil {
		return
	}
	back, berr := s.ToShown(canon, sh)
	if berr != nil {
		t.Fatalf("ToShown failed on valid answers: %v", berr)
	}
	for k, v := range answers {
		var a, b any
		if json.Unmarshal(v, &a) == nil && json.Unmarshal(back[k], &b) == nil && !equalJSON(a, b) {
			t.Fatalf("%s: round trip %s → %s", k, v, back[k])
		}
	}
}
