package workflow_test

import (
	"math"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func TestParseBalanceTargets(t *testing.T) {
	if got, err := workflow.ParseBalanceTargets(nil); err != nil || got.Ratio != nil || got.Spread != nil || got.By != "" {
		t.Fatalf("no targets read as %+v %v", got, err)
	}
	got, err := workflow.ParseBalanceTargets(store.JSON(`{"ratio":0.5,"spread":2,"by":"meta.domain"}`))
	if err != nil || *got.Ratio != 0.5 || *got.Spread != 2 || got.By != "meta.domain" {
		t.Fatalf("targets %+v %v", got, err)
	}
	if _, err := workflow.ParseBalanceTargets(store.JSON(`{"ratio":"half"}`)); err == nil {
		t.Fatal("unreadable targets parsed")
	}
}

// TestCheckBalanceTargets: ratio and spread need binary questions and values in range; by is a
// metadata key or the language.
func TestCheckBalanceTargets(t *testing.T) {
	binary := &tasks.Schema{Questions: []tasks.Question{{Key: "ok", Kind: tasks.KindBinary}}}
	likert := &tasks.Schema{Questions: []tasks.Question{{Key: "q", Kind: tasks.KindLikert}}}
	ratio := func(v float64) *float64 { return &v }
	spread := func(v int64) *int64 { return &v }
	cases := []struct {
		name   string
		t      workflow.BalanceTargets
		schema *tasks.Schema
		want   map[string]string // field → code; empty: valid
	}{
		{"valid", workflow.BalanceTargets{Ratio: ratio(0.3), Spread: spread(1), By: "meta.domain"}, binary, nil},
		{"by language", workflow.BalanceTargets{By: workflow.BalanceByLanguage}, likert, nil},
		{"ratio without binary questions", workflow.BalanceTargets{Ratio: ratio(0.3)}, likert, map[string]string{"balance.ratio": "not_binary"}},
		{"ratio without a schema", workflow.BalanceTargets{Ratio: ratio(0.3)}, nil, map[string]string{"balance.ratio": "not_binary"}},
		{"ratio of zero", workflow.BalanceTargets{Ratio: ratio(0)}, binary, map[string]string{"balance.ratio": "out_of_range"}},
		{"ratio not a number", workflow.BalanceTargets{Ratio: ratio(math.NaN())}, binary, map[string]string{"balance.ratio": "out_of_range"}},
		{"ratio infinite", workflow.BalanceTargets{Ratio: ratio(math.Inf(1))}, binary, map[string]string{"balance.ratio": "out_of_range"}},
		{"spread without binary questions", workflow.BalanceTargets{Spread: spread(2)}, likert, map[string]string{"balance.spread": "not_binary"}},
		{"spread of zero", workflow.BalanceTargets{Spread: spread(0)}, binary, map[string]string{"balance.spread": "out_of_range"}},
		{"by without meta.", workflow.BalanceTargets{By: "domain"}, binary, map[string]string{"balance.by": "invalid_value"}},
		{"by an empty key", workflow.BalanceTargets{By: "meta."}, binary, map[string]string{"balance.by": "invalid_value"}},
		{"by a long key", workflow.BalanceTargets{By: "meta." + strings.Repeat("k", 201)}, binary, map[string]string{"balance.by": "invalid_value"}},
	}
	for _, tc := range cases {
		fe := tasks.FieldErrors{}
		workflow.CheckBalanceTargets(fe, &tc.t, tc.schema)
		if len(fe) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, fe, tc.want)
			continue
		}
		for field, code := range tc.want {
			if fe[field].Code != code {
				t.Errorf("%s: %v, want %s %s", tc.name, fe, field, code)
			}
		}
	}
}
