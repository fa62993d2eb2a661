package tasks

import (
	"encoding/json"
	"fmt"
)

// CandidateOrder is the order in which one candidates input was shown.
// Perm[slot] is the canonical index of the candidate shown in that slot
// (slot 0 is "A"); IDs[slot] is its canonical id.
type CandidateOrder struct {
	Perm []int    `json:"perm"`
	IDs  []string `json:"ids"`
}

// Shuffle maps each candidates input name to the order it was shown in. It
// is stored with an assignment (what was shown) and never sent to a
// blinded role's browser.
type Shuffle map[string]CandidateOrder

// ToCanonical maps answers given in shown order (pairwise "A"/"B", ranking
// slots) to canonical candidate order. Other answers are copied unchanged.
// Answers should be validated first; a slot outside the shown order is an
// error keyed by question.
func (s *Schema) ToCanonical(answers Answers, sh Shuffle) (Answers, error) {
	return s.remap(answers, sh, func(o CandidateOrder, slot int) int { return o.Perm[slot] })
}

// ToShown maps canonical answers to the order a given assignment was shown,
// for displaying stored answers back to that person. It inverts ToCanonical.
func (s *Schema) ToShown(answers Answers, sh Shuffle) (Answers, error) {
	return s.remap(answers, sh, func(o CandidateOrder, canon int) int {
		for slot, ci := range o.Perm {
			if ci == canon {
				return slot
			}
		}
		return -1
	})
}

// remap rewrites the slots of pairwise and ranking answers with f.
func (s *Schema) remap(answers Answers, sh Shuffle, f func(CandidateOrder, int) int) (Answers, error) {
	out := make(Answers, len(answers))
	fe := FieldErrors{}
	for key, raw := range answers {
		out[key] = raw
		q, ok := s.Question(key)
		if !ok || isNull(raw) || isMissing(raw) {
			continue
		}
		sl, ok := KindOf(q).def.(slotted)
		if !ok {
			continue
		}
		in, _ := s.candidatesInput(q)
		order, ok := sh[in.Name]
		if !ok {
			continue // shown in canonical order
		}
		mapped, err := remapSlots(sl, raw, order, f)
		if err != nil {
			fe.add(key, CodeInvalidValue, "%v", err)
			continue
		}
		out[key] = mapped
	}
	return out, fe.Err()
}

// remapSlots maps the slot letters of one pairwise or ranking answer.
func remapSlots(sl slotted, raw json.RawMessage, order CandidateOrder, f func(CandidateOrder, int) int) (json.RawMessage, error) {
	return sl.remap(raw, func(v string) (string, error) {
		i := slotIndex(v)
		if i < 0 || i >= len(order.Perm) {
			return "", fmt.Errorf("%q is not a shown slot", v)
		}
		j := f(order, i)
		if j < 0 || j >= len(order.Perm) {
			return "", fmt.Errorf("slot %q has no mapping", v)
		}
		return SlotLabel(j), nil
	})
}
