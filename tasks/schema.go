package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	yaml "go.yaml.in/yaml/v3"
)

// FormatVersion is the version of the schema language itself (not of a
// project's schema). It is written as "format" in serialised schemas.
const FormatVersion = 1

// Schema is a project's task schema: the inputs of an item, who may see each
// one, and the questions asked about it.
type Schema struct {
	// Format is the schema language version; 0 is read as FormatVersion.
	Format int `json:"format,omitempty"`
	// Version is the project's schema version, starting at 1. Any change to the
	// content (ContentHash) gets a new version; annotations keep theirs.
	Version int `json:"version"`
	// Title names the task, e.g. "D3-Omni text-to-image".
	Title string `json:"title,omitempty"`
	// Instructions is short task-level guidance shown above the form.
	Instructions string `json:"instructions,omitempty"`
	// Groups optionally names the question groups (e.g. prompt / modality).
	Groups []Group `json:"groups,omitempty"`
	// Inputs are the parts of an item, in display order.
	Inputs []Input `json:"inputs"`
	// Questions are asked in this order.
	Questions []Question `json:"questions"`
	// Meta declares item metadata keys the schema knows, such as a closed
	// list of task categories; ValidateItem checks items against it.
	Meta []MetaField `json:"meta,omitempty"`
	// Passes splits the form into steps answered in order, each seeing only
	// its own inputs (see Pass); empty means one form with every question.
	Passes []Pass `json:"passes,omitempty"`
	// PassMode says who answers the passes; empty means PassSamePerson.
	PassMode PassMode `json:"pass_mode,omitempty"`
}

// Group names a set of questions, e.g. D3-Omni's prompt-related dimensions.
type Group struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Help  string `json:"help,omitempty"`
}

// InputType is the type of one item input.
type InputType string

// Input types. Media inputs hold an asset reference; candidates hold the
// outputs being compared, each of which is itself one of the media types.
const (
	InputText       InputType = "text"
	InputMarkdown   InputType = "markdown"
	InputImage      InputType = "image"
	InputImageList  InputType = "image_list"
	InputVideo      InputType = "video"
	InputAudio      InputType = "audio"
	InputModel3D    InputType = "model3d"
	InputJSON       InputType = "json"
	InputCandidates InputType = "candidates"
)

// InputTypes lists every input type in documentation order.
var InputTypes = []InputType{InputText, InputMarkdown, InputImage, InputImageList,
	InputVideo, InputAudio, InputModel3D, InputJSON, InputCandidates}

// CandidateTypes lists the types a single candidate may have.
var CandidateTypes = []InputType{InputText, InputMarkdown, InputImage, InputImageList,
	InputVideo, InputAudio, InputModel3D}

// Input is one named part of an item.
type Input struct {
	// Name is the key of the input in Item.Inputs.
	Name string `json:"name"`
	// Type says how the value is stored and rendered.
	Type InputType `json:"type"`
	// Label is the caption shown next to the input.
	Label string `json:"label,omitempty"`
	// Help explains the input to annotators.
	Help string `json:"help,omitempty"`
	// Hidden inputs (generator, source, ...) are removed from every view
	// except the lead's and those of the roles in VisibleTo.
	Hidden bool `json:"hidden,omitempty"`
	// VisibleTo lists extra roles that may see a hidden input.
	VisibleTo []Role `json:"visible_to,omitempty"`
	// Optional inputs may be missing from an item.
	Optional bool `json:"optional,omitempty"`
	// MaxItems bounds image_list length.
	MaxItems int `json:"max_items,omitempty"`
	// Count fixes the number of candidates (1 for a single output of any
	// modality, 2 for a pair); 0 means any number from 1.
	Count int `json:"count,omitempty"`
}

// Kind is the kind of a question.
type Kind string

// Question kinds.
const (
	KindBinary      Kind = "binary"
	KindLikert      Kind = "likert"
	KindChoice      Kind = "choice"
	KindMultiChoice Kind = "multi_choice"
	KindPairwise    Kind = "pairwise"
	KindRanking     Kind = "ranking"
	KindChecklist   Kind = "checklist"
	KindText        Kind = "text"
	KindCriteria    Kind = "criteria"
	// KindListEdit edits a list given as an input (a model's draft checklist):
	// each entry is kept, dropped or reworded, and entries may be added.
	KindListEdit Kind = "list_edit"
)

// Kinds lists every question kind in documentation order.
var Kinds = []Kind{KindBinary, KindLikert, KindChoice, KindMultiChoice, KindPairwise,
	KindRanking, KindChecklist, KindText, KindCriteria, KindListEdit}

// Polarity says what a "yes" to a binary question means.
type Polarity string

// Binary polarities.
const (
	// YesMeansSatisfied: "yes" means the requirement is satisfied (default).
	YesMeansSatisfied Polarity = "satisfied"
	// YesMeansDefect: the question asks about a defect ("Is there background
	// noise?"), so "yes" means the requirement is not satisfied.
	YesMeansDefect Polarity = "defect"
)

// NAMeaning says how an N/A answer to a binary question counts in analysis.
type NAMeaning string

// N/A mappings for binary questions.
const (
	NAMissing      NAMeaning = "missing"       // excluded from analysis (default)
	NASatisfied    NAMeaning = "satisfied"     // counts as requirement satisfied (D3-Omni)
	NANotSatisfied NAMeaning = "not_satisfied" // counts as requirement not satisfied
)

// Question is one question of the form.
type Question struct {
	// Key is stable across versions and names the answer, e.g. "composition".
	Key string `json:"key"`
	// Index is an optional stable 1-based position used by benchmark exports
	// (e.g. D3-Omni "Dimension 5"); unique when set.
	Index int `json:"index,omitempty"`
	// Kind selects the answer type and the fields below that apply.
	Kind Kind `json:"kind"`
	// Label is the question's name as shown, e.g. "Composition & Focus".
	Label string `json:"label"`
	// ShortLabel is a compact name for tables and plots.
	ShortLabel string `json:"short_label,omitempty"`
	// Help is the guideline text shown at the point of decision.
	Help string `json:"help,omitempty"`
	// Group is a Group key (or free text when Schema.Groups is empty).
	Group string `json:"group,omitempty"`
	// Required questions must be answered before submit.
	Required bool `json:"required,omitempty"`
	// Level overrides the level of measurement derived from Kind.
	Level Level `json:"level,omitempty"`
	// Inputs restricts which inputs this question may see; empty means all.
	Inputs []string `json:"inputs,omitempty"`
	// Needs names the inputs without which the question cannot be answered.
	// When an optional input it needs is absent from an item, the system
	// answers the question AnswerMissing; nobody is asked.
	Needs []string `json:"needs,omitempty"`

	// Min and Max bound a likert value, or the count of a multi_choice or
	// criteria answer.
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
	// Anchors label likert points (all or some).
	Anchors []Anchor `json:"anchors,omitempty"`
	// Options are the closed set of a choice or multi_choice question.
	Options []Option `json:"options,omitempty"`
	// Items are the sub-items of a checklist question.
	Items []ChecklistItem `json:"items,omitempty"`
	// AllowNA offers "N/A" on binary and likert questions.
	AllowNA bool `json:"allow_na,omitempty"`
	// NAMeans maps N/A for analysis on binary questions.
	NAMeans NAMeaning `json:"na_means,omitempty"`
	// YesMeans is the polarity of a binary question.
	YesMeans Polarity `json:"yes_means,omitempty"`
	// AllowTie offers "tie" on pairwise questions.
	AllowTie bool `json:"allow_tie,omitempty"`
	// Candidates names the candidates input a pairwise or ranking question
	// compares; it may be omitted when the schema has exactly one.
	Candidates string `json:"candidates,omitempty"`
	// MinLength and MaxLength bound text answers and each criterion, in
	// Unicode characters after trimming surrounding space.
	MinLength int `json:"min_length,omitempty"`
	MaxLength int `json:"max_length,omitempty"`
	// Placeholder is shown in empty text and criteria fields.
	Placeholder string `json:"placeholder,omitempty"`
	// List names the input a list_edit question edits: a list of strings, or
	// with ListKey an object whose ListKey member is that list.
	List    string `json:"list,omitempty"`
	ListKey string `json:"list_key,omitempty"`
}

// Anchor labels one point of a likert scale.
type Anchor struct {
	Value int    `json:"value"`
	Label string `json:"label"`
}

// Option is one choice of a choice or multi_choice question.
type Option struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Help  string `json:"help,omitempty"`
}

// ChecklistItem is one sub-item of a checklist, scored 0..Max.
type ChecklistItem struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Help  string `json:"help,omitempty"`
	Max   int    `json:"max"`
}

// Level is a level of measurement, used to pick agreement measures.
type Level string

// Levels of measurement. LevelNone marks free-text answers.
const (
	LevelNominal  Level = "nominal"
	LevelOrdinal  Level = "ordinal"
	LevelInterval Level = "interval"
	LevelRatio    Level = "ratio"
	LevelNone     Level = "none"
)

// MeasurementLevel returns q.Level when set and otherwise the level that
// follows from the kind: binary, choice, multi_choice, pairwise and
// list_edit are nominal; likert, ranking and checklist are ordinal; text and
// criteria none. It is KindOf(q).Level().
func (q Question) MeasurementLevel() Level { return KindOf(q).Level() }

// Question returns the question with the given key.
func (s *Schema) Question(key string) (Question, bool) {
	for _, q := range s.Questions {
		if q.Key == key {
			return q, true
		}
	}
	return Question{}, false
}

// Input returns the input with the given name.
func (s *Schema) Input(name string) (Input, bool) {
	for _, in := range s.Inputs {
		if in.Name == name {
			return in, true
		}
	}
	return Input{}, false
}

// ParseJSON reads a schema from JSON, rejecting unknown fields. It does not
// validate; call Validate on the result.
func ParseJSON(r io.Reader) (Schema, error) {
	var s Schema
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Schema{}, fmt.Errorf("tasks: parse schema: %w", err)
	}
	return s, nil
}

// ParseYAML reads a schema from YAML. Field names are the JSON names; the
// document is converted to JSON and read with ParseJSON.
func ParseYAML(r io.Reader) (Schema, error) {
	b, err := yamlToJSON(r)
	if err != nil {
		return Schema{}, fmt.Errorf("tasks: parse schema: %w", err)
	}
	return ParseJSON(bytes.NewReader(b))
}

// yamlToJSON decodes one YAML document and re-encodes it as JSON.
func yamlToJSON(r io.Reader) ([]byte, error) {
	var v any
	if err := yaml.NewDecoder(r).Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// MarshalJSON writes inputs and questions as [] rather than null when empty,
// so clients can always iterate them.
func (s Schema) MarshalJSON() ([]byte, error) {
	type plain Schema
	p := plain(s)
	if p.Inputs == nil {
		p.Inputs = []Input{}
	}
	if p.Questions == nil {
		p.Questions = []Question{}
	}
	return json.Marshal(p)
}
