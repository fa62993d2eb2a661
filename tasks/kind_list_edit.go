package tasks

import (
	"encoding/json"
	"strconv"
	"strings"
)

// listEditKind edits a list given as an input (a model's draft checklist):
// each entry is kept, dropped or reworded, and entries may be added. The
// answer's value is the list it leaves.
type listEditKind struct{}

func (listEditKind) fields() []string {
	return []string{"min", "max", "min_length", "max_length", "list", "list_key"}
}

// validate checks a list_edit question: the list it edits is an
// input it may see, and its count and length bounds.
func (listEditKind) validate(fe FieldErrors, p string, q Question, s *Schema) {
	in, ok := s.Input(q.List)
	switch {
	case q.List == "":
		fe.add(p+".list", CodeRequired, "list_edit questions name the input holding the list in list")
	case !ok:
		fe.add(p+".list", CodeUnknownInput, "input %q is not declared in inputs", q.List)
	case in.Type != InputJSON && in.Type != InputText:
		fe.add(p+".list", CodeInvalidType, "the list input %q must be of type json", q.List)
	case !s.sees(q, q.List):
		fe.add(p+".list", CodeUnknownInput, "the question must see its list input %q (add it to inputs)", q.List)
	}
	if q.ListKey != "" && !keyPattern.MatchString(q.ListKey) {
		fe.add(p+".list_key", CodeInvalidKey, "%q must be lower snake case", q.ListKey)
	}
	validateCount(fe, p, q, 0)
	validateLengths(fe, p, q)
}

// check validates a list_edit answer on its own: known operations,
// each input entry decided at most once, text where an edit needs it, and
// the edited list's length within min..max.
func (listEditKind) check(q Question, raw json.RawMessage, _ *Schema) *FieldError {
	es, e := decodeListEdit(raw)
	if e != nil {
		return e
	}
	seen := map[int]bool{}
	kept := 0
	for i, ed := range es {
		what := "edit " + strconv.Itoa(i+1)
		switch ed.Op {
		case EditKeep, EditDrop, EditReword:
			if ed.From == nil || *ed.From < 0 {
				return ferr(CodeRequired, what+": "+ed.Op+" needs from, the entry's index in the list")
			}
			if seen[*ed.From] {
				return ferr(CodeDuplicateKey, what+": entry "+strconv.Itoa(*ed.From)+" is decided twice")
			}
			seen[*ed.From] = true
		case EditAdd:
			if ed.From != nil {
				return ferr(CodeInvalidValue, what+": an added entry has no from")
			}
		default:
			return ferr(CodeInvalidValue, what+`: op must be "keep", "drop", "reword" or "add"`)
		}
		if ed.Op == EditReword || ed.Op == EditAdd {
			if strings.TrimSpace(ed.Text) == "" {
				return ferr(CodeTooShort, what+": "+ed.Op+" needs the new text")
			}
			if err := checkLength(q, ed.Text, what); err != nil {
				return err
			}
		}
		if ed.Op != EditDrop {
			kept++
		}
	}
	if len(es) == 0 && q.Required {
		return ferr(CodeRequired, "decide every entry of the list")
	}
	return checkCount(q, kept, "entries in the edited list")
}

func (listEditKind) complete(q Question, item Item, raw json.RawMessage) (json.RawMessage, *FieldError) {
	return completeListEdit(q, item, raw)
}

func (listEditKind) itemInputs(q Question) []string {
	if q.List == "" {
		return nil
	}
	return []string{q.List}
}

func (listEditKind) example(q Question, _ *Schema) any {
	lo, _ := countBounds(q)
	var es []ListEdit
	for i := range max(lo, 1) {
		es = append(es, ListEdit{Op: EditAdd, Text: exampleText(q, "Example entry "+strconv.Itoa(i+1))})
	}
	return es
}

func (listEditKind) decode(raw json.RawMessage) (any, error) { return EditedList(raw) }

func (listEditKind) normalize(q Question, v any) any { return keep(q, v) }

func (listEditKind) level() Level { return LevelNominal }

func (listEditKind) consensus() ConsensusRule { return ConsensusEqual }

// key compares the lists edits leave, case and spacing aside.
func (listEditKind) key(_ Question, raw json.RawMessage) string {
	// note: two edits agree when they leave the same list, whatever steps got there
	list, err := EditedList(raw)
	if err != nil {
		return string(raw)
	}
	for i, t := range list {
		list[i] = strings.ToLower(strings.Join(strings.Fields(t), " "))
	}
	b, _ := json.Marshal(list)
	return string(b)
}

func (listEditKind) distance() Distance { return DistanceLevel }

// ratings gives one nominal value, the list the edit leaves.
func (listEditKind) ratings(_ Question, raw json.RawMessage, _ RatingMode) []Rating {
	list, err := EditedList(raw)
	if err != nil {
		return nil
	}
	b, _ := json.Marshal(list)
	return []Rating{{"", string(b)}}
}

func (listEditKind) judge() JudgeKind { return JudgeNone }

func (listEditKind) feature(Question, bool) Feature { return Feature{Type: FeatureStringList} }

// csv writes the edited list as a JSON list.
func (listEditKind) csv(Question) []CSVColumn { return answeredColumn() }

func (listEditKind) scale(Question) string { return string(KindListEdit) }
