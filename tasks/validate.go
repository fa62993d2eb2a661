package tasks

import (
	"fmt"
	"regexp"
	"slices"
)

// keyPattern is the shape of every key and input name: lower snake case, so
// keys are safe as export column names and URL segments.
var keyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)

// Limits that keep forms usable and answers small.
const (
	maxLikertPoints = 101
	maxChecklistMax = 100
	maxOptions      = 200
	maxQuestions    = 500
)

// Validate checks the whole schema and reports every problem, keyed by path
// (e.g. "questions[3].anchors"). It returns nil when the schema is valid.
func (s *Schema) Validate() error {
	fe := FieldErrors{}
	if s.Format != 0 && s.Format != FormatVersion {
		fe.add("format", CodeInvalidValue, "unsupported schema format %d (supported: %d)", s.Format, FormatVersion)
	}
	if s.Version < 1 {
		fe.add("version", CodeOutOfRange, "version must be 1 or more")
	}
	s.validateGroups(fe)
	s.validateInputs(fe)
	s.validateQuestions(fe)
	s.validateMeta(fe)
	s.validatePasses(fe)
	return fe.Err()
}

func (s *Schema) validateGroups(fe FieldErrors) {
	seen := map[string]bool{}
	for i, g := range s.Groups {
		p := fmt.Sprintf("groups[%d]", i)
		checkKey(fe, p+".key", g.Key, seen)
		if g.Label == "" {
			fe.add(p+".label", CodeRequired, "group label is required")
		}
	}
}

// checkKey reports a missing, malformed or repeated key.
func checkKey(fe FieldErrors, path, key string, seen map[string]bool) {
	switch {
	case key == "":
		fe.add(path, CodeRequired, "key is required")
	case !keyPattern.MatchString(key):
		fe.add(path, CodeInvalidKey, "%q must be lower snake case (a-z, 0-9, _), starting with a letter, at most 100 characters", key)
	case seen[key]:
		fe.add(path, CodeDuplicateKey, "%q is used more than once", key)
	}
	seen[key] = true
}

func (s *Schema) validateInputs(fe FieldErrors) {
	seen := map[string]bool{}
	for i, in := range s.Inputs {
		p := fmt.Sprintf("inputs[%d]", i)
		checkKey(fe, p+".name", in.Name, seen)
		if !slices.Contains(InputTypes, in.Type) {
			fe.add(p+".type", CodeInvalidType, "unknown input type %q (one of %v)", in.Type, InputTypes)
		}
		for j, r := range in.VisibleTo {
			if !r.Valid() {
				fe.add(fmt.Sprintf("%s.visible_to[%d]", p, j), CodeInvalidRole, "unknown role %q", r)
			}
		}
		if in.MaxItems < 0 || (in.MaxItems > 0 && in.Type != InputImageList) {
			fe.add(p+".max_items", CodeInvalidValue, "max_items applies to image_list inputs and must be positive")
		}
		if in.Count != 0 && (in.Type != InputCandidates || in.Count < 1 || in.Count > maxSlots) {
			fe.add(p+".count", CodeInvalidValue, "count applies to candidates inputs and must be 1..%d", maxSlots)
		}
	}
}

func (s *Schema) validateQuestions(fe FieldErrors) {
	if len(s.Questions) == 0 {
		fe.add("questions", CodeRequired, "a schema needs at least one question")
	}
	if len(s.Questions) > maxQuestions {
		fe.add("questions", CodeTooMany, "at most %d questions", maxQuestions)
	}
	keys, indexes := map[string]bool{}, map[int]bool{}
	for i, q := range s.Questions {
		p := fmt.Sprintf("questions[%d]", i)
		checkKey(fe, p+".key", q.Key, keys)
		if q.Index < 0 || (q.Index > 0 && indexes[q.Index]) {
			fe.add(p+".index", CodeDuplicateKey, "index must be positive and unique, got %d", q.Index)
		}
		indexes[q.Index] = q.Index > 0
		if q.Label == "" {
			fe.add(p+".label", CodeRequired, "label is required")
		}
		s.validateQuestionRefs(fe, p, q)
		s.validateNeeds(fe, p, q)
		if !KindOf(q).Known() {
			fe.add(p+".kind", CodeInvalidKind, "unknown kind %q (one of %v)", q.Kind, Kinds)
			continue
		}
		validateKind(fe, p, q, s)
	}
}

// validateQuestionRefs checks the references a question makes to the rest of
// the schema: its group, its level and the inputs it may see.
func (s *Schema) validateQuestionRefs(fe FieldErrors, p string, q Question) {
	if q.Group != "" && len(s.Groups) > 0 && !slices.ContainsFunc(s.Groups, func(g Group) bool { return g.Key == q.Group }) {
		fe.add(p+".group", CodeUnknownOption, "group %q is not declared in groups", q.Group)
	}
	if q.Level != "" && !slices.Contains([]Level{LevelNominal, LevelOrdinal, LevelInterval, LevelRatio, LevelNone}, q.Level) {
		fe.add(p+".level", CodeInvalidValue, "unknown level %q", q.Level)
	}
	s.validateInputNames(fe, p, q.Inputs)
}

// validateInputNames checks a list of input names at p.inputs: each declared, none twice.
func (s *Schema) validateInputNames(fe FieldErrors, p string, names []string) {
	seen := map[string]bool{}
	for j, name := range names {
		ip := fmt.Sprintf("%s.inputs[%d]", p, j)
		if _, ok := s.Input(name); !ok {
			fe.add(ip, CodeUnknownInput, "input %q is not declared in inputs", name)
		} else if seen[name] {
			fe.add(ip, CodeDuplicateKey, "input %q is listed twice", name)
		}
		seen[name] = true
	}
}

// candidatesInput resolves the candidates input a pairwise or ranking
// question compares.
func (s *Schema) candidatesInput(q Question) (Input, bool) {
	if q.Candidates != "" {
		in, ok := s.Input(q.Candidates)
		return in, ok && in.Type == InputCandidates
	}
	var found []Input
	for _, in := range s.Inputs {
		if in.Type == InputCandidates {
			found = append(found, in)
		}
	}
	if len(found) != 1 {
		return Input{}, false
	}
	return found[0], true
}
