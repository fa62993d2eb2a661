package releases_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/releases"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestStartRefusals: what a release request can be found to get wrong before its job runs
// is refused with the field and a stable code, and nothing is queued: the name, the formats
// and options, a split or cluster key some items lack, a filter that keeps nothing, a project
// with nothing done.
func TestStartRefusals(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t), testenv.LocalBlobs(t))
			if _, err := f.rel.Start(context.Background(), f.fp, f.user, releases.Request{Name: "v1", Formats: []string{"jsonl"}}); fieldCode(err, "project") != releases.CodeNothingDone {
				t.Fatalf("a project with nothing done: %v", err)
			}
			f.importDone(3, text)
			f.importLines(`{"external_id":"bare","inputs":{"prompt":"p","output":[{"id":"o1","type":"text","value":"x"}]},"ground_truth":{"answers":{"quality":2},"provenance":"rule"}}`)
			jsonl := []string{"jsonl"}
			tests := []struct {
				name        string
				req         releases.Request
				field, code string
			}{
				{"no name", releases.Request{Name: "  ", Formats: jsonl}, "name", tasks.CodeRequired},
				{"a long name", releases.Request{Name: strings.Repeat("n", 101), Formats: jsonl}, "name", tasks.CodeTooLong},
				{"no format", releases.Request{Name: "v1"}, "formats", "required"},
				{"an unknown format", releases.Request{Name: "v1", Formats: []string{"jsonl", "xml"}}, "formats[1]", "unknown_format"},
				{"an unknown option", releases.Request{Name: "v1", Formats: jsonl, Options: map[string]any{"colour": 1}}, "options.colour", "unknown_option"},
				{"a split key some items lack", releases.Request{Name: "v1", Formats: jsonl, Options: map[string]any{"split_key": "split"}}, "options.split_key", "missing_split_key"},
				{"a cluster key no item has", releases.Request{Name: "v1", Formats: jsonl, Options: map[string]any{"split_ratios": "train=0.5,test=0.5", "cluster_key": "source"}},
					"options.cluster_key", "missing_split_key"},
				{"a filter that keeps nothing", releases.Request{Name: "v1", Formats: jsonl, Options: map[string]any{"filter": map[string]any{"split": []any{"val"}}}},
					"options.filter", releases.CodeNoMatch},
				{"a filter by key that keeps nothing", releases.Request{Name: "v1", Formats: jsonl, Options: map[string]any{"filter.split": "val"}},
					"options.filter.split", releases.CodeNoMatch},
			}
			for _, tc := range tests {
				_, err := f.rel.Start(context.Background(), f.fp, f.user, tc.req)
				if code := fieldCode(err, tc.field); code != tc.code {
					t.Errorf("%s: %v", tc.name, err)
				}
			}
			if len(f.jobs.ids) != 0 {
				t.Fatalf("refused requests queued %v", f.jobs.ids)
			}
			// the filter leaves out the item without a split, so every item it keeps has one
			id := f.start(jsonl, map[string]any{"filter.split": "train", "split_key": "split"})
			if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Summary.Records != 2 {
				t.Fatalf("a filtered release: %v %+v", err, f.get(id))
			}
		})
	}
}

// TestIncludeDropped: by default a release holds done items only; with include_dropped it
// also holds dropped (with the reason) and unresolved items, marked, never gold items or the
// calibration pool.
func TestIncludeDropped(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.importDone(2, text)
	output := `"output":[{"id":"o1","type":"text","value":"x"}]`
	f.importLines(`{"external_id":"broken","inputs":{"prompt":"p",` + output + `}}`)
	f.drop("broken", "the output is empty")
	f.importLines(`{"external_id":"open","inputs":{"prompt":"p",`+output+`}}`,
		`{"external_id":"gold","gold":true,"inputs":{"prompt":"p",`+output+`},"ground_truth":{"answers":{"quality":5},"provenance":"rule"}}`)
	if _, err := f.imports.ImportPool(context.Background(), f.fp, f.user, strings.NewReader(`{"external_id":"pool","inputs":{"prompt":"p",`+output+`}}`+"\n")); err != nil {
		t.Fatal(err)
	}
	plain, all := f.start([]string{"jsonl"}, nil), f.start([]string{"jsonl"}, map[string]any{"include_dropped": true})
	for _, id := range []string{plain, all} {
		if err := f.rel.Run(context.Background(), id); err != nil || f.get(id).Status != flow.ReleaseDone {
			t.Fatalf("release: %v %+v", err, f.get(id))
		}
	}
	if got := statuses(t, f.file(plain, "jsonl/test.jsonl")); got != "item-00000=done item-00001=done" {
		t.Errorf("done items only: %s", got)
	}
	if got := statuses(t, f.file(all, "jsonl/test.jsonl")); got != "item-00000=done item-00001=done broken=dropped open=unresolved" {
		t.Errorf("with include_dropped: %s", got)
	}
	if !strings.Contains(string(f.file(all, "jsonl/test.jsonl")), "the output is empty") {
		t.Error("the drop reason is not released")
	}
}

// TestList: releases are listed newest first, without their manifests.
func TestList(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t), testenv.LocalBlobs(t))
	f.importDone(2, text)
	first := f.start([]string{"jsonl"}, nil)
	if err := f.rel.Run(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	second := f.start([]string{"csv"}, map[string]any{"raw": true})
	list, err := f.rel.List(context.Background(), f.fp.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %v %+v", err, list)
	}
	if list[0].ID != second || list[0].Status != flow.ReleaseQueued || list[0].Summary != nil || list[0].Options["raw"] != true ||
		list[1].ID != first || list[1].Status != flow.ReleaseDone || list[1].Summary == nil || list[1].Summary.Records != 2 || list[1].Manifest != nil {
		t.Fatalf("listed %+v", list)
	}
	if _, err := f.rel.Get(context.Background(), "another-project", first); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another project's release: %v", err)
	}
}

// statuses are the external ids of a jsonl file's records with their status, in order.
func statuses(t *testing.T, jsonl []byte) string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(jsonl))
	for sc.Scan() {
		var rec struct {
			ExternalID string `json:"external_id"`
			Status     string `json:"status"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec.ExternalID+"="+rec.Status)
	}
	return strings.Join(out, " ")
}
