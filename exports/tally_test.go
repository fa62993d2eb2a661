package exports

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGoldenCardsAddUp reads every golden release as shipped (README.md,
// manifest.json and the data files under testdata/golden) and checks that
// the numbers of the card are the manifest's, that the manifest's tally
// adds up, and that the files hold the records the tally says.
func TestGoldenCardsAddUp(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "golden", gc.name)
			card := readFile(t, filepath.Join(dir, "README.md"))
			var m Manifest
			if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "manifest.json"))), &m); err != nil {
				t.Fatal(err)
			}
			checkTallyAddsUp(t, m.Records)
			checkCardIsTally(t, card, m.Records, m.Formats)
			checkFilesHoldTally(t, dir, &m)
		})
	}
}

// checkTallyAddsUp: every item read is counted once.
func checkTallyAddsUp(t *testing.T, r Tally) {
	t.Helper()
	if r.Read != r.Filtered+r.Excluded+r.Total {
		t.Errorf("read %d != filtered %d + left out %d + released %d", r.Read, r.Filtered, r.Excluded, r.Total)
	}
	if lossSum(r.LeftOut) != r.Excluded {
		t.Errorf("left out by reason %v sum to %d, excluded %d", r.LeftOut, lossSum(r.LeftOut), r.Excluded)
	}
	if sumMap(r.BySplit) != r.Total || sumMap(r.ByStatus) != r.Total {
		t.Errorf("splits %v or statuses %v do not sum to %d", r.BySplit, r.ByStatus, r.Total)
	}
	for name, f := range r.Formats {
		if f.Records+lossSum(f.LeftOut) != r.Total {
			t.Errorf("%s holds %d and leaves out %v of %d records", name, f.Records, f.LeftOut, r.Total)
		}
	}
	if c := r.Criteria; c != nil {
		if c.Valid+c.Pending+c.RemovedTotal() != c.Written {
			t.Errorf("criteria %+v do not add up", c)
		}
		if c.UnitsDone+lossSum(c.UnitsDropped) > c.UnitsRead {
			t.Errorf("units %+v do not add up", c)
		}
	}
}

// checkCardIsTally finds every count of the card and compares it with the
// manifest's.
func checkCardIsTally(t *testing.T, card string, r Tally, formats []string) {
	t.Helper()
	items := cardTable(t, card, "## Items accounted for")
	want := map[string]int64{"read": r.Read, "left out by the metadata filter": r.Filtered, "released": r.Total}
	for _, l := range r.LeftOut {
		want["left out: "+mdCell(l.Text())] = l.Items
	}
	checkRows(t, "items", items, want)
	var cardSum int64
	for label, n := range items {
		if strings.HasPrefix(label, "left out: ") {
			cardSum += n
		}
	}
	if cardSum != r.Excluded || !strings.Contains(card, "; items left out: "+strconv.FormatInt(r.Excluded, 10)+".\n") &&
		!strings.Contains(card, "Dropped and unresolved items are included") {
		t.Errorf("the card's left-out rows sum to %d, the manifest excludes %d", cardSum, r.Excluded)
	}
	if strings.Contains(card, "Dropped and unresolved items are included") {
		s := "marked by `status` and `drop_reason`: " + strconv.FormatInt(r.ByStatus["dropped"], 10) + " dropped, " +
			strconv.FormatInt(r.ByStatus["unresolved"], 10) + " unresolved."
		if !strings.Contains(card, s) {
			t.Errorf("card lacks %q", s)
		}
	}
	drops := map[string]int64{}
	for _, d := range r.Dropped {
		drops[mdCell(orDash(d.Reason))] = d.Items
	}
	if len(drops) > 0 {
		checkRows(t, "dropped", cardTable(t, card, "Dropped items by reason ("+strconv.FormatInt(lossSum(r.Dropped), 10)+" in all)"), drops)
	} else if !strings.Contains(card, "No item within the release was dropped.") {
		t.Error("the manifest drops nothing and the card does not say so")
	}
	checkRows(t, "splits", cardTable(t, card, "| split | records |"), r.BySplit)
	byFormat := map[string]int64{}
	for _, f := range formats {
		byFormat[f] = r.Formats[f].Records
	}
	checkRows(t, "formats", cardTable(t, card, "| format | records | files |"), byFormat)
	checkRows(t, "provenance", cardTable(t, card, "| provenance | records |"), r.ByProvenance)
	if s := "- Skips (a person passed an item, which went to someone else): " + strconv.FormatInt(r.Skipped, 10) + "\n"; !strings.Contains(card, s) {
		t.Errorf("card lacks %q", s)
	}
	if c := r.Criteria; c != nil {
		want := map[string]int64{"criteria written": c.Written, "awaiting review": c.Pending, "became units": c.Valid,
			"units read by the release": c.UnitsRead, "units with ground truth": c.UnitsDone}
		for _, l := range c.Removed {
			want["removed in QC: "+l.Reason] = l.Items
		}
		for _, l := range c.UnitsDropped {
			want["units dropped: "+mdCell(l.Reason)] = l.Items
		}
		checkRows(t, "criteria", cardTable(t, card, "| criteria and units | count | share |"), want)
	} else if strings.Contains(card, "## Criteria quality control") {
		t.Error("the card reports criteria the manifest does not")
	}
}

// checkFilesHoldTally counts the records in the data files on disk: the
// files of formats that write one record per item hold what the tally says.
func checkFilesHoldTally(t *testing.T, dir string, m *Manifest) {
	t.Helper()
	held := map[string]int64{}
	for _, f := range m.Files {
		if f.Format == "release" || f.Format == "media" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if strings.HasSuffix(f.Path, ".parquet") {
			p += ".txt"
		}
		n := recordsIn(t, p)
		if n != f.Records {
			t.Errorf("%s holds %d records, the manifest lists %d", f.Path, n, f.Records)
		}
		if perItem(f.Format, f.Path) {
			held[f.Format] += n
		}
	}
	for format, n := range held {
		if n != m.Records.Formats[format].Records {
			t.Errorf("%s files hold %d records, the tally says %d", format, n, m.Records.Formats[format].Records)
		}
	}
}

// perItem reports whether a file holds one record per item of its format.
func perItem(format, p string) bool {
	base := path.Base(p)
	switch format {
	case "jsonl", "csv", "hf", "omnireward":
		return true
	case "d3omni":
		return !strings.HasSuffix(base, "_rubric.json")
	case "storybench":
		return base == "all_results.json"
	case "robojudge":
		return base == "items.jsonl"
	}
	return false
}

// recordsIn counts the records of a data file: JSON array elements, JSON
// lines, CSV rows after the header, parquet dump rows.
func recordsIn(t *testing.T, p string) int64 {
	t.Helper()
	b := []byte(readFile(t, p))
	switch {
	case strings.HasSuffix(p, ".parquet.txt"):
		var n int64
		for line := range bytes.Lines(b) {
			if bytes.HasPrefix(line, []byte("{")) {
				n++
			}
		}
		return n
	case strings.HasSuffix(p, ".csv"):
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return int64(len(rows) - 1)
	case strings.HasSuffix(p, ".jsonl"):
		var n int64
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			n++
		}
		return n
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	switch x := v.(type) {
	case []any:
		return int64(len(x))
	case map[string]any:
		if dims, ok := x["dimensions"].([]any); ok {
			return int64(len(dims))
		}
		return 1
	}
	return 0
}

// tableRow is a Markdown table row "| label | count |" or "| label | count | ... |".
var tableRow = regexp.MustCompile(`^\| (.+?) \| (\d+) \|`)

// cardTable reads the label → count rows of the first table after a marker.
func cardTable(t *testing.T, card, marker string) map[string]int64 {
	t.Helper()
	i := strings.Index(card, marker)
	if i < 0 {
		t.Fatalf("card lacks %q:\n%s", marker, card)
	}
	rest := card[i:]
	if !strings.HasPrefix(marker, "|") {
		rest = rest[strings.Index(rest, "\n|")+1:]
	}
	out := map[string]int64{}
	for j, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if j < 2 {
			continue
		}
		mm := tableRow.FindStringSubmatch(line)
		if mm == nil {
			t.Fatalf("row %q after %q has no count", line, marker)
		}
		n, _ := strconv.ParseInt(mm[2], 10, 64)
		if _, dup := out[mm[1]]; dup {
			t.Errorf("row %q twice after %q", mm[1], marker)
		}
		out[mm[1]] = n
	}
	return out
}

// checkRows compares the card's rows with the manifest's counts.
func checkRows(t *testing.T, what string, got map[string]int64, want map[string]int64) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if want[k] == 0 && what == "provenance" {
			continue
		}
		if got[k] != want[k] {
			t.Errorf("%s: the card says %q %d, the manifest %d", what, k, got[k], want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: the card has a row %q (%d) the manifest does not", what, k, got[k])
		}
	}
}

func sumMap(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
