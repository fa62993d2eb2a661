package exports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// kindExport is what the exports make of one answer of one kind.
type kindExport struct {
	q          tasks.Question // its key is set to "k_<kind>"
	answer     string
	answered   string            // JSON of the jsonl record's answers entry
	normalized string            // JSON of its normalized entry
	csv        map[string]string // csv column suffix → cell
	hf         string            // parquet type of the answers column
	hfNorm     string            // parquet type of the normalized column
	scale      string            // the card's scale
}

// kindExports holds every kind; TestEveryKindEveryFormat fails for a kind
// without an entry.
var kindExports = map[tasks.Kind]kindExport{
	tasks.KindBinary: {q: tasks.Question{Kind: tasks.KindBinary, YesMeans: tasks.YesMeansDefect}, answer: `"yes"`,
		answered: `"yes"`, normalized: `false`, csv: map[string]string{"": "yes", ".satisfied": "false"},
		hf: "string", hfNorm: "bool", scale: "yes / no"},
	tasks.KindLikert: {q: tasks.Question{Kind: tasks.KindLikert, Min: ip(1), Max: ip(7)}, answer: `6`,
		answered: `6`, normalized: `6`, csv: map[string]string{"": "6"}, hf: "int64", hfNorm: "int64", scale: "1-7"},
	tasks.KindChoice: {q: tasks.Question{Kind: tasks.KindChoice, Options: []tasks.Option{{Key: "cat", Label: "Cat"}, {Key: "dog", Label: "Dog"}}},
		answer: `"dog"`, answered: `"dog"`, normalized: `"dog"`, csv: map[string]string{"": "dog"},
		hf: "string", hfNorm: "string", scale: "cat / dog"},
	tasks.KindMultiChoice: {q: tasks.Question{Kind: tasks.KindMultiChoice, Options: []tasks.Option{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}, {Key: "c", Label: "C"}}},
		answer: `["c","a"]`, answered: `["c","a"]`, normalized: `["a","c"]`, csv: map[string]string{"": "a|c"},
		hf: "list<string>", hfNorm: "list<string>", scale: "a / b / c"},
	tasks.KindPairwise: {q: tasks.Question{Kind: tasks.KindPairwise, Candidates: "k_pair", AllowTie: true}, answer: `"tie"`,
		answered: `"tie"`, normalized: `"tie"`, csv: map[string]string{"": "tie"}, hf: "string", hfNorm: "string", scale: "A / B / tie"},
	tasks.KindRanking: {q: tasks.Question{Kind: tasks.KindRanking, Candidates: "k_pool"}, answer: `["B","C","A"]`,
		answered: `["B","C","A"]`, normalized: `["B","C","A"]`, csv: map[string]string{"": "B>C>A"},
		hf: "list<string>", hfNorm: "list<string>", scale: "ranking"},
	tasks.KindChecklist: {q: tasks.Question{Kind: tasks.KindChecklist, Items: []tasks.ChecklistItem{{Key: "x", Label: "X", Max: 2}, {Key: "y", Label: "Y", Max: 4}}},
		answer: `{"y":3,"x":0}`, answered: `{"x":0,"y":3}`, normalized: `{"x":0,"y":3}`, csv: map[string]string{".x": "0", ".y": "3"},
		hf: "struct{x:int64,y:int64}", hfNorm: "struct{x:int64,y:int64}", scale: "x 0-2, y 0-4"},
	tasks.KindText: {q: tasks.Question{Kind: tasks.KindText}, answer: `"looks <fine>"`,
		answered: `"looks <fine>"`, normalized: `"looks <fine>"`, csv: map[string]string{"": "looks <fine>"},
		hf: "string", hfNorm: "string", scale: "text"},
	tasks.KindCriteria: {q: tasks.Question{Kind: tasks.KindCriteria}, answer: `["sharp","lit"]`,
		answered: `["sharp","lit"]`, normalized: `["sharp","lit"]`, csv: map[string]string{"": `["sharp","lit"]`},
		hf: "list<string>", hfNorm: "list<string>", scale: "criteria"},
	tasks.KindListEdit: {q: tasks.Question{Kind: tasks.KindListEdit, List: "k_list"}, answer: `[{"op":"drop","from":0},{"op":"add","text":" Is it lit? "}]`,
		answered: `["Is it lit?"]`, normalized: `["Is it lit?"]`, csv: map[string]string{"": `["Is it lit?"]`},
		hf: "list<string>", hfNorm: "list<string>", scale: "list_edit"},
}

// formatTemplates names, for every format, a template whose schema fits it.
var formatTemplates = map[string]string{
	"jsonl": "d3omni-t2i", "csv": "d3omni-t2i", "hf": "robojudge", "d3omni": "d3omni-t2i",
	"omnireward": "omnireward-pair", "judgeanything": "judgeanything-score", "robojudge": "robojudge",
	"storybench": "storybench-text",
}

// withEveryKind adds to a template's schema one question of every kind
// (keys "k_<kind>") and the optional inputs they need, in a pass of their
// own when the form has passes, and answers them in every record with
// ground truth.
func withEveryKind(t *testing.T, s *tasks.Schema, recs []Record) {
	t.Helper()
	s.Inputs = append(s.Inputs,
		tasks.Input{Name: "k_pair", Type: tasks.InputCandidates, Count: 2, Optional: true},
		tasks.Input{Name: "k_pool", Type: tasks.InputCandidates, Count: 3, Optional: true},
		tasks.Input{Name: "k_list", Type: tasks.InputJSON, Optional: true})
	for _, k := range tasks.Kinds {
		ke, ok := kindExports[k]
		if !ok {
			t.Fatalf("no kindExport for kind %s: add one", k)
		}
		q := ke.q
		q.Key, q.Label = "k_"+string(k), "Every kind: "+string(k)
		s.Questions = append(s.Questions, q)
		for i := range recs {
			if recs[i].Status == StatusDone || recs[i].Status == "" {
				recs[i].Answers = maps.Clone(recs[i].Answers)
				recs[i].Answers[q.Key] = json.RawMessage(ke.answer)
			}
		}
	}
	if s.HasPasses() {
		ps := tasks.Pass{Key: "k_every", Label: "Every kind", Inputs: []string{"k_pair", "k_pool", "k_list"}}
		for _, k := range tasks.Kinds {
			ps.Questions = append(ps.Questions, "k_"+string(k))
		}
		s.Passes = append(s.Passes, ps)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("schema with every kind: %v", err)
	}
}

// TestEveryKindEveryFormat exports a question of every kind in every format:
// each format still fits and writes its files, the card states each
// question's scale, and jsonl, csv and hf carry each answer as its kind says.
func TestEveryKindEveryFormat(t *testing.T) {
	for _, name := range FormatNames() {
		t.Run(name, func(t *testing.T) {
			id, ok := formatTemplates[name]
			if !ok {
				t.Fatalf("no template for format %s in formatTemplates", name)
			}
			tpl := template(t, id)
			rel := testRelease(tpl)
			recs := templateRecords(t, tpl)
			withEveryKind(t, &rel.Schema, recs)
			sink, m := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{name}, nil), recs)
			if !slices.ContainsFunc(m.Files, func(f FileEntry) bool { return f.Format == name }) {
				t.Fatalf("no %s file among %v", name, sink.Paths())
			}
			card, _ := sink.File("README.md")
			for _, k := range tasks.Kinds {
				row := "| `k_" + string(k) + "` | Every kind: " + string(k) + " | " + string(k) + " | " + kindExports[k].scale + " |"
				if !bytes.Contains(card, []byte(row)) {
					t.Errorf("the card has no row %s", row)
				}
			}
			switch name {
			case "jsonl":
				checkKindsJSONL(t, sink)
			case "csv":
				checkKindsCSV(t, sink)
			case "hf":
				checkKindsHF(t, sink)
			}
		})
	}
}

// splitFile returns the one file of a sink under prefix with suffix.
func splitFile(t *testing.T, sink *MemorySink, prefix, suffix string) []byte {
	t.Helper()
	for _, p := range sortedPaths(sink) {
		if strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix) {
			b, _ := sink.File(p)
			return b
		}
	}
	t.Fatalf("no %s*%s in %v", prefix, suffix, sink.Paths())
	return nil
}

func checkKindsJSONL(t *testing.T, sink *MemorySink) {
	rec := readJSONL(t, splitFile(t, sink, "jsonl/", ".jsonl"))[0]
	for _, k := range tasks.Kinds {
		key := "k_" + string(k)
		if got := jsonOf(t, rec["answers"].(map[string]any)[key]); got != kindExports[k].answered {
			t.Errorf("%s: answers %s, want %s", k, got, kindExports[k].answered)
		}
		if got := jsonOf(t, rec["normalized"].(map[string]any)[key]); got != kindExports[k].normalized {
			t.Errorf("%s: normalized %s, want %s", k, got, kindExports[k].normalized)
		}
	}
}

func checkKindsCSV(t *testing.T, sink *MemorySink) {
	rows, err := csv.NewReader(bytes.NewReader(splitFile(t, sink, "csv/", ".csv"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("csv: %d rows, %v", len(rows), err)
	}
	for _, k := range tasks.Kinds {
		prefix := "gt.k_" + string(k)
		got := map[string]string{}
		for i, h := range rows[0] {
			if h == prefix || strings.HasPrefix(h, prefix+".") {
				got[strings.TrimPrefix(h, prefix)] = rows[1][i]
			}
		}
		if !maps.Equal(got, kindExports[k].csv) {
			t.Errorf("%s: csv cells %q, want %q", k, got, kindExports[k].csv)
		}
	}
}

func checkKindsHF(t *testing.T, sink *MemorySink) {
	b := splitFile(t, sink, "data/", ".parquet")
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	row := readParquet(t, b)[0].(map[string]any)
	for _, k := range tasks.Kinds {
		key, want := "k_"+string(k), kindExports[k]
		for _, col := range []struct{ group, shape, value string }{{"answers", want.hf, want.answered}, {"normalized", want.hfNorm, want.normalized}} {
			node := fieldNode(f.Schema(), col.group, key)
			if node == nil {
				t.Errorf("%s: no column %s.%s", k, col.group, key)
				continue
			}
			if got := parquetShape(node); got != col.shape {
				t.Errorf("%s: %s column is %s, want %s", k, col.group, got, col.shape)
			}
			if got := jsonOf(t, row[col.group].(map[string]any)[key]); got != col.value {
				t.Errorf("%s: %s value %s, want %s", k, col.group, got, col.value)
			}
		}
	}
}

// fieldNode finds the node at a path of group names.
func fieldNode(n parquet.Node, path ...string) parquet.Node {
	for _, name := range path {
		i := slices.IndexFunc(n.Fields(), func(f parquet.Field) bool { return f.Name() == name })
		if i < 0 {
			return nil
		}
		n = n.Fields()[i]
	}
	return n
}

// parquetShape renders a node's type as "string", "int64", "bool",
// "list<...>" or "struct{name:type,...}".
func parquetShape(n parquet.Node) string {
	if n.Leaf() {
		switch n.Type().Kind() {
		case parquet.Boolean:
			return "bool"
		case parquet.Int64:
			return "int64"
		case parquet.ByteArray:
			return "string"
		}
		return n.Type().String()
	}
	if lt := n.Type().LogicalType(); lt != nil && lt.String() == "LIST" {
		return "list<" + parquetShape(n.Fields()[0].Fields()[0]) + ">"
	}
	var fields []string
	for _, f := range n.Fields() {
		fields = append(fields, f.Name()+":"+parquetShape(f))
	}
	return "struct{" + strings.Join(fields, ",") + "}"
}

// jsonOf encodes v as compact JSON without HTML escaping.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(buf.String())
}
