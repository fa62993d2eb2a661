package exports

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func meta(kv ...string) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = json.RawMessage(kv[i+1])
	}
	return m
}

func TestSplitAssign(t *testing.T) {
	ratios := []SplitRatio{{"test", 0.2}, {"train", 0.8}}
	tests := []struct {
		name string
		spec SplitSpec
		meta map[string]json.RawMessage
		want string
		code string
	}{
		{"single split", SplitSpec{Name: "test"}, nil, "test", ""},
		{"from metadata", SplitSpec{Key: "split"}, meta("split", `"validation"`), "validation", ""},
		{"number in metadata", SplitSpec{Key: "fold"}, meta("fold", `3`), "3", ""},
		{"missing key", SplitSpec{Key: "split"}, meta("other", `"x"`), "", CodeMissingSplitKey},
		{"null key", SplitSpec{Key: "split"}, meta("split", `null`), "", CodeMissingSplitKey},
		{"object under key", SplitSpec{Key: "split"}, meta("split", `{"a":1}`), "", CodeMissingSplitKey},
		{"bad split value", SplitSpec{Key: "split"}, meta("split", `"test set"`), "", CodeInvalidSplit},
		{"missing cluster key", SplitSpec{Ratios: ratios, ClusterKey: "source_clip"}, meta("x", `"y"`), "", CodeMissingSplitKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.spec.assign("item-7", "ext-7", tt.meta)
			if tt.code == "" {
				if err != nil || got != tt.want {
					t.Fatalf("got %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var re *RecordError
			if !errors.As(err, &re) || re.Code != tt.code || re.ID != "item-7" || re.ExternalID != "ext-7" {
				t.Fatalf("got %q, %#v; want a RecordError %s for item-7", got, err, tt.code)
			}
			if !strings.Contains(err.Error(), "item-7") || !strings.HasPrefix(re.Field, "meta.") {
				t.Errorf("error %q does not name the item and field", err)
			}
		})
	}
}

// TestSplitRatiosClustered checks that ratio splits are deterministic, keep
// every cluster in one split, follow the shares, and move with the seed.
func TestSplitRatiosClustered(t *testing.T) {
	spec := SplitSpec{Ratios: []SplitRatio{{"test", 0.2}, {"train", 0.8}}, ClusterKey: "source_clip", Seed: 20260926}
	clusterSplit := map[string]string{}
	counts := map[string]int{}
	const n = 20000
	for i := range n {
		clip := fmt.Sprintf("DROID/task/episode_%04d", i%2000)
		got, err := spec.assign(fmt.Sprint(i), fmt.Sprint("x", i), meta("source_clip", `"`+clip+`"`))
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := clusterSplit[clip]; ok && prev != got {
			t.Fatalf("cluster %s is in %s and %s", clip, prev, got)
		}
		clusterSplit[clip] = got
		counts[got]++
	}
	share := float64(counts["test"]) / n
	if math.Abs(share-0.2) > 0.03 {
		t.Errorf("test share %.3f, want about 0.2 (%v)", share, counts)
	}
	other := spec
	other.Seed = 1
	moved := 0
	for clip, s := range clusterSplit {
		if other.byRatio(clip) != s {
			moved++
		}
	}
	if moved == 0 {
		t.Error("a different seed assigns every cluster the same way")
	}
	if again := spec.byRatio("DROID/task/episode_0001"); again != clusterSplit["DROID/task/episode_0001"] {
		t.Error("assignment is not deterministic")
	}
}

func TestCheckMeta(t *testing.T) {
	s := template(t, "robojudge").Schema
	spec := mustSpec(t, &s, []string{"jsonl"}, map[string]any{"split_key": "split"})
	if err := spec.CheckMeta("a", "b", meta("split", `"train"`)); err != nil {
		t.Fatal(err)
	}
	var re *RecordError
	if err := spec.CheckMeta("a", "b", nil); !errors.As(err, &re) || re.Field != "meta.split" {
		t.Fatalf("CheckMeta without the key = %v", err)
	}
}

func TestPseudonyms(t *testing.T) {
	p, q := newPseudonyms([]byte("salt-1")), newPseudonyms([]byte("salt-2"))
	a, b := p.of("user-1"), p.of("user-2")
	if a == b || !strings.HasPrefix(a, "anon-") || len(a) != len("anon-")+12 {
		t.Fatalf("pseudonyms %q %q", a, b)
	}
	if p.of("user-1") != a || newPseudonyms([]byte("salt-1")).of("user-1") != a {
		t.Error("pseudonym not stable under one salt")
	}
	if q.of("user-1") == a {
		t.Error("pseudonym does not depend on the salt")
	}
	if p.of("") != "" {
		t.Error("an empty id got a pseudonym")
	}
}

// TestSplitRatioReference pins the ratio assignment to values computed
// independently (Python hashlib: SHA-256 of the 8-byte big-endian seed and
// the key, top 53 bits as a fraction, cumulative shares in name order).
func TestSplitRatioReference(t *testing.T) {
	ratios := []SplitRatio{{"test", 0.5}, {"train", 0.5}}
	tests := []struct {
		seed uint64
		key  string
		want string
	}{
		{4, "DROID/pick_place/episode_0421", "test"},
		{4, "EgoDex/push/episode_0093", "train"},
		{1, "DROID/pick_place/episode_0421", "train"},
		{7, "EgoDex/push/episode_0093", "test"},
	}
	for _, tt := range tests {
		if got := (SplitSpec{Ratios: ratios, Seed: tt.seed}).byRatio(tt.key); got != tt.want {
			t.Errorf("seed %d %s: got %s, want %s", tt.seed, tt.key, got, tt.want)
		}
	}
}
