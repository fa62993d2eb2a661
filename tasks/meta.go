package tasks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// MetaField declares one key of an item's hidden metadata: its label and,
// when Options is set, the closed list of values it may take (Judge
// Anything's 15 task categories), so reports and exports can group by it.
type MetaField struct {
	Key   string `json:"key"`
	Label string `json:"label,omitempty"`
	Help  string `json:"help,omitempty"`
	// Options is the closed list of string values; empty means any JSON.
	Options []string `json:"options,omitempty"`
	// Required metadata must be present on every item.
	Required bool `json:"required,omitempty"`
}

// validateMeta checks the meta declarations: unique keys, distinct options.
func (s *Schema) validateMeta(fe FieldErrors) {
	seen := map[string]bool{}
	for i, m := range s.Meta {
		p := fmt.Sprintf("meta[%d]", i)
		checkKey(fe, p+".key", m.Key, seen)
		opts := map[string]bool{}
		for j, o := range m.Options {
			switch {
			case o == "":
				fe.add(fmt.Sprintf("%s.options[%d]", p, j), CodeRequired, "an option must not be empty")
			case opts[o]:
				fe.add(fmt.Sprintf("%s.options[%d]", p, j), CodeDuplicateKey, "option %q is listed twice", o)
			}
			opts[o] = true
		}
	}
}

// checkItemMeta checks an item's metadata against the declarations: required
// keys present, closed lists respected. Errors are keyed "meta.<key>".
func (s *Schema) checkItemMeta(fe FieldErrors, meta map[string]json.RawMessage) {
	for _, m := range s.Meta {
		raw, ok := meta[m.Key]
		if !ok || isNull(raw) {
			if m.Required {
				fe.add("meta."+m.Key, CodeRequired, "metadata %q is required", m.Key)
			}
			continue
		}
		if len(m.Options) == 0 {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil || !slices.Contains(m.Options, v) {
			fe.add("meta."+m.Key, CodeUnknownOption, "metadata %q must be one of %v, got %s", m.Key, m.Options, strconv.Quote(string(raw)))
		}
	}
}
