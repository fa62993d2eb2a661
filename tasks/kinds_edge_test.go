package tasks

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestUnknownKind checks that a kind outside the table is refused by schema
// validation and answer validation, and reads as a plain string otherwise.
func TestUnknownKind(t *testing.T) {
	s := kindSchema(Question{Kind: "slider"})
	if got := codes(t, s.Validate())["questions[0].kind"]; got != CodeInvalidKind {
		t.Errorf("Validate: code %q, want %q", got, CodeInvalidKind)
	}
	if got := codes(t, s.ValidateAnswers(Answers{"q": json.RawMessage(`"x"`)}))["q"]; got != CodeInvalidKind {
		t.Errorf("ValidateAnswers: code %q, want %q", got, CodeInvalidKind)
	}
	if a := s.ExampleAnswers(); string(a["q"]) != "null" {
		t.Errorf("example answer %s, want null", a["q"])
	}
	k := KindOf(s.Questions[0])
	if k.Known() {
		t.Error("slider is Known")
	}
	if v, err := k.Decode(json.RawMessage(`"x"`)); v != "x" || err != nil || k.Normalize(v) != "x" {
		t.Errorf("Decode = %v, %v", v, err)
	}
	raw := json.RawMessage(`"x"`)
	if k.Level() != LevelNominal || k.Consensus() != ConsensusEqual || k.ConsensusKey(raw) != `"x"` ||
		k.Distance() != DistanceLevel || k.Judge() != JudgeNone || k.Scale() != "slider" ||
		k.Feature(true).Type != FeatureString || len(k.CSVColumns()) != 1 || k.ComparesCandidates() {
		t.Errorf("unknown kind: level %s, consensus %s, scale %q", k.Level(), k.Consensus(), k.Scale())
	}
	if got := k.Ratings(raw, RatingsAnalysed); !slices.Equal(got, []Rating{{"", "x"}}) {
		t.Errorf("Ratings = %q", got)
	}
	if got := KindOf(Question{Kind: "slider", Level: LevelInterval}).Level(); got != LevelInterval {
		t.Errorf("a question's level does not override the kind's: %s", got)
	}
}

// TestKindSecondAnswers checks answers besides each case's valid one: N/A,
// other JSON layouts, and values that do not decode.
func TestKindSecondAnswers(t *testing.T) {
	kind := func(k Kind) QuestionKind { return KindOf(kindSchema(kindCases[k].q).Questions[0]) }
	likert, na := kind(KindLikert), json.RawMessage(`"na"`)
	if v, _ := likert.Decode(na); v != "na" || likert.Normalize(v) != nil {
		t.Errorf("likert N/A decodes to %#v, normalises to %#v", v, likert.Normalize(v))
	}
	if likert.Ratings(na, RatingsAnalysed) != nil || !slices.Equal(likert.Ratings(na, RatingsAnswered), []Rating{{"", "na"}}) {
		t.Errorf("likert N/A ratings %q / %q", likert.Ratings(na, RatingsAnalysed), likert.Ratings(na, RatingsAnswered))
	}
	if v, ok := likert.JudgeValue(na); ok {
		t.Errorf("likert N/A judge value %q", v)
	}
	open := KindOf(Question{Kind: KindBinary, AllowNA: true})
	if open.Ratings(na, RatingsAnalysed) != nil || open.ConsensusKey(na) != "na" || open.Normalize("na") != nil {
		t.Errorf("an unmapped binary N/A rates %q, keys %q", open.Ratings(na, RatingsAnalysed), open.ConsensusKey(na))
	}
	if v, ok := open.JudgeValue(na); ok {
		t.Errorf("an unmapped binary N/A judge value %q", v)
	}
	if v, ok := kind(KindRanking).JudgeValue(json.RawMessage(`["A","B","C"]`)); ok {
		t.Errorf("ranking judge value %q", v)
	}
	if v, err := kind(KindChecklist).Decode(json.RawMessage(`{ "x": 1 }`)); err != nil || !maps.Equal(v.(map[string]int64), map[string]int64{"x": 1}) {
		t.Errorf("spaced checklist decodes to %v, %v", v, err)
	}
	if v, err := kind(KindText).Decode(json.RawMessage(`"say \"hi\""`)); v != `say "hi"` || err != nil {
		t.Errorf("escaped text decodes to %q, %v", v, err)
	}
	bad := json.RawMessage(`{`)
	for _, k := range []Kind{KindChoice, KindMultiChoice, KindRanking, KindChecklist, KindListEdit} {
		if got := kind(k).Ratings(bad, RatingsAnalysed); got != nil {
			t.Errorf("%s rates %s as %q", k, bad, got)
		}
	}
	if got := kind(KindChoice).ConsensusKey(bad); got != "{" {
		t.Errorf("choice key of %s = %q", bad, got)
	}
	if got := kind(KindListEdit).ConsensusKey(bad); got != "{" {
		t.Errorf("list_edit key of %s = %q", bad, got)
	}
}

// TestKindScales checks the card scales that depend on a question's fields.
func TestKindScales(t *testing.T) {
	tests := []struct {
		q    Question
		want string
	}{
		{Question{Kind: KindBinary}, "yes / no"},
		{Question{Kind: KindLikert, Min: ip(0), Max: ip(10)}, "0-10"},
		{Question{Kind: KindLikert}, "likert"},
		{Question{Kind: KindPairwise}, "A / B"},
	}
	for _, tt := range tests {
		if got := KindOf(tt.q).Scale(); got != tt.want {
			t.Errorf("%s: Scale = %q, want %q", tt.q.Kind, got, tt.want)
		}
	}
	for r, want := range map[ConsensusRule]string{ConsensusNone: "none", ConsensusEqual: "equal", ConsensusScore: "score", ConsensusItemScores: "item_scores"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q, want %q", r, r.String(), want)
		}
	}
}

// TestInputsOf checks which inputs a question sees: those it names, in
// schema order, or all of them.
func TestInputsOf(t *testing.T) {
	s := kindSchema(Question{Kind: KindText})
	names := func(q Question) []string {
		var out []string
		for _, in := range s.InputsOf(q) {
			out = append(out, in.Name)
		}
		return out
	}
	if got := names(Question{}); !slices.Equal(got, []string{"prompt", "pair", "pool", "draft"}) {
		t.Errorf("no inputs named: sees %v", got)
	}
	if got := names(Question{Inputs: []string{"draft", "nope", "prompt"}}); !slices.Equal(got, []string{"prompt", "draft"}) {
		t.Errorf("draft, nope, prompt named: sees %v", got)
	}
}

// TestPassNeedsListInput checks that a pass must show the list a list_edit
// question edits.
func TestPassNeedsListInput(t *testing.T) {
	s := kindSchema(kindCases[KindListEdit].q)
	s.Passes = []Pass{{Key: "one", Label: "One", Inputs: []string{"prompt"}, Questions: []string{"q"}}}
	if got := codes(t, s.Validate())["passes[0].questions[0]"]; got != CodeInputMissing {
		t.Errorf("code %q, want %q", got, CodeInputMissing)
	}
	s.Passes[0].Inputs = []string{"prompt", "draft"}
	if err := s.Validate(); err != nil {
		t.Errorf("with the list shown: %v", err)
	}
}

// TestFlatIntObject checks the checklist fast path against encoding/json.
func TestFlatIntObject(t *testing.T) {
	tests := []struct {
		raw string
		ok  bool
	}{
		{`{"a":1,"b":2}`, true}, {`{"a":-1}`, true}, {`{}`, true}, {`{"x":0,"y":10}`, true},
		{`{"a": 1}`, true}, {" { \"a\" : 1 ,\n\t\"b\" :-2 } ", true}, {`{ }`, true},
		{`{"a":01}`, false}, {`{"a":+1}`, false}, {`{"a":-}`, false}, {`{"a":--1}`, false}, {`{"a":1}}`, false}, {`{"a":1} x`, false},
		{`{"a":1 2}`, false}, {"{\"a\x01\":1}", false}, {"{\"\xff\":1}", false}, {`{"a":1,}`, false}, {`{"a\"b":1}`, false}, {`{"a":1.5}`, false},
		{`{"a":"1"}`, false}, {`{"a"}`, false}, {`{"a":}`, false}, {`[1]`, false}, {`{`, false}, {`{"a`, false},
	}
	for _, tt := range tests {
		got, ok := flatIntObject([]byte(tt.raw))
		if ok != tt.ok {
			t.Errorf("%s: ok = %v, want %v", tt.raw, ok, tt.ok)
			continue
		}
		if ok {
			var want map[string]int64
			if err := json.Unmarshal([]byte(tt.raw), &want); err != nil || !maps.Equal(got, want) {
				t.Errorf("%s: got %v, encoding/json %v (%v)", tt.raw, got, want, err)
			}
		}
	}
}

func FuzzFlatIntObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"b":-2}`, `{}`, `{"a":`, `{ "a" : 1 , "b" : 2 }`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := flatIntObject([]byte(s))
		if !ok {
			return
		}
		var want map[string]int64
		if err := json.Unmarshal([]byte(s), &want); err != nil || !maps.Equal(got, want) {
			t.Errorf("%q: fast path %v, encoding/json %v (%v)", s, got, want, err)
		}
	})
}

// FuzzDecodeString: decodeString reads every raw value as json.Unmarshal into a string does,
// its fast path for plain ASCII included: the same string, or an error for both.
func FuzzDecodeString(f *testing.F) {
	for _, s := range []string{`"yes"`, `"no"`, `""`, `"a b"`, `"q\"uote"`, `"\u0079es"`, "\"tab\there\"", `"ключ"`, `"\x7f"`, `yes`, `"unclosed`, `"a"b"`, ` "yes" `, `null`, `1`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gerr := decodeString(raw)
		var want string
		werr := json.Unmarshal(raw, &want)
		if (gerr != nil) != (werr != nil) || werr == nil && got != want {
			t.Errorf("%q: decodeString %q (%v), json.Unmarshal %q (%v)", raw, got, gerr, want, werr)
		}
		if _, ok := plainASCII(raw); ok && werr != nil {
			t.Errorf("%q: taken as plain ASCII, refused by json.Unmarshal (%v)", raw, werr)
		}
	})
}

// FuzzMediaRefUnmarshal: a media reference decodes as it did by trying a string and then an
// object with json.Unmarshal, whatever shortcut UnmarshalJSON takes.
func FuzzMediaRefUnmarshal(f *testing.F) {
	for _, s := range []string{`"media/1.png"`, `{"url":"media/1.png"}`, `{"asset":"a1"}`, `null`, `""`, `"\u0061.png"`, `{}`, `[]`, `1`, `{"url":1}`, "\"tab\t\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want MediaRef
		var werr error
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			want = MediaRef{URL: s}
		} else {
			type plain MediaRef
			var p plain
			werr = json.Unmarshal(raw, &p)
			want = MediaRef(p)
		}
		var got MediaRef
		gerr := got.UnmarshalJSON(raw)
		if (gerr != nil) != (werr != nil) || werr == nil && got != want {
			t.Errorf("%q: %+v (%v), want %+v (%v)", raw, got, gerr, want, werr)
		}
	})
}
