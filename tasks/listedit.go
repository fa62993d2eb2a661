package tasks

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// List-edit operations: what a person did with one entry of the list.
const (
	EditKeep   = "keep"
	EditDrop   = "drop"
	EditReword = "reword"
	EditAdd    = "add"
)

// ListEdit is one entry of a list_edit answer. An answer lists every entry
// of the input list once (keep, drop or reword, by its 0-based index in
// From) and any added entries (no From), in the order of the edited list.
// Text is the entry's text after the edit: the new wording for reword and
// add; for keep the server fills in the original (ValidateItemAnswers), so a
// stored answer is complete without its item.
type ListEdit struct {
	Op   string `json:"op"`
	From *int   `json:"from,omitempty"`
	Text string `json:"text,omitempty"`
}

// decodeListEdit reads a list_edit answer strictly.
func decodeListEdit(raw json.RawMessage) ([]ListEdit, *FieldError) {
	var es []ListEdit
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&es); err != nil || es == nil {
		return nil, ferr(CodeInvalidType, `expected a list of edits such as [{"op": "keep", "from": 0}, {"op": "add", "text": "..."}]`)
	}
	return es, nil
}

// InputList returns the list a list_edit question edits, read from item;
// false when the item does not hold one.
func (q Question) InputList(item Item) ([]string, bool) {
	raw, ok := item.Inputs[q.List]
	if !ok || isNull(raw) {
		return nil, false
	}
	if q.ListKey != "" {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil, false
		}
		if raw, ok = obj[q.ListKey]; !ok {
			return nil, false
		}
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	return list, true
}

// completeListEdit checks a list_edit answer against the item's list (every
// entry decided exactly once, indexes in range) and fills in the original
// text of kept entries; a reword to the same text is a keep.
func completeListEdit(q Question, item Item, raw json.RawMessage) (json.RawMessage, *FieldError) {
	es, e := decodeListEdit(raw)
	if e != nil {
		return nil, e
	}
	list, ok := q.InputList(item)
	if !ok {
		return nil, ferr(CodeInvalidValue, "the item has no list in input "+strconv.Quote(q.List)+" to edit")
	}
	decided := 0
	for i := range es {
		ed := &es[i]
		if ed.From == nil {
			continue
		}
		if *ed.From >= len(list) {
			return nil, ferr(CodeOutOfRange, "entry "+strconv.Itoa(*ed.From)+" is not in the list of "+strconv.Itoa(len(list)))
		}
		decided++
		orig := list[*ed.From]
		switch {
		case ed.Op == EditKeep, ed.Op == EditReword && strings.TrimSpace(ed.Text) == strings.TrimSpace(orig):
			ed.Op, ed.Text = EditKeep, orig
		case ed.Op == EditDrop:
			ed.Text = ""
		}
	}
	if decided != len(list) {
		return nil, ferr(CodeTooFew, "decide every entry of the list: "+strconv.Itoa(decided)+" of "+strconv.Itoa(len(list))+" decided")
	}
	b, _ := json.Marshal(es)
	return b, nil
}

// EditedList returns the list a list_edit answer produces: the text of every
// entry not dropped, in order.
func EditedList(raw json.RawMessage) ([]string, error) {
	es, e := decodeListEdit(raw)
	if e != nil {
		return nil, errors.New(e.Message)
	}
	out := []string{}
	for _, ed := range es {
		if ed.Op != EditDrop {
			out = append(out, strings.TrimSpace(ed.Text))
		}
	}
	return out, nil
}
