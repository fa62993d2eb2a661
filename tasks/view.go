package tasks

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
)

// Role is a project member's role; it decides what a view contains.
type Role string

// Roles.
const (
	RoleLead        Role = "lead"
	RoleAnnotator   Role = "annotator"
	RoleReviewer    Role = "reviewer"
	RoleAdjudicator Role = "adjudicator"
	RoleViewer      Role = "viewer"
)

// Roles lists every role.
var Roles = []Role{RoleLead, RoleAnnotator, RoleReviewer, RoleAdjudicator, RoleViewer}

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// blinded reports whether r works blind: every role but the lead. Blinded
// roles never see hidden inputs (unless listed in visible_to), item
// metadata, external ids or candidate ids, and see candidates shuffled.
func (r Role) blinded() bool { return r != RoleLead }

// canSee reports whether role r may see input in.
func (r Role) canSee(in Input) bool {
	return !in.Hidden || !r.blinded() || slices.Contains(in.VisibleTo, r)
}

// View is what one role may see of one item: the schema reduced to the
// inputs that role may see, and the item's values for them, with candidates
// in a per-assignment order. It marshals to exactly what a browser may
// receive; Shuffle is never marshalled and stays on the server.
type View struct {
	Role   Role     `json:"role"`
	Schema Schema   `json:"schema"`
	Item   ViewItem `json:"item"`
	// Missing lists the questions the system answers "missing" because the
	// item lacks an input they need; the form shows them as answered.
	Missing []string `json:"missing,omitempty"`
	// Pass is set when the form comes in passes: the schema and item above
	// are that pass's only.
	Pass *PassStep `json:"pass,omitempty"`
	// Shuffle records the shown candidate order. Store it with the
	// assignment and pass it to ToCanonical when answers come back.
	Shuffle Shuffle `json:"-"`
}

// ViewItem is an item as a role sees it.
type ViewItem struct {
	// ExternalID and Meta are set for the lead only.
	ExternalID string                     `json:"external_id,omitempty"`
	Inputs     map[string]json.RawMessage `json:"inputs"`
	Meta       map[string]json.RawMessage `json:"meta,omitempty"`
}

// ShownCandidate is a candidate as shown: its slot letter, type and value.
// ID and Meta are set for the lead only.
type ShownCandidate struct {
	Slot  string                     `json:"slot"`
	Type  InputType                  `json:"type"`
	Value json.RawMessage            `json:"value"`
	ID    string                     `json:"id,omitempty"`
	Meta  map[string]json.RawMessage `json:"meta,omitempty"`
}

// ViewFor returns what role may see of item. Hidden inputs are removed for
// every role but the lead (unless the input lists the role in visible_to);
// only inputs some question may see are kept; each question's inputs list is
// reduced to what remains. Candidates are shuffled deterministically from
// seed (the lead sees canonical order), and View.Shuffle maps back.
func (s *Schema) ViewFor(role Role, item Item, seed uint64) (View, error) {
	if !role.Valid() {
		return View{}, FieldErrors{"role": {Code: CodeInvalidRole, Message: fmt.Sprintf("unknown role %q", role)}}
	}
	keep := s.visibleInputs(role)
	v := View{Role: role, Schema: s.reduced(keep), Shuffle: Shuffle{}, Missing: s.MissingQuestions(item)}
	v.Item.Inputs = map[string]json.RawMessage{}
	if role.blinded() {
		v.Schema.Meta = nil // note: item metadata is the lead's; so are its declarations
	} else {
		v.Item.ExternalID, v.Item.Meta = item.ExternalID, item.Meta
	}
	for _, in := range v.Schema.Inputs {
		raw, ok := item.Inputs[in.Name]
		if !ok {
			continue
		}
		if in.Type != InputCandidates {
			v.Item.Inputs[in.Name] = raw
			continue
		}
		shown, order, err := shuffleCandidates(role, in.Name, raw, seed)
		if err != nil {
			return View{}, FieldErrors{"inputs." + in.Name: {Code: CodeInvalidType, Message: err.Error()}}
		}
		v.Item.Inputs[in.Name], v.Shuffle[in.Name] = shown, order
	}
	return v, nil
}

// InputsOf returns the declared inputs question q may see, in schema
// order: those q.Inputs names, or every input when it names none. Which of
// them a role is shown is decided by ViewFor (hidden inputs, visible_to).
func (s *Schema) InputsOf(q Question) []Input {
	if len(q.Inputs) == 0 {
		return s.Inputs
	}
	var out []Input
	for _, in := range s.Inputs {
		if slices.Contains(q.Inputs, in.Name) {
			out = append(out, in)
		}
	}
	return out
}

// sees reports whether question q may see the declared input name.
func (s *Schema) sees(q Question, name string) bool {
	return slices.ContainsFunc(s.InputsOf(q), func(in Input) bool { return in.Name == name })
}

// visibleInputs returns the names of inputs that role may see and that at
// least one question may see.
func (s *Schema) visibleInputs(role Role) map[string]bool {
	used := map[string]bool{}
	for _, q := range s.Questions {
		for _, in := range s.InputsOf(q) {
			used[in.Name] = true
		}
	}
	keep := map[string]bool{}
	for _, in := range s.Inputs {
		if used[in.Name] && role.canSee(in) {
			keep[in.Name] = true
		}
	}
	return keep
}

// reduced returns a copy of s with only the kept inputs, and each
// question's input list filtered to them.
func (s *Schema) reduced(keep map[string]bool) Schema {
	out := *s
	out.Inputs = nil
	for _, in := range s.Inputs {
		if keep[in.Name] {
			in.VisibleTo = nil
			out.Inputs = append(out.Inputs, in)
		}
	}
	out.Questions = make([]Question, len(s.Questions))
	for i, q := range s.Questions {
		if len(q.Inputs) > 0 {
			q.Inputs = slices.DeleteFunc(slices.Clone(q.Inputs), func(n string) bool { return !keep[n] })
		}
		out.Questions[i] = q
	}
	return out
}

// Subset returns the schema restricted to the given questions, in schema
// order, for running some questions as their own pass (RoboJudge judges
// Physical Adherence without the instruction). Unknown keys are an error.
func (s *Schema) Subset(keys ...string) (Schema, error) {
	fe := FieldErrors{}
	for _, k := range keys {
		if _, ok := s.Question(k); !ok {
			fe.add(k, CodeUnknownQuestion, "%q is not a question of this schema", k)
		}
	}
	if err := fe.Err(); err != nil {
		return Schema{}, err
	}
	out := *s
	out.Questions = nil
	for _, q := range s.Questions {
		if slices.Contains(keys, q.Key) {
			out.Questions = append(out.Questions, q)
		}
	}
	return out, nil
}

// shuffleCandidates decodes a candidates value, orders it for role and
// returns the shown JSON and the order.
func shuffleCandidates(role Role, input string, raw json.RawMessage, seed uint64) (json.RawMessage, CandidateOrder, error) {
	cs, err := decodeCandidates(raw)
	if err != nil || len(cs) > maxSlots {
		return nil, CandidateOrder{}, fmt.Errorf("expected a list of at most %d candidates {id, type, value}", maxSlots)
	}
	perm := identity(len(cs))
	if role.blinded() {
		perm = permutation(len(cs), seed, input)
	}
	order := CandidateOrder{Perm: perm, IDs: make([]string, len(cs))}
	shown := make([]ShownCandidate, len(cs))
	for slot, ci := range perm {
		c := cs[ci]
		order.IDs[slot] = c.ID
		shown[slot] = ShownCandidate{Slot: SlotLabel(slot), Type: c.Type, Value: c.Value}
		if !role.blinded() {
			shown[slot].ID, shown[slot].Meta = c.ID, c.Meta
		}
	}
	b, err := json.Marshal(shown)
	return b, order, err
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// permutation is a Fisher–Yates shuffle driven by splitmix64, seeded from
// the assignment seed and the input name. It is implemented here rather
// than with math/rand so the order for a seed never changes across Go
// releases.
func permutation(n int, seed uint64, input string) []int {
	h := fnv.New64a()
	h.Write([]byte(input))
	state := seed ^ h.Sum64()
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	p := identity(n)
	for i := n - 1; i > 0; i-- {
		j := int(next() % uint64(i+1))
		p[i], p[j] = p[j], p[i]
	}
	return p
}
