package exports

import (
	"maps"
	"slices"
	"testing"
)

func TestParseSpecErrors(t *testing.T) {
	s := template(t, "d3omni-tts").Schema
	tests := []struct {
		name    string
		formats []string
		opts    map[string]any
		want    map[string]string
	}{
		{"no formats", nil, nil, map[string]string{"formats": "required"}},
		{"unknown format", []string{"jsonl", "parquet"}, nil, map[string]string{"formats[1]": CodeUnknownFormat}},
		{"duplicate format", []string{"jsonl", "jsonl"}, nil, map[string]string{"formats[1]": "duplicate_key"}},
		{"unknown option", []string{"jsonl"}, map[string]any{"tie": false}, map[string]string{"options.tie": CodeUnknownOption}},
		{"format option without its format", []string{"jsonl"}, map[string]any{"row_group_rows": 1000}, map[string]string{"options.row_group_rows": CodeOptionNotApplicable}},
		{"bad bool", []string{"jsonl"}, map[string]any{"raw": "maybe"}, map[string]string{"options.raw": "invalid_value"}},
		{"bad media", []string{"jsonl"}, map[string]any{"media": "inline"}, map[string]string{"options.media": "invalid_value"}},
		{"ratios not summing to 1", []string{"jsonl"}, map[string]any{"split_ratios": "train=0.8,test=0.3"}, map[string]string{"options.split_ratios": "invalid_value"}},
		{"one ratio", []string{"jsonl"}, map[string]any{"split_ratios": map[string]any{"train": 1.0}}, map[string]string{"options.split_ratios": "invalid_value"}},
		{"bad split name", []string{"jsonl"}, map[string]any{"split": "my split"}, map[string]string{"options.split": "invalid_value"}},
		{"key and ratios", []string{"jsonl"}, map[string]any{"split_key": "split", "split_ratios": "train=0.5,test=0.5"}, map[string]string{"options.split_key": CodeConflict}},
		{"cluster without ratios", []string{"jsonl"}, map[string]any{"cluster_key": "source_clip"}, map[string]string{"options.cluster_key": CodeConflict}},
		{"seed without ratios", []string{"jsonl"}, map[string]any{"split_seed": 3}, map[string]string{"options.split_seed": CodeConflict}},
		{"named split with key", []string{"jsonl"}, map[string]any{"split": "test", "split_key": "split"}, map[string]string{"options.split": CodeConflict}},
		{"row group too small", []string{"hf"}, map[string]any{"row_group_rows": 10}, map[string]string{"options.row_group_rows": "invalid_value"}},
		{"filter not an object", []string{"jsonl"}, map[string]any{"filter": "task"}, map[string]string{"options.filter": "invalid_value"}},
		{"filter without values", []string{"jsonl"}, map[string]any{"filter.task": ""}, map[string]string{"options.filter.task": "invalid_value"}},
		{"fractional integer", []string{"jsonl"}, map[string]any{"split_ratios": "a=0.5,b=0.5", "split_seed": 1.5}, map[string]string{"options.split_seed": "invalid_value"}},
		{"valid", []string{"jsonl", "csv", "hf"}, map[string]any{"raw": "true", "split_ratios": "train=0.8,test=0.2", "cluster_key": "seed_id", "split_seed": "7", "row_group_rows": 500, "filter.spoken_language": "en"}, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpec(&s, tt.formats, tt.opts)
			got := fieldCodes(t, err)
			if !maps.Equal(got, tt.want) {
				t.Errorf("got %v, want %v (%v)", got, tt.want, err)
			}
			if (Validate(&s, tt.formats, tt.opts) == nil) != (len(tt.want) == 0) {
				t.Error("Validate disagrees with ParseSpec")
			}
		})
	}
}

func TestParseSpecValues(t *testing.T) {
	s := template(t, "robojudge").Schema
	spec := mustSpec(t, &s, []string{"hf", "jsonl"}, map[string]any{
		"raw": true, "include_dropped": "1", "split_ratios": map[string]any{"train": 0.8, "test": "0.2"},
		"cluster_key": "source_clip", "split_seed": float64(20260926), "row_group_rows": "1000",
		"filter": map[string]any{"embodiment": []any{"gripper", "human hand", "gripper"}}, "media": "copy",
	})
	if !spec.Raw || !spec.IncludeDropped || spec.Media != MediaCopy || spec.RowGroupRows != 1000 {
		t.Errorf("flags not applied: %+v", spec)
	}
	want := []SplitRatio{{"test", 0.2}, {"train", 0.8}}
	if !slices.Equal(spec.Split.Ratios, want) || spec.Split.ClusterKey != "source_clip" || spec.Split.Seed != 20260926 {
		t.Errorf("split = %+v", spec.Split)
	}
	if got := spec.Filter["embodiment"]; !slices.Equal(got, []string{"gripper", "human hand"}) {
		t.Errorf("filter = %v", got)
	}
	if _, ok := spec.Options()["ties"]; ok {
		t.Error("options list ties without the omnireward format")
	}
	if spec.Options()["row_group_rows"] != 1000 {
		t.Error("options leave out row_group_rows of the hf format")
	}
	def := mustSpec(t, &s, []string{"jsonl"}, nil)
	if def.Split.Name != "test" || def.Media != MediaReference || def.Raw || def.IncludeDropped {
		t.Errorf("defaults = %+v", def)
	}
}

func TestFormatsListed(t *testing.T) {
	names := FormatNames()
	for _, f := range Formats() {
		if !slices.Contains(names, f.Name) || f.Description == "" {
			t.Errorf("format %+v is not described", f)
		}
	}
	if got := OptionNames(); !slices.Contains(got, "filter.<key>") || !slices.Contains(got, "split_ratios") {
		t.Errorf("OptionNames = %v", got)
	}
}
