package flow

import (
	"slices"
	"testing"
)

// TestValid: each vocabulary accepts exactly its listed values.
func TestValid(t *testing.T) {
	cases := []struct {
		name  string
		valid func(string) bool
		good  []string
		bad   []string
	}{
		{"stage", func(s string) bool { return Stage(s).Valid() },
			[]string{"criteria", "criteria_review", "split", "label", "review", "adjudicate", "done", "dropped", "gold", "calibration"},
			[]string{"", "Label", "labels", "queued"}},
		{"verdict", func(s string) bool { return Verdict(s).Valid() },
			[]string{"approve", "correct", "reject"}, []string{"", "disputed", "Approve"}},
		{"flag category", func(s string) bool { return FlagCategory(s).Valid() },
			[]string{"broken_media", "unsafe_content", "wrong_modality", "other"}, []string{"", "spot_check_mismatch"}},
		{"flag action", func(s string) bool { return FlagAction(s).Valid() },
			[]string{"return", "drop"}, []string{"", "ignore"}},
		{"pass metric", func(s string) bool { return PassMetric(s).Valid() },
			[]string{"accuracy_vs_gold", "exact_with_peers", "within_one_with_peers", "alpha_with_peers"}, []string{"", "kappa"}},
		{"figures kind", func(s string) bool { return FiguresKind(s).Valid() },
			[]string{"balance", "report", "judges"}, []string{"", "agreement"}},
	}
	for _, tc := range cases {
		for _, v := range tc.good {
			if !tc.valid(v) {
				t.Errorf("%s %q refused", tc.name, v)
			}
		}
		for _, v := range tc.bad {
			if tc.valid(v) {
				t.Errorf("%s %q accepted", tc.name, v)
			}
		}
	}
}

// TestDispute: a disputed verdict is recorded, never given.
func TestDispute(t *testing.T) {
	if VerdictDispute.Valid() || slices.Contains(Verdicts, VerdictDispute) {
		t.Fatal("a reviewer may give the dispute verdict")
	}
}

func TestCriterionStatuses(t *testing.T) {
	for _, c := range CriterionVerdicts {
		if !c.IsVerdict() {
			t.Errorf("%s is not a verdict", c)
		}
	}
	if CriterionPending.IsVerdict() || CriterionStatus("great").IsVerdict() {
		t.Error("pending or an unknown status is a verdict")
	}
	if CriterionStatuses[0] != CriterionPending || len(CriterionStatuses) != len(CriterionVerdicts)+1 {
		t.Errorf("statuses %v", CriterionStatuses)
	}
}

func TestWorkStages(t *testing.T) {
	for _, s := range WorkStages {
		if !s.Valid() {
			t.Errorf("work stage %s is not an item stage", s)
		}
	}
	if !slices.Equal(WorkStages, []Stage{StageCriteria, StageChecklist, StageLabel, StageReview, StageAdjudicate}) {
		t.Errorf("work stages out of workflow order: %v", WorkStages)
	}
}

func TestReleaseFinished(t *testing.T) {
	for s, want := range map[ReleaseStatus]bool{ReleaseQueued: false, ReleaseRunning: false, ReleaseDone: true, ReleaseFailed: true} {
		if s.Finished() != want {
			t.Errorf("%s finished %v, want %v", s, s.Finished(), want)
		}
	}
}

func TestOrdinalOnly(t *testing.T) {
	for m, want := range map[PassMetric]bool{PassAccuracyVsGold: false, PassExactWithPeers: true, PassWithinOneWithPeers: true, PassAlphaWithPeers: false} {
		if m.OrdinalOnly() != want {
			t.Errorf("%s ordinal only %v, want %v", m, m.OrdinalOnly(), want)
		}
	}
}
