package exports

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// optionDef is one option: the format it belongs to ("" for every format)
// and how it sets the spec.
type optionDef struct {
	format string
	about  string
	apply  func(s *Spec, key string, v any) error
}

// optionDefs lists every option; "filter." stands for every filter.<key>.
var optionDefs = map[string]optionDef{
	"include_dropped": {"", "also export dropped and unresolved items, marked (bool, default false)",
		func(s *Spec, _ string, v any) (err error) { s.IncludeDropped, err = asBool(v); return }},
	"raw": {"", "include each item's labels as their annotators gave them and the reviews with the reviewers' corrections, pseudonymised with their roles (bool, default false)",
		func(s *Spec, _ string, v any) (err error) { s.Raw, err = asBool(v); return }},
	"split":        {"", `the one split of the release (default "test")`, applySplitName},
	"split_key":    {"", "metadata key holding each item's split", applySplitKey},
	"split_ratios": {"", `split shares, "train=0.8,test=0.2"`, applyRatios},
	"cluster_key":  {"", "metadata key whose items stay in one split under split_ratios", applyClusterKey},
	"split_seed": {"", "seed of the ratio assignment (integer, default 0)",
		func(s *Spec, _ string, v any) error {
			n, err := asInt(v)
			if err == nil && n < 0 {
				err = errors.New("must not be negative")
			}
			s.Split.Seed = uint64(n)
			return err
		}},
	"filter":  {"", `keep items whose metadata matches, {"task": ["text_to_image"]}`, applyFilter},
	"filter.": {"", "filter.<key>=v1,v2: keep items whose metadata key is one of the values", applyFilter},
	"media":   {"", `"reference" (paths or URLs as given, the default here) or "copy" (media copied into the release by the caller, the default of a server's release)`, applyMedia},
	"hidden_inputs": {"d3omni", "write the schema's hidden inputs (the generator) into d3omni records (bool, default false; the benchmark's records have none)",
		func(s *Spec, _ string, v any) (err error) { s.HiddenInputs, err = asBool(v); return }},
	"ties": {"omnireward", "keep tie records (bool, default true; false is the w/o Ties variant)",
		func(s *Spec, _ string, v any) (err error) { s.Ties, err = asBool(v); return }},
	"row_group_rows": {"hf", "rows per parquet row group (integer 100..1000000, default 10000)",
		func(s *Spec, _ string, v any) error {
			n, err := asInt(v)
			if err == nil && (n < 100 || n > 1_000_000) {
				err = errors.New("must be between 100 and 1000000")
			}
			s.RowGroupRows = int(n)
			return err
		}},
}

// OptionNames lists the option keys, sorted ("filter.<key>" for filters).
func OptionNames() []string {
	out := []string{}
	for k := range optionDefs {
		if k == "filter." {
			k = "filter.<key>"
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// splitName is the shape of a split name Hugging Face accepts.
var splitName = regexp.MustCompile(`^\w+(\.\w+)*$`)

// metaKey is the shape of a metadata key option value.
var metaKey = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,100}$`)

func applySplitName(s *Spec, _ string, v any) error {
	name, err := asString(v)
	if err == nil && !splitName.MatchString(name) {
		err = fmt.Errorf("%q is not a split name (letters, digits, _ and inner dots)", name)
	}
	s.Split.Name = name
	return err
}

func applySplitKey(s *Spec, _ string, v any) (err error) {
	s.Split.Key, err = asMetaKey(v)
	return err
}

func applyClusterKey(s *Spec, _ string, v any) (err error) {
	s.Split.ClusterKey, err = asMetaKey(v)
	return err
}

func applyMedia(s *Spec, _ string, v any) error {
	m, err := asString(v)
	if err == nil && m != MediaReference && m != MediaCopy {
		err = fmt.Errorf("must be %q or %q", MediaReference, MediaCopy)
	}
	s.Media = m
	return err
}

// applyRatios reads "train=0.8,test=0.2" or {"train": 0.8, "test": 0.2}.
func applyRatios(s *Spec, _ string, v any) error {
	shares := map[string]any{}
	switch x := v.(type) {
	case map[string]any:
		shares = x
	case string:
		for part := range strings.SplitSeq(x, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
			if !ok {
				name, val, ok = strings.Cut(part, ":")
			}
			if !ok {
				return fmt.Errorf(`expected "name=share,...", got %q`, x)
			}
			shares[strings.TrimSpace(name)] = strings.TrimSpace(val)
		}
	default:
		return errors.New(`expected "train=0.8,test=0.2" or an object of shares`)
	}
	ratios, err := checkRatios(shares)
	s.Split.Ratios = ratios
	return err
}

// checkRatios validates split shares: at least two names, each share in
// (0, 1], summing to 1.
func checkRatios(shares map[string]any) ([]SplitRatio, error) {
	if len(shares) < 2 {
		return nil, errors.New("give at least two splits")
	}
	var out []SplitRatio
	sum := 0.0
	for _, name := range slices.Sorted(maps.Keys(shares)) {
		f, err := asFloat(shares[name])
		switch {
		case !splitName.MatchString(name):
			return nil, fmt.Errorf("%q is not a split name", name)
		case err != nil:
			return nil, fmt.Errorf("%s: %v", name, err)
		case f <= 0 || f > 1:
			return nil, fmt.Errorf("%s: share must be in (0, 1]", name)
		}
		sum += f
		out = append(out, SplitRatio{Name: name, Share: f})
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, fmt.Errorf("shares sum to %g, not 1", sum)
	}
	return out, nil
}

// applyFilter reads filter {"key": "v" | ["v1", "v2"]} or filter.<key>.
func applyFilter(s *Spec, key string, v any) error {
	entries := map[string]any{}
	if field, ok := strings.CutPrefix(key, "filter."); ok {
		entries[field] = v
	} else if m, ok := v.(map[string]any); ok {
		entries = m
	} else {
		return errors.New(`expected an object such as {"task": ["text_to_image"]}`)
	}
	for field, val := range entries {
		if !metaKey.MatchString(field) {
			return fmt.Errorf("%q is not a metadata key", field)
		}
		vals, err := asValues(val)
		if err != nil {
			return fmt.Errorf("%s: %v", field, err)
		}
		if s.Filter == nil {
			s.Filter = map[string][]string{}
		}
		s.Filter[field] = vals
	}
	return nil
}

// asValues reads a filter's allowed values: a list of strings, or one
// string with comma-separated values.
func asValues(v any) ([]string, error) {
	var out []string
	switch x := v.(type) {
	case string:
		for p := range strings.SplitSeq(x, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	case []any:
		for _, e := range x {
			s, err := asString(e)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
	default:
		return nil, errors.New("expected a string or a list of strings")
	}
	if len(out) == 0 {
		return nil, errors.New("give at least one value")
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func asBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		if b, err := strconv.ParseBool(x); err == nil {
			return b, nil
		}
	}
	return false, errors.New("expected true or false")
}

func asInt(v any) (int64, error) {
	f, err := asFloat(v)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, errors.New("expected an integer")
	}
	return int64(f), nil
}

func asFloat(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case json.Number:
		return x.Float64()
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, nil
		}
	}
	return 0, errors.New("expected a number")
}

func asString(v any) (string, error) {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", errors.New("expected a non-empty string")
	}
	return strings.TrimSpace(s), nil
}

func asMetaKey(v any) (string, error) {
	s, err := asString(v)
	if err == nil && !metaKey.MatchString(s) {
		err = fmt.Errorf("%q is not a metadata key", s)
	}
	return s, err
}
