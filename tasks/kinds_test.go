package tasks

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// kindCase is what one kind must do with one question: a valid and an
// invalid answer, and what every concern of the table makes of the valid one.
type kindCase struct {
	q           Question
	valid       string
	invalid     string
	invalidCode string
	answered    any // Decode of valid
	normalized  any // Normalize of answered
	consensus   ConsensusRule
	agrees      string // another answer with valid's ConsensusKey
	differs     string // an answer whose ConsensusKey differs
	level       Level
	distance    Distance
	ratings     []Rating // RatingsAnalysed of valid
	rated       []Rating // RatingsAnswered of valid
	judge       JudgeKind
	judgeValue  string
	judged      bool
	feature     Feature // as answered
	normFeature Feature // as analysed
	csvSuffixes []string
	csvCells    []any
	scale       string
	compares    bool // ComparesCandidates
}

// kindCases holds a case for every kind of the table; TestEveryKind fails
// for a kind without one.
var kindCases = map[Kind]kindCase{
	KindBinary: {
		q:     Question{Kind: KindBinary, AllowNA: true, NAMeans: NANotSatisfied, YesMeans: YesMeansDefect},
		valid: `"no"`, invalid: `"maybe"`, invalidCode: CodeInvalidValue,
		answered: "no", normalized: true,
		consensus: ConsensusEqual, agrees: `"no"`, differs: `"yes"`,
		level: LevelNominal, distance: DistanceLevel,
		ratings: []Rating{{"", "satisfied"}}, rated: []Rating{{"", "no"}},
		judge: JudgeBinary, judgeValue: AnswerYes, judged: true,
		feature: Feature{Type: FeatureString}, normFeature: Feature{Type: FeatureBool},
		csvSuffixes: []string{"", ".satisfied"}, csvCells: []any{"no", true},
		scale: "yes / no / N/A",
	},
	KindLikert: {
		q:     Question{Kind: KindLikert, Min: ip(1), Max: ip(5), AllowNA: true, Anchors: []Anchor{{1, "poor"}}},
		valid: `4`, invalid: `6`, invalidCode: CodeOutOfRange,
		answered: int64(4), normalized: int64(4),
		consensus: ConsensusScore, agrees: ` 4 `, differs: `3`,
		level: LevelOrdinal, distance: DistanceLevel,
		ratings: []Rating{{"", "4"}}, rated: []Rating{{"", "4"}},
		judge: JudgeScore, judgeValue: "4", judged: true,
		feature: Feature{Type: FeatureString}, normFeature: Feature{Type: FeatureInt64},
		csvSuffixes: []string{""}, csvCells: []any{int64(4)},
		scale: "1-5 or N/A",
	},
	KindChoice: {
		q:     Question{Kind: KindChoice, Options: []Option{{Key: "happy", Label: "Happy"}, {Key: "sad", Label: "Sad"}}},
		valid: `"sad"`, invalid: `"angry"`, invalidCode: CodeUnknownOption,
		answered: "sad", normalized: "sad",
		consensus: ConsensusEqual, agrees: ` "sad"`, differs: `"happy"`,
		level: LevelNominal, distance: DistanceLevel,
		ratings: []Rating{{"", "sad"}}, rated: []Rating{{"", "sad"}},
		feature: Feature{Type: FeatureString}, normFeature: Feature{Type: FeatureString},
		csvSuffixes: []string{""}, csvCells: []any{"sad"},
		scale: "happy / sad",
	},
	KindMultiChoice: {
		q: Question{Kind: KindMultiChoice, Min: ip(1), Max: ip(2),
			Options: []Option{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}, {Key: "c", Label: "C"}}},
		valid: `["c","a"]`, invalid: `["a","a"]`, invalidCode: CodeDuplicateKey,
		answered: []string{"c", "a"}, normalized: []string{"a", "c"},
		consensus: ConsensusEqual, agrees: `["a", "c"]`, differs: `["a"]`,
		level: LevelNominal, distance: DistanceMASI,
		ratings: []Rating{{"", "a" + SetSeparator + "c"}}, rated: []Rating{{"", "a" + SetSeparator + "c"}},
		feature: Feature{Type: FeatureStringList}, normFeature: Feature{Type: FeatureStringList},
		csvSuffixes: []string{""}, csvCells: []any{"a|c"},
		scale: "a / b / c",
	},
	KindPairwise: {
		q:     Question{Kind: KindPairwise, Candidates: "pair", AllowTie: true},
		valid: `"B"`, invalid: `"C"`, invalidCode: CodeInvalidValue,
		answered: "B", normalized: "B",
		consensus: ConsensusEqual, agrees: `"B" `, differs: `"tie"`,
		level: LevelNominal, distance: DistanceLevel,
		ratings: []Rating{{"", "B"}}, rated: []Rating{{"", "B"}},
		judge: JudgePairwise, judgeValue: "B", judged: true,
		feature: Feature{Type: FeatureString}, normFeature: Feature{Type: FeatureString},
		csvSuffixes: []string{""}, csvCells: []any{"B"},
		scale: "A / B / tie", compares: true,
	},
	KindRanking: {
		q:     Question{Kind: KindRanking, Candidates: "pool"},
		valid: `["C","A","B"]`, invalid: `["A","B"]`, invalidCode: CodeTooFew,
		answered: []string{"C", "A", "B"}, normalized: []string{"C", "A", "B"},
		consensus: ConsensusEqual, agrees: `[ "C", "A", "B" ]`, differs: `["A","B","C"]`,
		level: LevelOrdinal, distance: DistanceLevel,
		ratings: []Rating{{"/C", "1"}, {"/A", "2"}, {"/B", "3"}}, rated: []Rating{{"/C", "1"}, {"/A", "2"}, {"/B", "3"}},
		feature: Feature{Type: FeatureStringList}, normFeature: Feature{Type: FeatureStringList},
		csvSuffixes: []string{""}, csvCells: []any{"C>A>B"},
		scale: "ranking", compares: true,
	},
	KindChecklist: {
		q:     Question{Kind: KindChecklist, Items: []ChecklistItem{{Key: "x", Label: "X", Max: 2}, {Key: "y", Label: "Y", Max: 3}}},
		valid: `{"y":1,"x":2}`, invalid: `{"x":3,"y":0}`, invalidCode: CodeOutOfRange,
		answered: map[string]int64{"x": 2, "y": 1}, normalized: map[string]int64{"x": 2, "y": 1},
		consensus: ConsensusItemScores, agrees: `{"y": 1, "x": 2}`, differs: `{"x":2,"y":2}`,
		level: LevelOrdinal, distance: DistanceLevel,
		ratings: []Rating{{"/x", "2"}, {"/y", "1"}}, rated: []Rating{{"/x", "2"}, {"/y", "1"}},
		feature:     Feature{Type: FeatureIntStruct, Fields: []string{"x", "y"}},
		normFeature: Feature{Type: FeatureIntStruct, Fields: []string{"x", "y"}},
		csvSuffixes: []string{".x", ".y"}, csvCells: []any{int64(2), int64(1)},
		scale: "x 0-2, y 0-3",
	},
	KindText: {
		q:     Question{Kind: KindText, MinLength: 3, MaxLength: 10, Placeholder: "Why?"},
		valid: `"fine work"`, invalid: `"ok"`, invalidCode: CodeTooShort,
		answered: "fine work", normalized: "fine work",
		consensus: ConsensusNone, agrees: ` "fine work"`, differs: `"poor work"`,
		level: LevelNone, distance: DistanceLevel,
		ratings: []Rating{{"", "fine work"}}, rated: []Rating{{"", "fine work"}},
		feature: Feature{Type: FeatureString}, normFeature: Feature{Type: FeatureString},
		csvSuffixes: []string{""}, csvCells: []any{"fine work"},
		scale: "text",
	},
	KindCriteria: {
		q:     Question{Kind: KindCriteria, Min: ip(1), Max: ip(3), MinLength: 2, Placeholder: "A criterion"},
		valid: `["clear","short"]`, invalid: `["Clear","clear"]`, invalidCode: CodeDuplicateKey,
		answered: []string{"clear", "short"}, normalized: []string{"clear", "short"},
		consensus: ConsensusNone, agrees: `["clear", "short"]`, differs: `["short","clear"]`,
		level: LevelNone, distance: DistanceLevel,
		feature: Feature{Type: FeatureStringList}, normFeature: Feature{Type: FeatureStringList},
		csvSuffixes: []string{""}, csvCells: []any{[]string{"clear", "short"}},
		scale: "criteria",
	},
	KindListEdit: {
		q:     Question{Kind: KindListEdit, List: "draft", Min: ip(1), MaxLength: 40},
		valid: `[{"op":"keep","from":0,"text":"Is it sharp?"},{"op":"add","text":"Is it lit?"}]`, invalid: `[{"op":"move","from":0}]`, invalidCode: CodeInvalidValue,
		answered: []string{"Is it sharp?", "Is it lit?"}, normalized: []string{"Is it sharp?", "Is it lit?"},
		consensus: ConsensusEqual, agrees: `[{"op":"reword","from":0,"text":"is it  SHARP?"},{"op":"add","text":"Is it lit?"}]`, differs: `[{"op":"drop","from":0},{"op":"add","text":"Is it lit?"}]`,
		level: LevelNominal, distance: DistanceLevel,
		ratings: []Rating{{"", `["Is it sharp?","Is it lit?"]`}}, rated: []Rating{{"", `["Is it sharp?","Is it lit?"]`}},
		feature: Feature{Type: FeatureStringList}, normFeature: Feature{Type: FeatureStringList},
		csvSuffixes: []string{""}, csvCells: []any{[]string{"Is it sharp?", "Is it lit?"}},
		scale: "list_edit",
	},
}

// kindSchema is a valid schema asking q, with the inputs every kind needs.
func kindSchema(q Question) Schema {
	q.Key, q.Label = "q", "Question"
	return Schema{Version: 1,
		Inputs: []Input{
			{Name: "prompt", Type: InputText},
			{Name: "pair", Type: InputCandidates, Count: 2},
			{Name: "pool", Type: InputCandidates, Count: 3},
			{Name: "draft", Type: InputJSON},
		},
		Questions: []Question{q}}
}

// TestKindTableCoversKinds checks that the table, Kinds and the published
// JSON Schema name the same kinds, and that the JSON Schema forbids on each
// kind exactly the kind-specific fields its entry does not take.
func TestKindTableCoversKinds(t *testing.T) {
	if got := slices.Sorted(maps.Keys(kindTable)); !slices.Equal(got, slices.Sorted(slices.Values(Kinds))) {
		t.Errorf("kindTable has %v, Kinds %v", got, Kinds)
	}
	m, _ := loadPublishedSchema(t)
	question := m.root["$defs"].(map[string]any)["question"].(map[string]any)
	enum := question["properties"].(map[string]any)["kind"].(map[string]any)["enum"].([]any)
	var published []Kind
	for _, k := range enum {
		published = append(published, Kind(k.(string)))
	}
	if !slices.Equal(published, Kinds) {
		t.Errorf("JSON Schema kind enum %v, Kinds %v", published, Kinds)
	}
	for _, k := range Kinds {
		def, ok := kindTable[k]
		if !ok {
			continue
		}
		for _, f := range def.fields() {
			if !slices.Contains(allKindFields, f) {
				t.Errorf("%s: field %q is not a kind-specific field", k, f)
			}
		}
		forbidden := publishedForbidden(t, m, k)
		want := slices.DeleteFunc(slices.Clone(allKindFields), func(f string) bool { return slices.Contains(def.fields(), f) })
		if !slices.Equal(slices.Sorted(slices.Values(forbidden)), slices.Sorted(slices.Values(want))) {
			t.Errorf("%s: JSON Schema forbids %v, the table %v", k, forbidden, want)
		}
	}
}

// publishedForbidden lists the fields the JSON Schema's only_<kind> forbids.
func publishedForbidden(t *testing.T, m miniSchema, k Kind) []string {
	t.Helper()
	def, ok := m.root["$defs"].(map[string]any)["only_"+string(k)].(map[string]any)
	if !ok {
		t.Errorf("%s: JSON Schema has no only_%s", k, k)
		return nil
	}
	var out []string
	for _, alt := range def["not"].(map[string]any)["anyOf"].([]any) {
		out = append(out, alt.(map[string]any)["required"].([]any)[0].(string))
	}
	return out
}

// TestEveryKind walks every kind of the table through every concern.
func TestEveryKind(t *testing.T) {
	m, _ := loadPublishedSchema(t)
	for _, k := range slices.Sorted(maps.Keys(kindTable)) {
		t.Run(string(k), func(t *testing.T) {
			c, ok := kindCases[k]
			if !ok {
				t.Fatalf("no kindCase for %s: add one", k)
			}
			s := kindSchema(c.q)
			if err := s.Validate(); err != nil {
				t.Fatalf("schema: %v", err)
			}
			if errs := checkPublished(m, s); len(errs) > 0 {
				t.Errorf("JSON Schema refuses the question: %v", errs)
			}
			checkForeignField(t, m, s)
			checkKindAnswers(t, s, c)
			checkKindAnalysis(t, KindOf(s.Questions[0]), c)
			checkKindExports(t, KindOf(s.Questions[0]), c)
		})
	}
}

// checkForeignField sets a kind-specific field the kind does not take and
// expects both Validate and the JSON Schema to refuse it.
func checkForeignField(t *testing.T, m miniSchema, s Schema) {
	t.Helper()
	q := &s.Questions[0]
	for _, f := range allKindFields {
		if slices.Contains(kindTable[q.Kind].fields(), f) {
			continue
		}
		saved := *q
		fieldSetters[f](q)
		if !slices.Contains(setFields(*q), f) {
			t.Errorf("setting %s is not seen by setFields", f)
		}
		if codes(t, s.Validate())["questions[0]."+f] != CodeInvalidValue {
			t.Errorf("%s on %s: Validate gives %v", f, q.Kind, s.Validate())
		}
		if len(checkPublished(m, s)) == 0 {
			t.Errorf("%s on %s: the JSON Schema accepts it", f, q.Kind)
		}
		*q = saved
	}
}

// fieldSetters sets each kind-specific field to a value that counts as set.
var fieldSetters = map[string]func(q *Question){
	"min": func(q *Question) { q.Min = ip(1) }, "max": func(q *Question) { q.Max = ip(2) },
	"anchors":  func(q *Question) { q.Anchors = []Anchor{{1, "a"}} },
	"options":  func(q *Question) { q.Options = []Option{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}} },
	"items":    func(q *Question) { q.Items = []ChecklistItem{{Key: "a", Label: "A", Max: 1}} },
	"allow_na": func(q *Question) { q.AllowNA = true }, "na_means": func(q *Question) { q.NAMeans = NAMissing },
	"yes_means": func(q *Question) { q.YesMeans = YesMeansDefect }, "allow_tie": func(q *Question) { q.AllowTie = true },
	"candidates": func(q *Question) { q.Candidates = "pair" }, "min_length": func(q *Question) { q.MinLength = 1 },
	"max_length": func(q *Question) { q.MaxLength = 5 }, "placeholder": func(q *Question) { q.Placeholder = "x" },
	"list": func(q *Question) { q.List = "draft" }, "list_key": func(q *Question) { q.ListKey = "entries" },
}

// checkKindAnswers validates the case's answers and decodes the valid one.
func checkKindAnswers(t *testing.T, s Schema, c kindCase) {
	t.Helper()
	if err := s.ValidateAnswers(Answers{"q": json.RawMessage(c.valid)}); err != nil {
		t.Errorf("valid answer %s refused: %v", c.valid, err)
	}
	if got := codes(t, s.ValidateAnswers(Answers{"q": json.RawMessage(c.invalid)}))["q"]; got != c.invalidCode {
		t.Errorf("invalid answer %s: code %q, want %q", c.invalid, got, c.invalidCode)
	}
	if err := s.ValidateAnswers(s.ExampleAnswers()); err != nil {
		t.Errorf("example answers %s refused: %v", s.ExampleAnswers()["q"], err)
	}
	k := KindOf(s.Questions[0])
	v, err := k.Decode(json.RawMessage(c.valid))
	if err != nil || !reflect.DeepEqual(v, c.answered) {
		t.Errorf("Decode(%s) = %#v, %v; want %#v", c.valid, v, err, c.answered)
	}
	if got := k.Normalize(v); !reflect.DeepEqual(got, c.normalized) {
		t.Errorf("Normalize(%#v) = %#v, want %#v", v, got, c.normalized)
	}
}

// checkKindAnalysis checks consensus, level, distance, ratings and judges.
func checkKindAnalysis(t *testing.T, k QuestionKind, c kindCase) {
	t.Helper()
	valid := json.RawMessage(c.valid)
	if !k.Known() || k.Kind() != c.q.Kind {
		t.Errorf("Known %v, Kind %s", k.Known(), k.Kind())
	}
	if k.Consensus() != c.consensus {
		t.Errorf("Consensus = %s, want %s", k.Consensus(), c.consensus)
	}
	if a, b := k.ConsensusKey(valid), k.ConsensusKey(json.RawMessage(c.agrees)); a != b {
		t.Errorf("ConsensusKey: %s gives %q, %s gives %q; want them equal", c.valid, a, c.agrees, b)
	}
	if a, b := k.ConsensusKey(valid), k.ConsensusKey(json.RawMessage(c.differs)); a == b {
		t.Errorf("ConsensusKey: %s and %s both give %q", c.valid, c.differs, a)
	}
	if k.Level() != c.level || k.q.MeasurementLevel() != c.level {
		t.Errorf("Level = %s, MeasurementLevel = %s, want %s", k.Level(), k.q.MeasurementLevel(), c.level)
	}
	if k.Distance() != c.distance {
		t.Errorf("Distance = %d, want %d", k.Distance(), c.distance)
	}
	if got := k.Ratings(valid, RatingsAnalysed); !slices.Equal(got, c.ratings) {
		t.Errorf("Ratings analysed = %q, want %q", got, c.ratings)
	}
	if got := k.Ratings(valid, RatingsAnswered); !slices.Equal(got, c.rated) {
		t.Errorf("Ratings answered = %q, want %q", got, c.rated)
	}
	if got := k.Ratings(missingJSON, RatingsAnswered); got != nil {
		t.Errorf("Ratings of missing = %q", got)
	}
	if k.Judge() != c.judge {
		t.Errorf("Judge = %q, want %q", k.Judge(), c.judge)
	}
	if v, ok := k.JudgeValue(valid); v != c.judgeValue || ok != c.judged {
		t.Errorf("JudgeValue = %q, %v; want %q, %v", v, ok, c.judgeValue, c.judged)
	}
	if k.ComparesCandidates() != c.compares {
		t.Errorf("ComparesCandidates = %v", k.ComparesCandidates())
	}
}

// checkKindExports checks the typed-export feature, the csv columns and
// cells, and the card scale.
func checkKindExports(t *testing.T, k QuestionKind, c kindCase) {
	t.Helper()
	if got := k.Feature(false); !reflect.DeepEqual(got, c.feature) {
		t.Errorf("Feature as answered = %+v, want %+v", got, c.feature)
	}
	if got := k.Feature(true); !reflect.DeepEqual(got, c.normFeature) {
		t.Errorf("Feature as analysed = %+v, want %+v", got, c.normFeature)
	}
	var suffixes []string
	var cells, empty []any
	for _, col := range k.CSVColumns() {
		suffixes = append(suffixes, col.Suffix)
		cells = append(cells, col.Cell(c.answered, c.normalized))
		empty = append(empty, col.Cell(nil, nil))
	}
	if !slices.Equal(suffixes, c.csvSuffixes) || !reflect.DeepEqual(cells, c.csvCells) {
		t.Errorf("CSV columns %q with cells %#v, want %q with %#v", suffixes, cells, c.csvSuffixes, c.csvCells)
	}
	for i, v := range empty {
		if v != nil && v != "" {
			t.Errorf("CSV column %q of no answer = %#v, want empty", suffixes[i], v)
		}
	}
	if got := k.Scale(); got != c.scale {
		t.Errorf("Scale = %q, want %q", got, c.scale)
	}
}
