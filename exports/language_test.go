package exports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestExportLanguages: an item's language is in every record format that carries the item's
// fields (jsonl only when the item has one, csv and hf as a column, empty or null without), the manifest and the card
// count records by language, and the card's front matter lists the languages seen when the
// release names none. A release whose items have no language counts none.
func TestExportLanguages(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl", "csv", "hf"}, map[string]any{"include_dropped": true})
	recs := sinkRecords()
	recs[0].Language, recs[1].Language = "zh-Hans", "en"
	sink, m := exportTo(t, rel, spec, recs)

	got := map[string]any{}
	b, _ := sink.File("jsonl/test.jsonl")
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r map[string]any
		json.Unmarshal(line, &r)
		lang, ok := r["language"]
		if !ok {
			lang = "absent"
		}
		got[r["id"].(string)] = lang
	}
	if want := map[string]any{"i1": "zh-Hans", "i2": "en", "i3": "absent"}; !maps.Equal(got, want) {
		t.Errorf("jsonl languages %v, want %v", got, want)
	}
	if !bytes.Contains(b, []byte(`"status":"done","language":"zh-Hans","inputs"`)) {
		t.Errorf("jsonl: language does not follow status:\n%s", b)
	}

	c, _ := sink.File("csv/test.csv")
	rows, err := csv.NewReader(bytes.NewReader(c)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "language")
	if col < 0 || len(rows) != 4 {
		t.Fatalf("csv header %v, %d rows", rows[0], len(rows))
	}
	var langs []string
	for _, r := range rows[1:] {
		langs = append(langs, r[col])
	}
	if want := []string{"zh-Hans", "en", ""}; !slices.Equal(langs, want) {
		t.Errorf("csv languages %v, want %v", langs, want)
	}

	checkParquetMatchesJSONL(t, &rel.Schema, sink, []string{"test"}, false)
	pq, _ := sink.File("data/test-00000-of-00001.parquet")
	pqRows := readParquet(t, pq)
	first, last := pqRows[0].(map[string]any), pqRows[2].(map[string]any)
	if first["language"] != "zh-Hans" || last["language"] != nil {
		t.Errorf("hf languages %v, %v", first["language"], last["language"])
	}

	if want := map[string]int64{"zh-Hans": 1, "en": 1, NoLanguage: 1}; !maps.Equal(m.Records.ByLanguage, want) {
		t.Errorf("manifest by_language %v, want %v", m.Records.ByLanguage, want)
	}
	card, _ := sink.File("README.md")
	if want := "| language | records |\n|---|---:|\n| `en` | 1 |\n| `zh-Hans` | 1 |\n| none (`und`) | 1 |\n"; !strings.Contains(string(card), want) {
		t.Errorf("card lacks the language counts %q:\n%s", want, card)
	}
	if fm := frontMatter(t, card); !slices.Equal(fm["language"].([]any), []any{"en", "zh"}) {
		t.Errorf("front matter languages %v, want [en zh]", fm["language"])
	}

	_, plain := exportTo(t, rel, spec, sinkRecords())
	manifest, _ := json.Marshal(plain.Records)
	if plain.Records.ByLanguage != nil || bytes.Contains(manifest, []byte("by_language")) {
		t.Errorf("a release without languages counts them: %s", manifest)
	}
}
