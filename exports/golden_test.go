package exports

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// goldenCase is one release of a template's sample items, built with the
// hand-made ground truth in testdata/truth.
type goldenCase struct {
	name     string
	template string
	formats  []string
	opts     map[string]any
}

var goldenCases = []goldenCase{
	{"d3omni-t2i", "d3omni-t2i", []string{"jsonl", "csv", "hf", "d3omni"}, map[string]any{"raw": true}},
	{"d3omni-t2v", "d3omni-t2v", []string{"d3omni"}, nil},
	{"d3omni-tts", "d3omni-tts", []string{"jsonl", "d3omni"}, nil},
	{"omnireward-pair", "omnireward-pair", []string{"jsonl", "csv", "hf", "omnireward"}, map[string]any{"raw": true, "include_dropped": true}},
	{"judgeanything-pair", "judgeanything-pair", []string{"jsonl", "judgeanything"}, nil},
	{"judgeanything-score", "judgeanything-score", []string{"csv", "judgeanything"}, nil},
	{"robojudge", "robojudge", []string{"jsonl", "hf", "robojudge"}, map[string]any{"raw": true,
		"split_ratios": "train=0.5,test=0.5", "cluster_key": "source_clip", "split_seed": 4}},
	{"storybench-text", "storybench-text", []string{"csv", "storybench"}, nil},
	{"storybench-image", "storybench-image", []string{"storybench"}, nil},
	{"storybench-speech", "storybench-speech", []string{"jsonl", "storybench"}, nil},
	{"storybench-integrated", "storybench-integrated", []string{"jsonl", "hf", "storybench"}, nil},
	{"omnireward-pair-noties", "omnireward-pair", []string{"omnireward"}, map[string]any{"ties": false}},
}

// TestGoldenReleases pins every file of each golden release. Parquet files
// are pinned as a text dump (schema and rows read back); their bytes are
// pinned through the manifest's checksums.
func TestGoldenReleases(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			tpl := template(t, gc.template)
			rel := testRelease(tpl)
			spec := mustSpec(t, &rel.Schema, gc.formats, gc.opts)
			sink, m := exportTo(t, rel, spec, templateRecords(t, tpl))
			dir := filepath.Join("testdata", "golden", gc.name)
			var want []string
			for _, p := range sink.Paths() {
				b, _ := sink.File(p)
				if strings.HasSuffix(p, ".parquet") {
					b, p = parquetDump(t, b), p+".txt"
				}
				want = append(want, p)
				checkGolden(t, filepath.Join(dir, filepath.FromSlash(p)), b)
			}
			checkNoStaleGolden(t, dir, want)
			if slices.Contains(gc.formats, "hf") && slices.Contains(gc.formats, "jsonl") {
				checkParquetMatchesJSONL(t, &rel.Schema, sink, m.Records.splits(), spec.Raw)
			}
		})
	}
}

// parquetDump renders a parquet file as its schema and one JSON line per row.
func parquetDump(t *testing.T, b []byte) []byte {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.WriteString(f.Schema().String())
	out.WriteString("\n")
	for _, row := range readParquet(t, b) {
		line, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(line)
		out.WriteString("\n")
	}
	return out.Bytes()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./exports -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run go test ./exports -run TestGolden -update and review the diff", path)
	}
}

// checkNoStaleGolden fails when the golden directory holds files the
// release no longer writes (with -update it removes them).
func checkNoStaleGolden(t *testing.T, dir string, want []string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if !slices.Contains(want, filepath.ToSlash(rel)) {
			if *update {
				return os.Remove(p)
			}
			t.Errorf("stale golden file %s", p)
		}
		return nil
	})
}
