package tasks

import (
	"encoding/json"
	"slices"
)

// kind is the behaviour of one question kind: how its questions and answers
// validate, how answers decode and normalise, how consensus and agreement
// compare them, and what exports make of them. Each kind has one kind_*.go
// file with one type implementing every method, and one entry in kindTable;
// a kind that leaves a concern out does not compile.
type kind interface {
	// fields lists the kind-specific question fields (JSON names) that apply;
	// any other kind-specific field that is set is reported.
	fields() []string
	// validate checks the kind-specific fields of q; p is its path.
	validate(fe FieldErrors, p string, q Question, s *Schema)
	// check validates one present answer that is neither null nor missing.
	check(q Question, raw json.RawMessage, s *Schema) *FieldError
	// example is a valid answer value, for ExampleAnswers.
	example(q Question, s *Schema) any
	// decode reads a valid answer into its Go value as answered.
	decode(raw json.RawMessage) (any, error)
	// normalize maps a decoded answer to its value as analysed.
	normalize(q Question, v any) any
	// level is the level of measurement that follows from the kind.
	level() Level
	// consensus says how consensus compares the answers of a question.
	consensus() ConsensusRule
	// key is an answer's consensus key: answers with equal keys agree.
	key(q Question, raw json.RawMessage) string
	// distance is the distance agreement measures use between answers.
	distance() Distance
	// ratings reads an answer as agreement values.
	ratings(q Question, raw json.RawMessage, mode RatingMode) []Rating
	// judge says what a model judge's answers to the kind are evaluated as.
	judge() JudgeKind
	// feature is the column type of an answer in typed exports.
	feature(q Question, normalized bool) Feature
	// csv lists the csv columns of an answer.
	csv(q Question) []CSVColumn
	// scale describes the answer space for a dataset card.
	scale(q Question) string
}

// slotted is implemented by the kinds whose answers name candidate slots
// ("A", "B", ...): they compare the candidates of a candidates input, and
// their answers are remapped between shown and canonical order.
type slotted interface {
	// remap rewrites every slot of an answer with mapSlot.
	remap(raw json.RawMessage, mapSlot func(string) (string, error)) (json.RawMessage, error)
}

// itemBound is implemented by the kinds whose answers are checked against
// the item they answer and completed from it: list_edit fills in the text of
// the entries an answer keeps.
type itemBound interface {
	// complete checks an answer against item and returns it completed.
	complete(q Question, item Item, raw json.RawMessage) (json.RawMessage, *FieldError)
	// itemInputs names the inputs the answers are checked against.
	itemInputs(q Question) []string
}

// kindTable holds the behaviour of every kind in Kinds.
var kindTable = map[Kind]kind{
	KindBinary:      binaryKind{},
	KindLikert:      likertKind{},
	KindChoice:      choiceKind{},
	KindMultiChoice: multiChoiceKind{},
	KindPairwise:    pairwiseKind{},
	KindRanking:     rankingKind{},
	KindChecklist:   checklistKind{},
	KindText:        textKind{},
	KindCriteria:    criteriaKind{},
	KindListEdit:    listEditKind{},
}

// QuestionKind is a question together with the behaviour of its kind, as
// KindOf returns it. Its methods are what the rest of the product asks about
// a question's answers instead of switching on Kind.
type QuestionKind struct {
	q   Question
	def kind
}

// KindOf returns the behaviour of q's kind. A kind that is not one of Kinds
// (which schema validation refuses) behaves as a plain string answer that
// never validates; Known reports it.
func KindOf(q Question) QuestionKind {
	def, ok := kindTable[q.Kind]
	if !ok {
		def = unknownKind{}
	}
	return QuestionKind{q: q, def: def}
}

// Kind returns the question's kind.
func (k QuestionKind) Kind() Kind { return k.q.Kind }

// Known reports whether the kind is one of Kinds.
func (k QuestionKind) Known() bool { _, ok := kindTable[k.q.Kind]; return ok }

// Level returns the question's level of measurement: its Level when set,
// otherwise the kind's (see Question.MeasurementLevel).
func (k QuestionKind) Level() Level {
	if k.q.Level != "" {
		return k.q.Level
	}
	return k.def.level()
}

// Decode reads a valid answer (not null, not AnswerMissing) into its Go value
// as answered: binary, choice, pairwise and text a string; likert an int64,
// or the string "na"; multi_choice, ranking and criteria []string; checklist
// map[string]int64; list_edit the edited list, []string. An error means the
// answer does not have the kind's JSON shape.
func (k QuestionKind) Decode(raw json.RawMessage) (any, error) { return k.def.decode(raw) }

// Normalize maps a value from Decode to its value as analysed: binary true,
// false or nil (requirement satisfied, after polarity and N/A mapping),
// likert int64 or nil for N/A, multi_choice in option order; every other
// value is returned as it is.
func (k QuestionKind) Normalize(v any) any { return k.def.normalize(k.q, v) }

// Consensus says how consensus compares the question's answers.
func (k QuestionKind) Consensus() ConsensusRule { return k.def.consensus() }

// ConsensusKey returns the key consensus compares answers by under
// ConsensusEqual (and scores that are not numbers, such as a likert N/A,
// under ConsensusScore): answers with equal keys agree. Binary answers agree
// by "requirement satisfied" (N/A mapped to satisfied agrees with yes),
// multi_choice answers as sets, list_edit answers by the list they leave
// (case and spacing aside), every other answer as compact JSON.
func (k QuestionKind) ConsensusKey(raw json.RawMessage) string { return k.def.key(k.q, raw) }

// Distance returns the distance agreement measures use between answers.
func (k QuestionKind) Distance() Distance { return k.def.distance() }

// Ratings reads an answer as agreement values, on the item (UnitSuffix "")
// or on its sub-units: "/<item>" for checklist items, "/<slot>" for ranked
// candidates (the value is the rank, from 1). AnswerMissing, and answers that
// do not decode, give none. See RatingMode for how binary and N/A answers
// read.
func (k QuestionKind) Ratings(raw json.RawMessage, mode RatingMode) []Rating {
	if len(raw) == 0 || isMissing(raw) {
		return nil // note: the system's "missing" (no output to rate) is no rating
	}
	return k.def.ratings(k.q, raw, mode)
}

// Judge says what a model judge's answers to the question are evaluated as;
// JudgeNone for kinds a judge is not evaluated on.
func (k QuestionKind) Judge() JudgeKind { return k.def.judge() }

// JudgeValue is an answer as a judge record's value: "yes"/"no" after a
// binary question's polarity and N/A mapping ("" with ok for an N/A that
// maps to neither), the number of a likert answer, A/B/tie of a pairwise
// one; ok is false for answers that give none and for kinds a judge is not
// evaluated on.
func (k QuestionKind) JudgeValue(raw json.RawMessage) (string, bool) {
	j := k.Judge()
	if j == JudgeNone {
		return "", false
	}
	rs := k.Ratings(raw, RatingsAnalysed)
	if len(rs) != 1 || rs[0].UnitSuffix != "" {
		return "", false
	}
	if j != JudgeBinary {
		return rs[0].Value, true
	}
	switch rs[0].Value {
	case Satisfied.String():
		return AnswerYes, true
	case NotSatisfied.String():
		return AnswerNo, true
	}
	return "", true
}

// Feature returns the column type of the question's answer in typed exports
// (parquet, Hugging Face datasets), as answered or as analysed (normalized).
func (k QuestionKind) Feature(normalized bool) Feature { return k.def.feature(k.q, normalized) }

// CSVColumns lists the csv columns of the question's answer, in order.
func (k QuestionKind) CSVColumns() []CSVColumn { return k.def.csv(k.q) }

// Scale describes the question's answer space for a dataset card, e.g.
// "yes / no / N/A", "1-5" or "a / b / c"; the kind's name when it has no
// closed scale.
func (k QuestionKind) Scale() string { return k.def.scale(k.q) }

// ComparesCandidates reports whether answers name candidate slots ("A",
// "B", ...) of a candidates input: pairwise and ranking. Those answers are
// stored in canonical candidate order (see Shuffle).
func (k QuestionKind) ComparesCandidates() bool { _, ok := k.def.(slotted); return ok }

// allKindFields lists every kind-specific question field, in Question order.
var allKindFields = []string{"min", "max", "anchors", "options", "items", "allow_na", "na_means",
	"yes_means", "allow_tie", "candidates", "min_length", "max_length", "placeholder", "list", "list_key"}

// setFields returns the kind-specific fields of q that are set.
func setFields(q Question) []string {
	set := []bool{q.Min != nil, q.Max != nil, len(q.Anchors) > 0, len(q.Options) > 0, len(q.Items) > 0,
		q.AllowNA, q.NAMeans != "", q.YesMeans != "", q.AllowTie, q.Candidates != "",
		q.MinLength != 0, q.MaxLength != 0, q.Placeholder != "", q.List != "", q.ListKey != ""}
	var out []string
	for i, name := range allKindFields {
		if set[i] {
			out = append(out, name)
		}
	}
	return out
}

// validateKind checks the fields that depend on the question's kind, which
// is one of Kinds.
func validateKind(fe FieldErrors, p string, q Question, s *Schema) {
	def := kindTable[q.Kind]
	for _, f := range setFields(q) {
		if !slices.Contains(def.fields(), f) {
			fe.add(p+"."+f, CodeInvalidValue, "%s does not apply to %s questions", f, q.Kind)
		}
	}
	def.validate(fe, p, q, s)
}
