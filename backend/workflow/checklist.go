package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// RefinedLists are the list_edit questions of a checklist-refinement form, in form order: each
// refines one list (input List, or its key ListKey when the input holds a list per rubric).
func RefinedLists(form tasks.Schema) []tasks.Question {
	var out []tasks.Question
	for _, q := range form.Questions {
		if q.Kind == tasks.KindListEdit {
			out = append(out, q)
		}
	}
	return out
}

// hasListToRefine reports whether item holds a drafted list for a question of the checklist
// form.
func (p *Project) hasListToRefine(item tasks.Item) bool {
	for _, q := range RefinedLists(*p.StageSchema(flow.StageChecklist)) {
		if _, ok := q.InputList(item); ok {
			return true
		}
	}
	return false
}

// refineChecklist puts a refiner's lists in place of the drafted ones: each list_edit answer's
// edited list replaces its list in the item's inputs, the inputs as drafted are kept with the
// item (for the release's provenance), and the item moves on to labeling.
func (u *submission) refineChecklist(ctx context.Context, it *store.Item, answers tasks.Answers) (flow.Stage, error) {
	inputs, drafted, err := refinedInputs(*u.p.StageSchema(flow.StageChecklist), DecodeAnswers(it.Inputs), answers)
	if err != nil {
		return "", err
	}
	ev := store.Event{ProjectID: u.p.ID, ActorID: u.a.UserID, Action: "item.checklist", Target: "item:" + it.ID,
		Before: map[string]any{"stage": it.Stage}, After: map[string]any{"stage": flow.StageLabel, "refined": slices.Sorted(maps.Keys(drafted))}}
	if err := u.tx.RefineItem(ctx, it.ID, Encode(inputs), Encode(drafted), flow.StageLabel, ev); err != nil {
		return "", err
	}
	it.Stage = flow.StageLabel
	return flow.StageLabel, nil
}

// refinedInputs applies the answers of form's list_edit questions to inputs: it returns the
// inputs with every answered list replaced by its edited list, and the drafted value of every
// input it changed.
func refinedInputs(form tasks.Schema, inputs, answers map[string]json.RawMessage) (map[string]json.RawMessage, map[string]json.RawMessage, error) {
	out := maps.Clone(inputs)
	drafted := map[string]json.RawMessage{}
	for _, q := range RefinedLists(form) {
		raw, ok := answers[q.Key]
		if !ok || isNullJSON(raw) {
			continue
		}
		list, err := tasks.EditedList(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("answers.%s: %w", q.Key, err)
		}
		if _, seen := drafted[q.List]; !seen {
			drafted[q.List] = inputs[q.List]
		}
		if out[q.List], err = withList(out[q.List], q.ListKey, list); err != nil {
			return nil, nil, fmt.Errorf("inputs.%s: %w", q.List, err)
		}
	}
	return out, drafted, nil
}

// withList is value with list in place: under key when the value holds a list per key, the
// whole value otherwise.
func withList(value json.RawMessage, key string, list []string) (json.RawMessage, error) {
	if key == "" {
		return json.Marshal(list)
	}
	obj := map[string]json.RawMessage{}
	if !isNullJSON(value) {
		if err := json.Unmarshal(value, &obj); err != nil {
			return nil, err
		}
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	obj[key] = b
	return json.Marshal(obj)
}

func isNullJSON(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// Refinements are the lists of an item as its refiner decided them, for a release: per
// list_edit question of the checklist form that the refiner answered, the drafted list (from
// the item's drafted inputs), the refined entries with their origins and the dropped ones.
func Refinements(lists []tasks.Question, drafted store.JSON, work []store.Assignment) []exports.Refinement {
	var refiner *store.Assignment
	for i := range work {
		if work[i].Stage == flow.StageChecklist && work[i].Status == flow.AssignSubmitted {
			refiner = &work[i]
		}
	}
	if refiner == nil || len(drafted) == 0 {
		return nil
	}
	item := tasks.Item{Inputs: DecodeAnswers(drafted)}
	answers := DecodeAnswers(refiner.Answers)
	var out []exports.Refinement
	for _, q := range lists {
		var edits []tasks.ListEdit
		if raw, ok := answers[q.Key]; !ok || json.Unmarshal(raw, &edits) != nil {
			continue
		}
		list, _ := q.InputList(item)
		out = append(out, refinement(q, list, edits, refiner.UserID))
	}
	return out
}

// refinement reads one list's completed edits (every drafted entry decided by its index, kept
// entries with their text) against the drafted list.
func refinement(q tasks.Question, list []string, edits []tasks.ListEdit, by string) exports.Refinement {
	r := exports.Refinement{Input: q.List, Key: q.ListKey, Drafted: list, Entries: []exports.RefinedEntry{}, Dropped: []string{}, By: by}
	if r.Drafted == nil {
		r.Drafted = []string{}
	}
	for _, ed := range edits {
		from := ""
		if ed.From != nil && *ed.From >= 0 && *ed.From < len(list) {
			from = list[*ed.From]
		}
		switch ed.Op {
		case tasks.EditKeep:
			r.Entries = append(r.Entries, exports.RefinedEntry{Text: from, Origin: exports.OriginDrafted})
		case tasks.EditReword:
			r.Entries = append(r.Entries, exports.RefinedEntry{Text: strings.TrimSpace(ed.Text), Origin: exports.OriginReworded, Drafted: from})
		case tasks.EditDrop:
			r.Dropped = append(r.Dropped, from)
		case tasks.EditAdd:
			r.Entries = append(r.Entries, exports.RefinedEntry{Text: strings.TrimSpace(ed.Text), Origin: exports.OriginAdded})
		}
	}
	return r
}
