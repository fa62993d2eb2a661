package workflow

import (
	"reflect"
	"testing"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// criteriaForms are the forms a criteria stage may name: one with a criteria question, and one
// without.
var criteriaForms = map[string]tasks.Schema{
	"criteria": {Questions: []tasks.Question{{Key: "criteria", Kind: tasks.KindCriteria}, {Key: "note", Kind: tasks.KindText}}},
}

func TestPolicyDefaults(t *testing.T) {
	got := Policy{}.Defaults()
	want := Policy{Overlap: 1, Review: ReviewNone, Adjudication: AdjudicateOnDisagreement, Consensus: Consensus{Nominal: NominalUnanimous},
		OnNoConsensus: NoConsensusAdjudicate, LeaseMinutes: 30, GoldMinAccuracy: 0.8, GoldWindow: 20, RushedSeconds: 3, ReliabilityMinAccuracy: 0.7}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults %+v, want %+v", got, want)
	}
	if err := got.Validate(&testSchema, nil); err != nil {
		t.Fatalf("the defaults are invalid: %v", err)
	}
	if p := (Policy{Adjudication: AdjudicateNever}).Defaults(); p.OnNoConsensus != NoConsensusDrop {
		t.Fatalf("never adjudicated, items without consensus %s", p.OnNoConsensus)
	}
	set := Policy{Overlap: 3, LeaseMinutes: 5, GoldMinAccuracy: 0.5, GoldWindow: 7, RushedSeconds: 1, OnNoConsensus: NoConsensusDrop}.Defaults()
	if set.Overlap != 3 || set.LeaseMinutes != 5 || set.GoldMinAccuracy != 0.5 || set.GoldWindow != 7 || set.RushedSeconds != 1 || set.OnNoConsensus != NoConsensusDrop {
		t.Fatalf("defaults replaced set values: %+v", set)
	}

	cs := &CriteriaStage{Form: "criteria", Question: "criteria", InputName: "prompt"}
	d := &DraftPolicy{Method: DraftMean}
	in := Policy{CriteriaStage: cs, DraftFromPredictions: d, Languages: []string{"fr", "EN-us", "fr"}}
	out := in.Defaults()
	if out.CriteriaStage.Overlap != 1 || out.DraftFromPredictions.Rounding != RoundHalfUp || !reflect.DeepEqual(out.Languages, []string{"en-US", "fr"}) {
		t.Fatalf("defaults %+v %+v %v", out.CriteriaStage, out.DraftFromPredictions, out.Languages)
	}
	if cs.Overlap != 0 || d.Rounding != "" {
		t.Fatalf("Defaults changed the policy it was called on: criteria overlap %d, rounding %q", cs.Overlap, d.Rounding)
	}
	if bad := (Policy{Languages: []string{"en", "not a tag!"}}).Defaults(); !reflect.DeepEqual(bad.Languages, []string{"en", "not a tag!"}) {
		t.Fatalf("bad tags were not kept for Validate to name: %v", bad.Languages)
	}
}

// TestPolicyValidate refuses every field out of its range or set, each under its own path.
func TestPolicyValidate(t *testing.T) {
	criteria := func(edit func(*CriteriaStage)) *CriteriaStage {
		c := &CriteriaStage{Form: "criteria", Question: "criteria", InputName: "prompt", Overlap: 1}
		edit(c)
		return c
	}
	cases := []struct {
		name  string
		edit  func(*Policy)
		field string
		code  string
	}{
		{"no overlap", func(p *Policy) { p.Overlap = -1 }, "workflow.overlap", "out_of_range"},
		{"overlap too large", func(p *Policy) { p.Overlap = 51 }, "workflow.overlap", "out_of_range"},
		{"unknown review", func(p *Policy) { p.Review = "peer" }, "workflow.review", "invalid_value"},
		{"unknown adjudication", func(p *Policy) { p.Adjudication = "sometimes" }, "workflow.adjudication", "invalid_value"},
		{"unknown nominal rule", func(p *Policy) { p.Consensus.Nominal = "plurality" }, "workflow.consensus.nominal", "invalid_value"},
		{"negative tolerance", func(p *Policy) { p.Consensus.OrdinalTolerance = -1 }, "workflow.consensus.ordinal_tolerance", "out_of_range"},
		{"unknown no-consensus action", func(p *Policy) { p.OnNoConsensus = "ignore" }, "workflow.on_no_consensus", "invalid_value"},
		{"never adjudicated, yet adjudicate", func(p *Policy) { p.Adjudication, p.OnNoConsensus = AdjudicateNever, NoConsensusAdjudicate },
			"workflow.on_no_consensus", "invalid_value"},
		{"no lease", func(p *Policy) { p.LeaseMinutes = -1 }, "workflow.lease_minutes", "out_of_range"},
		{"lease over a day", func(p *Policy) { p.LeaseMinutes = 24*60 + 1 }, "workflow.lease_minutes", "out_of_range"},
		{"spot check rate below 0", func(p *Policy) { p.SpotCheckRate = -0.1 }, "workflow.spot_check_rate", "out_of_range"},
		{"spot check rate above 1", func(p *Policy) { p.SpotCheckRate = 1.5 }, "workflow.spot_check_rate", "out_of_range"},
		{"bad language tag", func(p *Policy) { p.Languages = []string{"en", "not a tag!"} }, "workflow.languages[1]", tasks.CodeInvalidLanguage},
		{"gold rate above 1", func(p *Policy) { p.GoldRate = 2 }, "workflow.gold_rate", "out_of_range"},
		{"gold accuracy below 0", func(p *Policy) { p.GoldMinAccuracy = -0.5 }, "workflow.gold_min_accuracy", "out_of_range"},
		{"gold accuracy above 1", func(p *Policy) { p.GoldMinAccuracy = 1.5 }, "workflow.gold_min_accuracy", "out_of_range"},
		{"gold window too large", func(p *Policy) { p.GoldWindow = 1001 }, "workflow.gold_window", "out_of_range"},
		{"gold window below 1", func(p *Policy) { p.GoldWindow = -1 }, "workflow.gold_window", "out_of_range"},
		{"rushed below 0", func(p *Policy) { p.RushedSeconds = -1 }, "workflow.rushed_seconds", "out_of_range"},
		{"rushed over an hour", func(p *Policy) { p.RushedSeconds = 3601 }, "workflow.rushed_seconds", "out_of_range"},
		{"reliability minimum below 0", func(p *Policy) { p.ReliabilityMinAccuracy = -0.1 }, "workflow.reliability_min_accuracy", "out_of_range"},
		{"reliability minimum over 1", func(p *Policy) { p.ReliabilityMinAccuracy = 1.5 }, "workflow.reliability_min_accuracy", "out_of_range"},
		{"unknown draft method", func(p *Policy) { p.DraftFromPredictions = &DraftPolicy{Method: "median", Rounding: RoundFloor} },
			"workflow.draft_from_predictions.method", "invalid_value"},
		{"model draft without a model", func(p *Policy) { p.DraftFromPredictions = &DraftPolicy{Method: DraftModel, Rounding: RoundFloor} },
			"workflow.draft_from_predictions.model", "required"},
		{"unknown rounding", func(p *Policy) { p.DraftFromPredictions = &DraftPolicy{Method: DraftMean, Rounding: "bankers"} },
			"workflow.draft_from_predictions.rounding", "invalid_value"},
		{"criteria overlap too large", func(p *Policy) { p.CriteriaStage = criteria(func(c *CriteriaStage) { c.Overlap = 51 }) },
			"workflow.criteria_stage.overlap", "out_of_range"},
		{"criteria form unknown", func(p *Policy) { p.CriteriaStage = criteria(func(c *CriteriaStage) { c.Form = "nope" }) },
			"workflow.criteria_stage.form", "unknown_form"},
		{"criteria question of another kind", func(p *Policy) { p.CriteriaStage = criteria(func(c *CriteriaStage) { c.Question = "note" }) },
			"workflow.criteria_stage.question", "invalid_value"},
		{"criteria question unknown", func(p *Policy) { p.CriteriaStage = criteria(func(c *CriteriaStage) { c.Question = "nope" }) },
			"workflow.criteria_stage.question", "invalid_value"},
		{"criteria input unknown", func(p *Policy) { p.CriteriaStage = criteria(func(c *CriteriaStage) { c.InputName = "nope" }) },
			"workflow.criteria_stage.input", "unknown_input"},
		{"unknown aggregation", func(p *Policy) { p.Aggregation.Default = "mode" }, "workflow.aggregation.default", "invalid_value"},
		{"aggregation of an unknown question", func(p *Policy) { p.Aggregation.Questions = map[string]AggregateRule{"nope": AggregateAll} },
			"workflow.aggregation.questions.nope", "unknown_question"},
		{"mean of a pairwise choice", func(p *Policy) { p.Aggregation.Questions = map[string]AggregateRule{"pick": AggregateMean} },
			"workflow.aggregation.questions.pick", "invalid_value"},
		{"median by default over choices", func(p *Policy) {
			p.Aggregation = Aggregation{Default: AggregateMedian, Questions: map[string]AggregateRule{"noise": AggregateAll, "check": AggregateAll}}
		}, "workflow.aggregation.default", "invalid_value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Policy{}.Defaults()
			tc.edit(&p)
			err := p.Validate(&testSchema, criteriaForms)
			fe, ok := err.(tasks.FieldErrors)
			if !ok {
				t.Fatalf("want field errors, got %v", err)
			}
			if got, ok := fe[tc.field]; !ok || got.Code != tc.code || len(fe) != 1 {
				t.Fatalf("errors %v, want only %s %s", fe, tc.field, tc.code)
			}
		})
	}
	good := Policy{CriteriaStage: criteria(func(*CriteriaStage) {}), DraftFromPredictions: &DraftPolicy{Method: DraftModel, Model: "m"},
		Languages: []string{"en"}, GoldRate: 0.1, SpotCheckRate: 1,
		Aggregation: Aggregation{Default: AggregateAll, Questions: map[string]AggregateRule{"score": AggregateMean, "pick": AggregateConsensus}}}.Defaults()
	if err := good.Validate(&testSchema, criteriaForms); err != nil {
		t.Fatalf("a full policy is refused: %v", err)
	}
}

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy(nil)
	if err != nil || !reflect.DeepEqual(p, Policy{}.Defaults()) {
		t.Fatalf("no stored policy reads as %+v %v", p, err)
	}
	if _, err := ParsePolicy([]byte(`{"overlap":"two"}`)); err == nil {
		t.Fatal("an unreadable policy parsed")
	}
	p, err = ParsePolicy([]byte(`{"overlap":3,"adjudication":"never","on_no_consensus":"adjudicate"}`))
	if err != nil || p.Overlap != 3 || p.OnNoConsensus != NoConsensusDrop || p.LeaseMinutes != 30 {
		t.Fatalf("an old never/adjudicate policy reads as %+v %v", p, err)
	}
	if err := p.Validate(&testSchema, nil); err != nil {
		t.Fatalf("an old stored policy no longer validates: %v", err)
	}
}
