package exports

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// Stable error codes of spec validation, reported in tasks.FieldError.Code
// next to the tasks codes (required, invalid_value, duplicate_key).
const (
	CodeUnknownFormat       = "unknown_format"
	CodeFormatNotApplicable = "format_not_applicable"
	CodeUnknownOption       = "unknown_option"
	CodeOptionNotApplicable = "option_not_applicable"
	CodeConflict            = "conflicting_options"
	CodeMissingSplitKey     = "missing_split_key"
	CodeInvalidSplit        = "invalid_split"
	CodeInvalidAnswer       = "invalid_answer"
)

// Media modes: media referenced by URL or path as given, or copied into the
// release by the caller (which then streams release-relative paths).
const (
	MediaReference = "reference"
	MediaCopy      = "copy"
)

// Spec is a validated export request: the formats to write and every
// option with its default filled in. Build it with ParseSpec.
type Spec struct {
	// Formats are the selected format names, in the order given.
	Formats []string
	// IncludeDropped also exports dropped and unresolved items, marked with
	// their status and drop reason (option include_dropped, default false).
	IncludeDropped bool
	// Raw writes each item's labels and reviews (option raw, default false).
	Raw bool
	// Split assigns items to splits.
	Split SplitSpec
	// Filter keeps only items whose metadata value at each key is one of
	// the listed values (option filter or filter.<key>).
	Filter map[string][]string
	// Media is MediaReference or MediaCopy (option media); the caller does
	// the copying, the release records the choice.
	Media string
	// Ties keeps tie records in the omnireward files (option ties, default
	// true; false gives the paper's "w/o Ties" variant).
	Ties bool
	// HiddenInputs writes the schema's hidden inputs (the generator) into
	// the d3omni records (option hidden_inputs, default false).
	HiddenInputs bool
	// RowGroupRows bounds the rows of one parquet row group (option
	// row_group_rows, default 10000), which bounds the hf writer's memory.
	RowGroupRows int
}

// SplitSpec says how items are assigned to splits: all to one named split,
// by a metadata key, or by ratios over a hash of a cluster key.
type SplitSpec struct {
	// Name is the one split used when neither Key nor Ratios is set
	// (option split, default "test": the benchmarks are evaluation sets).
	Name string `json:"name,omitempty"`
	// Key is the metadata key holding each item's split (option split_key).
	Key string `json:"key,omitempty"`
	// Ratios are split shares summing to 1, sorted by name (option
	// split_ratios, "train=0.8,test=0.2" or {"train": 0.8, "test": 0.2}).
	Ratios []SplitRatio `json:"ratios,omitempty"`
	// ClusterKey is the metadata key whose items stay together in one split
	// (option cluster_key); empty hashes the item's external id.
	ClusterKey string `json:"cluster_key,omitempty"`
	// Seed varies the ratio assignment (option split_seed, default 0).
	Seed uint64 `json:"seed"`
}

// SplitRatio is one split's share.
type SplitRatio struct {
	// Name is the split's name.
	Name string `json:"name"`
	// Share is the split's share of the clusters, in (0, 1].
	Share float64 `json:"share"`
}

// Validate checks formats and options against a schema without building
// anything. It returns tasks.FieldErrors keyed "formats", "formats[i]" or
// "options.<key>", or nil. Call it before starting a release job.
func Validate(schema *tasks.Schema, formats []string, options map[string]any) error {
	_, err := ParseSpec(schema, formats, options)
	return err
}

// ParseSpec validates formats and options (decoded JSON values; strings are
// accepted for booleans and numbers, as the command line sends them) and
// returns the spec with defaults. Errors are tasks.FieldErrors.
func ParseSpec(schema *tasks.Schema, formats []string, options map[string]any) (*Spec, error) {
	fe := tasks.FieldErrors{}
	s := &Spec{Split: SplitSpec{Name: "test"}, Media: MediaReference, Ties: true, RowGroupRows: 10000}
	s.Formats = parseFormats(fe, schema, formats)
	for _, key := range slices.Sorted(maps.Keys(options)) {
		parseOption(fe, s, key, options[key])
	}
	s.checkSplit(fe, options)
	if s.Split.Key != "" || len(s.Split.Ratios) > 0 {
		s.Split.Name = ""
	}
	return s, fe.Err()
}

// parseFormats checks the format list: known, distinct, fitting the schema.
func parseFormats(fe tasks.FieldErrors, schema *tasks.Schema, names []string) []string {
	if len(names) == 0 {
		fe["formats"] = tasks.FieldError{Code: tasks.CodeRequired, Message: "choose at least one format: " + strings.Join(FormatNames(), ", ")}
		return nil
	}
	var out []string
	for i, name := range names {
		p := fmt.Sprintf("formats[%d]", i)
		f, ok := lookupFormat(name)
		switch {
		case !ok:
			fe[p] = tasks.FieldError{Code: CodeUnknownFormat, Message: fmt.Sprintf("unknown format %q; formats are %s", name, strings.Join(FormatNames(), ", "))}
		case slices.Contains(out, name):
			fe[p] = tasks.FieldError{Code: tasks.CodeDuplicateKey, Message: fmt.Sprintf("format %q is given twice", name)}
		default:
			if err := f.fits(schema); err != nil {
				fe[p] = tasks.FieldError{Code: CodeFormatNotApplicable, Message: fmt.Sprintf("format %s does not fit this schema: %v", name, err)}
				continue
			}
			out = append(out, name)
		}
	}
	return out
}

// parseOption applies one option, or records why it cannot.
func parseOption(fe tasks.FieldErrors, s *Spec, key string, v any) {
	p := "options." + key
	name := key
	if strings.HasPrefix(key, "filter.") {
		name = "filter."
	}
	def, ok := optionDefs[name]
	if !ok {
		fe[p] = tasks.FieldError{Code: CodeUnknownOption, Message: fmt.Sprintf("unknown option %q; options are %s", key, strings.Join(OptionNames(), ", "))}
		return
	}
	if def.format != "" && !slices.Contains(s.Formats, def.format) {
		fe[p] = tasks.FieldError{Code: CodeOptionNotApplicable, Message: fmt.Sprintf("option %s applies to format %s, which is not selected", key, def.format)}
		return
	}
	if err := def.apply(s, key, v); err != nil {
		fe[p] = tasks.FieldError{Code: tasks.CodeInvalidValue, Message: fmt.Sprintf("option %s: %v", key, err)}
	}
}

// checkSplit rejects combinations of split options that contradict.
func (s *Spec) checkSplit(fe tasks.FieldErrors, options map[string]any) {
	_, named := options["split"]
	conflict := func(key, msg string) {
		if _, ok := fe["options."+key]; !ok {
			fe["options."+key] = tasks.FieldError{Code: CodeConflict, Message: msg}
		}
	}
	switch {
	case s.Split.Key != "" && len(s.Split.Ratios) > 0:
		conflict("split_key", "split_key and split_ratios exclude each other: take splits from metadata or assign them by ratio")
	case named && (s.Split.Key != "" || len(s.Split.Ratios) > 0):
		conflict("split", "split names the one split of a release without split_key or split_ratios")
	case s.Split.ClusterKey != "" && len(s.Split.Ratios) == 0:
		conflict("cluster_key", "cluster_key keeps clusters together under split_ratios; set split_ratios too")
	}
	if _, ok := options["split_seed"]; ok && len(s.Split.Ratios) == 0 {
		conflict("split_seed", "split_seed only applies with split_ratios")
	}
}

// Options returns the effective options, defaults included, as the
// manifest records them. Options of formats not selected are left out.
func (s *Spec) Options() map[string]any {
	out := map[string]any{
		"include_dropped": s.IncludeDropped, "raw": s.Raw, "media": s.Media, "split": s.Split,
	}
	if slices.Contains(s.Formats, "omnireward") {
		out["ties"] = s.Ties
	}
	if slices.Contains(s.Formats, "hf") {
		out["row_group_rows"] = s.RowGroupRows
	}
	if slices.Contains(s.Formats, "d3omni") {
		out["hidden_inputs"] = s.HiddenInputs
	}
	return out
}

// Matches reports whether an item's metadata passes the metadata filter
// (always true without one), as Export applies it.
func (s *Spec) Matches(meta map[string]json.RawMessage) bool {
	for key, vals := range s.Filter {
		v, ok := metaString(meta, key)
		if !ok || !slices.Contains(vals, v) {
			return false
		}
	}
	return true
}

// filters returns the metadata filter for the manifest (never nil).
func (s *Spec) filters() map[string][]string {
	if s.Filter == nil {
		return map[string][]string{}
	}
	return s.Filter
}

// metaString reads a metadata value as a string: JSON strings as is,
// numbers and booleans as written; objects, arrays and null do not count.
func metaString(meta map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := meta[key]
	if !ok {
		return "", false
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, x != ""
	case float64, bool:
		return strings.TrimSpace(string(raw)), true
	}
	return "", false
}
