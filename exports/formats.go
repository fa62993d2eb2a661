package exports

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// entry is one record ready for the writers: pseudonymised, split, with
// canonical JSON and decoded answers.
type entry struct {
	*Record
	// answered and normalized hold the decoded ground truth by question key
	// (see decodeAnswers); empty for items without ground truth.
	answered   map[string]any
	normalized map[string]any
	// missing lists, in schema order, the questions the system answered
	// tasks.AnswerMissing (the item lacked an input they need); they are in
	// neither answered nor normalized.
	missing []string
	// cands holds the decoded candidates inputs by input name.
	cands map[string][]tasks.Candidate
	// metaJSON is the metadata object as canonical JSON text.
	metaJSON string
}

// resolved reports whether the item has ground truth.
func (e *entry) resolved() bool { return e.Status == StatusDone }

// candidates returns a decoded candidates input; nil when absent. Entries
// are read by several writers at once, so they are never changed after
// prepare.
func (e *entry) candidates(name string) []tasks.Candidate { return e.cands[name] }

// decodeCandidates decodes every candidates input of the schema.
func decodeCandidates(s *tasks.Schema, inputs map[string]json.RawMessage) (map[string][]tasks.Candidate, string, error) {
	var out map[string][]tasks.Candidate
	for _, in := range s.Inputs {
		raw := inputs[in.Name]
		if in.Type != tasks.InputCandidates || isNull(raw) {
			continue
		}
		var cs []tasks.Candidate
		if err := json.Unmarshal(raw, &cs); err != nil {
			return nil, in.Name, err
		}
		if out == nil {
			out = map[string][]tasks.Candidate{}
		}
		out[in.Name] = cs
	}
	return out, "", nil
}

// env is what a format writer is opened with.
type env struct {
	rel   *Release
	spec  *Spec
	files *fileSet
}

// writer writes the records of one format.
type writer interface {
	// write takes one record; records arrive in stream order. It writes
	// the record exactly when leaves names no loss.
	write(e *entry) error
	// leaves names the kind and reason of the loss when the format leaves
	// an exported record out, ("", "") when it holds it. The tally calls it
	// from the exporter's goroutine while write runs on the writer's own, so
	// it reads only what the writer was opened with.
	leaves(e *entry) (kind, reason string)
	// close finishes every file the writer opened.
	close() error
}

// holdsAll is the leaves of a format that writes every exported record.
type holdsAll struct{}

func (holdsAll) leaves(*entry) (string, string) { return "", "" }

// groundTruthOnly is the loss of a benchmark format, which holds only items
// with ground truth, for an entry without any.
func groundTruthOnly(e *entry) (string, string) {
	if e.resolved() {
		return "", ""
	}
	return LossNoGroundTruth, string(e.Status)
}

// format is one export format.
type format struct {
	name  string
	about string
	// fits reports why a schema cannot be exported in the format, or nil.
	fits func(s *tasks.Schema) error
	open func(env *env) (writer, error)
}

// formatList is every format in documentation order.
var formatList = []format{
	{"jsonl", "canonical records, one JSON object per line: jsonl/<split>.jsonl", fitsAny, openJSONL},
	{"csv", "flat table, one column per question (checklist items as their own columns): csv/<split>.csv", fitsAny, openCSV},
	{"hf", "Hugging Face datasets layout: data/<split>-00000-of-00001.parquet with typed columns", fitsAny, openHF},
	{"d3omni", "D3-Omni: per task, the Yes/No array in rubric order and the total score: d3omni/<split>/<task>.jsonl", fitsD3Omni, openD3Omni},
	{"omnireward", "Omni-RewardBench: omnireward/<split>/<task>_preferences.json arrays", fitsOmniReward, openOmniReward},
	{"judgeanything", "Judge Anything: queries, responses, checklists and human judgments (scores 1-5 or choices 0/1/2) per rubric", fitsJudgeAnything, openJudgeAnything},
	{"robojudge", "RoboJudge: per-item records, per-axis SFT JSONL and reward-only JSONL per split", fitsRoboJudge, openRoboJudge},
	{"storybench", "Omni-StoryBench: per track, each criterion as {score, rationale} under the paper's keys", fitsStoryBench, openStoryBench},
}

// FormatInfo describes one format for clients (API docs, the releases page).
type FormatInfo struct {
	// Name is the format's name in a release request.
	Name string `json:"name"`
	// Description says what the format writes and where.
	Description string `json:"description"`
	// Options are the option keys that belong to this format alone.
	Options []string `json:"options"`
}

// Formats lists every format with the options of its own.
func Formats() []FormatInfo {
	out := make([]FormatInfo, 0, len(formatList))
	for _, f := range formatList {
		opts := []string{}
		for _, k := range slices.Sorted(maps.Keys(optionDefs)) {
			if optionDefs[k].format == f.name {
				opts = append(opts, k)
			}
		}
		out = append(out, FormatInfo{Name: f.name, Description: f.about, Options: opts})
	}
	return out
}

// FormatNames lists the format names in documentation order.
func FormatNames() []string {
	out := make([]string, 0, len(formatList))
	for _, f := range formatList {
		out = append(out, f.name)
	}
	return out
}

func lookupFormat(name string) (format, bool) {
	for _, f := range formatList {
		if f.name == name {
			return f, true
		}
	}
	return format{}, false
}

// fitsAny accepts every schema.
func fitsAny(*tasks.Schema) error { return nil }

// splitFiles opens one file per split on first use.
type splitFiles struct {
	env    *env
	format string
	path   func(split string) string
	files  map[string]*outFile
	// start is called once on a new file (e.g. to write a header).
	start func(f *outFile) error
}

// get returns the file of a split, opening it when needed.
func (sf *splitFiles) get(split string) (*outFile, error) {
	if f, ok := sf.files[split]; ok {
		return f, nil
	}
	f, err := sf.env.files.create(sf.path(split), sf.format)
	if err != nil {
		return nil, err
	}
	if sf.files == nil {
		sf.files = map[string]*outFile{}
	}
	sf.files[split] = f
	if sf.start != nil {
		if err := sf.start(f); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// closeAll closes every file in key order, returning the first error.
func (sf *splitFiles) closeAll(finish func(f *outFile) error) error {
	var first error
	for _, k := range slices.Sorted(maps.Keys(sf.files)) {
		f := sf.files[k]
		if finish != nil {
			if err := finish(f); err != nil && first == nil {
				first = err
			}
		}
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
