package tasks

// ConsensusRule says how consensus compares the answers of a question.
type ConsensusRule int

// Consensus rules.
const (
	// ConsensusNone: answers are free text; they are gathered, never
	// compared (text, criteria).
	ConsensusNone ConsensusRule = iota
	// ConsensusEqual: answers agree when their ConsensusKey is equal;
	// majority voting applies to the keys.
	ConsensusEqual
	// ConsensusScore: integer scores agree within the ordinal tolerance, and
	// the answer is their median; an answer that is not a number (N/A) makes
	// the question compare by ConsensusKey instead (likert).
	ConsensusScore
	// ConsensusItemScores: each item of the answer is a score compared as
	// under ConsensusScore, and every item must agree (checklist).
	ConsensusItemScores
)

// String names the rule: "none", "equal", "score" or "item_scores".
func (r ConsensusRule) String() string {
	switch r {
	case ConsensusEqual:
		return "equal"
	case ConsensusScore:
		return "score"
	case ConsensusItemScores:
		return "item_scores"
	}
	return "none"
}

// Distance is the distance agreement measures use between two answers.
type Distance int

// Distances.
const (
	// DistanceLevel: the distance of the question's level of measurement
	// (nominal: equal or not; ordinal, interval, ratio: by rank or value).
	DistanceLevel Distance = iota
	// DistanceMASI: an answer is a set (its rating joins the keys with
	// SetSeparator), and sets are compared with the MASI set distance.
	DistanceMASI
)

// SetSeparator joins the option keys of a multi_choice answer into one
// agreement value.
const SetSeparator = "\x1f"

// RatingMode says how Ratings reads binary and N/A answers.
type RatingMode int

// Rating modes.
const (
	// RatingsAnalysed reads answers as analysed: binary answers are
	// "satisfied" or "not_satisfied" after the question's polarity and N/A
	// mapping (an N/A that maps to neither gives none), and a likert N/A
	// gives none. Agreement tables and reports use it.
	RatingsAnalysed RatingMode = iota
	// RatingsAnswered reads answers as given: binary "yes", "no" or "na",
	// and a likert N/A as a category of its own. Calibration feedback, which
	// is about the answer chosen, uses it.
	RatingsAnswered
)

// Rating is one agreement value of an answer, on the item (UnitSuffix "")
// or on one of its sub-units ("/<item>" or "/<slot>").
type Rating struct{ UnitSuffix, Value string }

// JudgeKind says what a model judge's answers to a question are evaluated
// as.
type JudgeKind string

// Judge kinds. The names are those judge evaluation groups carry.
const (
	// JudgeNone: judges are not evaluated on the kind.
	JudgeNone JudgeKind = ""
	// JudgeBinary: yes/no labels, after polarity and N/A mapping.
	JudgeBinary JudgeKind = "binary"
	// JudgeScore: numeric scores.
	JudgeScore JudgeKind = "score"
	// JudgePairwise: preferences A, B or tie.
	JudgePairwise JudgeKind = "pairwise"
)

// FeatureType is the type of an answer column in typed exports (parquet,
// Hugging Face datasets). Every answer column is optional (null when not
// answered).
type FeatureType string

// Feature types.
const (
	FeatureString     FeatureType = "string"
	FeatureInt64      FeatureType = "int64"
	FeatureBool       FeatureType = "bool"
	FeatureStringList FeatureType = "list<string>"
	// FeatureIntStruct is a struct of optional int64 fields, named by
	// Feature.Fields (checklist items).
	FeatureIntStruct FeatureType = "struct<int64>"
)

// Feature is the column type of one question's answer in typed exports.
type Feature struct {
	Type FeatureType
	// Fields names the fields of a FeatureIntStruct, in schema order.
	Fields []string
}

// CSVColumn is one csv column of a question's answer.
type CSVColumn struct {
	// Suffix follows the question's own column name: "" for the answer,
	// ".satisfied" for a binary answer as analysed, ".<item>" for a
	// checklist item.
	Suffix string
	// Cell returns the column's value from the answer as Decode and
	// Normalize give it (both nil when unanswered): a string, an int64, a
	// bool, nil for an empty cell, or a value the writer encodes as JSON.
	Cell func(answered, normalized any) any
}

// answeredCell is the cell of an answer as answered.
func answeredCell(answered, _ any) any { return answered }

// answeredColumn is the one column of kinds whose cell is the answer itself.
func answeredColumn() []CSVColumn { return []CSVColumn{{Cell: answeredCell}} }
