package exports

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// frontMatter parses the YAML front matter of a card.
func frontMatter(t *testing.T, card []byte) map[string]any {
	t.Helper()
	parts := bytes.SplitN(card, []byte("---\n"), 3)
	if len(parts) != 3 || len(parts[0]) != 0 {
		t.Fatalf("card does not start with a front matter block:\n%s", card)
	}
	var m map[string]any
	if err := yaml.Unmarshal(parts[1], &m); err != nil {
		t.Fatalf("front matter is not YAML: %v\n%s", err, parts[1])
	}
	return m
}

// TestCardFrontMatter reads the card's front matter as Hugging Face would.
func TestCardFrontMatter(t *testing.T) {
	tpl := template(t, "robojudge")
	rel := testRelease(tpl)
	rel.Project.Name = `RoboJudge: "bench" #1`
	spec := mustSpec(t, &rel.Schema, []string{"hf", "jsonl"}, map[string]any{"split_ratios": "train=0.5,test=0.5",
		"cluster_key": "source_clip", "split_seed": 4})
	sink, _ := exportTo(t, rel, spec, templateRecords(t, tpl))
	card, _ := sink.File("README.md")
	fm := frontMatter(t, card)
	if fm["license"] != "cc-by-4.0" || fm["pretty_name"] != rel.Project.Name {
		t.Errorf("license/pretty_name: %v", fm)
	}
	if cats := fm["task_categories"].([]any); len(cats) != 1 || cats[0] != "image-to-video" {
		t.Errorf("task_categories %v", cats)
	}
	if sizes := fm["size_categories"].([]any); sizes[0] != "n<1K" {
		t.Errorf("size_categories %v", sizes)
	}
	cfg := fm["configs"].([]any)[0].(map[string]any)
	var splits []string
	for _, df := range cfg["data_files"].([]any) {
		m := df.(map[string]any)
		splits = append(splits, m["split"].(string)+"="+m["path"].(string))
	}
	if !slices.Equal(splits, []string{"train=data/train-*", "test=data/test-*"}) {
		t.Errorf("configs %v", splits)
	}
	for _, want := range []string{"## Annotation process", "annotators 6", "| `physical_adherence` | ordinal | krippendorff_alpha | 0.710 | [0.620, 0.790] |",
		"| read | 2 |", "| released | 2 |", "## Conventions", "| train | 1 |"} {
		if !bytes.Contains(card, []byte(want)) {
			t.Errorf("card lacks %q", want)
		}
	}
}

func TestCardConfigsFallBackToJSONL(t *testing.T) {
	tpl := template(t, "d3omni-tts")
	rel := testRelease(tpl)
	for _, tt := range []struct {
		formats []string
		path    string
	}{{[]string{"jsonl", "d3omni"}, "jsonl/test.jsonl"}, {[]string{"d3omni"}, ""}} {
		sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, tt.formats, nil), templateRecords(t, tpl))
		card, _ := sink.File("README.md")
		fm := frontMatter(t, card)
		cfg, ok := fm["configs"].([]any)
		if tt.path == "" {
			if ok {
				t.Errorf("%v: configs %v without a dataset file", tt.formats, cfg)
			}
			continue
		}
		df := cfg[0].(map[string]any)["data_files"].([]any)[0].(map[string]any)
		if df["path"] != tt.path {
			t.Errorf("%v: path %v", tt.formats, df["path"])
		}
	}
}

func TestYAMLScalar(t *testing.T) {
	for _, s := range []string{"cc-by-4.0", "n<1K", "data/train-*", "yes", "1.0", "a: b", "#x", `q"uote`, "trailing ", "D3-Omni (T2I)", ""} {
		var back string
		if err := yaml.Unmarshal([]byte("v: "+yamlScalar(s)), &struct{ V *string }{&back}); err != nil || back != s {
			t.Errorf("%q -> %s -> %q (%v)", s, yamlScalar(s), back, err)
		}
	}
}

func TestSizeCategory(t *testing.T) {
	tests := map[int64]string{0: "n<1K", 999: "n<1K", 1000: "1K<n<10K", 99_999: "10K<n<100K", 1_000_000: "1M<n<10M", 2e9: "n>1B"}
	for n, want := range tests {
		if got := sizeCategory(n); got != want {
			t.Errorf("%d: %s, want %s", n, got, want)
		}
	}
}

func TestDirSink(t *testing.T) {
	dir := t.TempDir()
	s := &DirSink{Root: dir}
	w, err := s.Create("data/sub/x.txt")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("hello"))
	w.Close()
	if b, err := os.ReadFile(filepath.Join(dir, "data", "sub", "x.txt")); err != nil || string(b) != "hello" {
		t.Fatalf("read back %q, %v", b, err)
	}
	for _, bad := range []string{"", "/abs", "../up", "a/../../b", `a\b`, "a//b"} {
		if _, err := s.Create(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
		if _, err := (&MemorySink{}).Create(bad); err == nil {
			t.Errorf("memory sink accepted %q", bad)
		}
	}
}

// TestExportToDirectory writes a release to disk and checks every file
// against the manifest's sizes and checksums.
func TestExportToDirectory(t *testing.T) {
	tpl := template(t, "omnireward-pair")
	rel := testRelease(tpl)
	dir := t.TempDir()
	m, err := Export(t.Context(), Job{Release: rel, Spec: mustSpec(t, &rel.Schema, formatsFitting(&rel.Schema), nil),
		Sink: &DirSink{Root: dir}}, seq(templateRecords(t, tpl)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil || int64(len(b)) != f.Bytes || sha256Hex(b) != f.SHA256 {
			t.Errorf("%s: %d bytes, manifest %d; checksum match %v (%v)", f.Path, len(b), f.Bytes, sha256Hex(b) == f.SHA256, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Error(err)
	}
}

// TestCardNamesAreText: project and release names are text in the card's Markdown body, never
// markup: no HTML, no link, no heading or line of their own.
func TestCardNamesAreText(t *testing.T) {
	tpl := template(t, "robojudge")
	rel := testRelease(tpl)
	rel.Project.Name = "Bench <script>alert(1)</script> [win](http://evil.example)\n# Injected"
	rel.Name = "v1 ![x](http://evil.example/x.png) | *bold*"
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, nil)
	sink, _ := exportTo(t, rel, spec, templateRecords(t, tpl))
	card, _ := sink.File("README.md")
	parts := strings.SplitN(string(card), "---\n", 3) // note: the front matter is YAML, quoted there
	body := parts[len(parts)-1]
	for _, raw := range []string{"<script>", "[win](", "![x](", "\n# Injected", "*bold*", "| *"} {
		if strings.Contains(body, raw) {
			t.Errorf("the card holds %q as markup:\n%.600s", raw, body)
		}
	}
	for _, want := range []string{`# Bench \<script\>alert(1)\</script\> \[win\](http://evil.example) \# Injected`, `Release v1 \!\[x\](http://evil.example/x.png) \| \*bold\*,`} {
		if !strings.Contains(body, want) {
			t.Errorf("the card lacks %q:\n%.600s", want, body)
		}
	}
}
