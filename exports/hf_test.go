package exports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// readParquet reads every row of a parquet file with parquet-go's reader.
func readParquet(t *testing.T, b []byte) []any {
	t.Helper()
	r := parquet.NewGenericReader[any](bytes.NewReader(b))
	defer r.Close()
	var rows []any
	buf := make([]any, 7)
	for {
		n, err := r.Read(buf)
		rows = append(rows, buf[:n]...)
		if errors.Is(err, io.EOF) {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readJSONL parses the lines of a JSON Lines file.
func readJSONL(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// roundTrip normalises a value through JSON so numbers compare equal.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkParquetMatchesJSONL reads back every parquet file of an hf export and
// compares it row by row with the jsonl records mapped to the documented
// column layout.
func checkParquetMatchesJSONL(t *testing.T, s *tasks.Schema, sink *MemorySink, splits []string, raw bool) {
	t.Helper()
	for _, split := range splits {
		pq, ok := sink.File("data/" + split + "-00000-of-00001.parquet")
		jl, ok2 := sink.File("jsonl/" + split + ".jsonl")
		if !ok || !ok2 {
			t.Fatalf("split %s: missing parquet or jsonl in %v", split, sink.Paths())
		}
		rows, recs := readParquet(t, pq), readJSONL(t, jl)
		if len(rows) != len(recs) || len(rows) == 0 {
			t.Fatalf("split %s: %d parquet rows, %d jsonl records", split, len(rows), len(recs))
		}
		for i := range rows {
			got, want := roundTrip(t, rows[i]), roundTrip(t, expectedRow(t, s, recs[i], raw))
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("split %s row %d differs\n got: %s\nwant: %s", split, i, g, w)
			}
		}
	}
}

// expectedRow maps a canonical JSON record to the hf row, written from the
// layout described in hf_schema.go rather than from the writer's code.
func expectedRow(t *testing.T, s *tasks.Schema, rec map[string]any, raw bool) map[string]any {
	row := map[string]any{"id": rec["id"], "external_id": rec["external_id"], "split": rec["split"], "status": rec["status"], "language": rec["language"],
		"meta": canonText(t, rec["meta"]), "drop_reason": rec["drop_reason"],
		"answers": expectAnswers(s, rec["answers"], false), "normalized": expectAnswers(s, rec["normalized"], true)}
	if len(s.Inputs) > 0 {
		row["inputs"] = expectInputs(t, s, rec["inputs"].(map[string]any))
	}
	row["provenance"] = nil
	if p, ok := rec["provenance"].(map[string]any); ok {
		row["provenance"] = map[string]any{"kind": p["kind"], "adjudicator": p["adjudicator"], "rationale": p["rationale"],
			"confidence": p["confidence"], "revision": p["revision"]}
	}
	row["agreement"] = nil
	if a, ok := rec["agreement"].(map[string]any); ok {
		qs, _ := a["questions"].(map[string]any)
		m := map[string]any{"labels": a["labels"], "percent_agreement": a["percent_agreement"]}
		want := map[string]any{}
		for _, q := range s.Questions {
			if q.MeasurementLevel() != tasks.LevelNone {
				want[q.Key] = qs[q.Key]
			}
		}
		if len(want) > 0 {
			m["questions"] = want
		}
		row["agreement"] = m
	}
	if raw {
		row["labels"], row["reviews"] = expectLabels(s, rec["labels"]), expectReviews(s, rec["reviews"])
	}
	return row
}

func canonText(t *testing.T, v any) string {
	b, err := marshalCanon(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func expectInputs(t *testing.T, s *tasks.Schema, in map[string]any) map[string]any {
	out := map[string]any{}
	for _, def := range s.Inputs {
		v, ok := in[def.Name]
		switch {
		case !ok || v == nil:
			out[def.Name] = nil
		case def.Type == tasks.InputJSON:
			out[def.Name] = canonText(t, v)
		case def.Type == tasks.InputImageList:
			var paths []any
			for _, e := range v.([]any) {
				paths = append(paths, expectPath(e))
			}
			out[def.Name] = paths
		case def.Type == tasks.InputCandidates:
			out[def.Name] = expectCandidates(t, v.([]any))
		default:
			out[def.Name] = expectPath(v)
		}
	}
	return out
}

// expectPath reads a text or media value: a string, or {url} / {asset}.
func expectPath(v any) any {
	if m, ok := v.(map[string]any); ok {
		if u, ok := m["url"]; ok {
			return u
		}
		return "asset:" + m["asset"].(string)
	}
	return v
}

func expectCandidates(t *testing.T, cs []any) []any {
	out := []any{}
	for _, c := range cs {
		m := c.(map[string]any)
		row := map[string]any{"id": m["id"], "type": m["type"], "value": nil, "values": []any{}, "meta": nil}
		if m["type"] == "image_list" {
			var paths []any
			for _, e := range m["value"].([]any) {
				paths = append(paths, expectPath(e))
			}
			row["values"] = paths
		} else {
			row["value"] = expectPath(m["value"])
		}
		if meta, ok := m["meta"]; ok {
			row["meta"] = canonText(t, meta)
		}
		out = append(out, row)
	}
	return out
}

// expectAnswers keeps one field per question; a likert answered with N/A
// allowed is text ("4" or "na"), a multi-choice as given.
func expectAnswers(s *tasks.Schema, v any, normalized bool) map[string]any {
	in, _ := v.(map[string]any)
	out := map[string]any{}
	for _, q := range s.Questions {
		a, ok := in[q.Key]
		if ok && q.Kind == tasks.KindLikert && q.AllowNA && !normalized {
			if f, isNum := a.(float64); isNum {
				a = strconv.Itoa(int(f))
			}
		}
		out[q.Key] = a
	}
	return out
}

func expectLabels(s *tasks.Schema, v any) []any {
	out := []any{}
	ls, _ := v.([]any)
	for _, l := range ls {
		m := l.(map[string]any)
		out = append(out, map[string]any{"annotator": m["annotator"], "role": m["role"], "answers": expectAnswers(s, m["answers"], false),
			"review": m["review"]})
	}
	return out
}

func expectReviews(s *tasks.Schema, v any) []any {
	out := []any{}
	rs, _ := v.([]any)
	for _, r := range rs {
		m := r.(map[string]any)
		comments := []any{}
		cm, _ := m["comments"].(map[string]any)
		for _, k := range sortedAnyKeys(cm) {
			comments = append(comments, map[string]any{"question": k, "comment": cm[k]})
		}
		var answers any
		if a, ok := m["answers"]; ok {
			answers = expectAnswers(s, a, false)
		}
		out = append(out, map[string]any{"reviewer": m["reviewer"], "role": m["role"], "annotator": m["annotator"], "verdict": m["verdict"],
			"comment": m["comment"], "comments": comments, "answers": answers})
	}
	return out
}

func sortedAnyKeys(m map[string]any) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

func TestHFReadBackKitchenSink(t *testing.T) {
	rel := sinkRelease()
	for _, raw := range []bool{false, true} {
		spec := mustSpec(t, &rel.Schema, []string{"jsonl", "hf"}, map[string]any{"raw": raw, "include_dropped": true,
			"split_ratios": "train=0.5,test=0.5", "split_seed": 3})
		sink, m := exportTo(t, rel, spec, sinkRecords())
		checkParquetMatchesJSONL(t, &rel.Schema, sink, m.Records.splits(), raw)
	}
}

// TestHFRowGroups writes more rows than one row group holds and reads them
// all back in order.
func TestHFRowGroups(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl", "hf"}, map[string]any{"row_group_rows": 100})
	var recs []Record
	for i := range 1050 {
		r := sinkRecords()[i%2]
		r.ID, r.ExternalID = "id-"+strconv.Itoa(i), "ext-"+strconv.Itoa(i)
		recs = append(recs, r)
	}
	sink, _ := exportTo(t, rel, spec, recs)
	b, _ := sink.File("data/test-00000-of-00001.parquet")
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.RowGroups()); n != 11 {
		t.Errorf("%d row groups, want 11", n)
	}
	checkParquetMatchesJSONL(t, &rel.Schema, sink, []string{"test"}, false)
}
