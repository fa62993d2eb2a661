package exports

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// templateCategories are the Hugging Face task categories of the generation
// task each built-in benchmark template evaluates.
var templateCategories = map[string][]string{
	"d3omni-t2i": {"text-to-image"}, "d3omni-t2v": {"text-to-video"}, "d3omni-tts": {"text-to-speech"},
	"robojudge": {"image-to-video"}, "omnireward-pair": {"any-to-any"},
	"judgeanything-pair": {"any-to-any"}, "judgeanything-score": {"any-to-any"},
	"storybench-text": {"any-to-any"}, "storybench-image": {"any-to-any"},
	"storybench-speech": {"any-to-any"}, "storybench-integrated": {"any-to-any"},
}

// sizeCategory is the Hugging Face size category of n records.
func sizeCategory(n int64) string {
	bounds := []struct {
		limit int64
		label string
	}{{1e3, "n<1K"}, {1e4, "1K<n<10K"}, {1e5, "10K<n<100K"}, {1e6, "100K<n<1M"},
		{1e7, "1M<n<10M"}, {1e8, "10M<n<100M"}, {1e9, "100M<n<1B"}}
	for _, b := range bounds {
		if n < b.limit {
			return b.label
		}
	}
	return "n>1B"
}

// plainYAML matches scalars safe to write unquoted.
var plainYAML = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _./<>()+-]*$`)

// yamlScalar writes s plain when safe, double-quoted otherwise.
func yamlScalar(s string) string {
	if plainYAML.MatchString(s) && !strings.HasSuffix(s, " ") && !isYAMLKeyword(s) {
		return s
	}
	return strconv.Quote(s)
}

func isYAMLKeyword(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~":
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// writeCard writes the dataset card README.md.
func (x *exporter) writeCard() error {
	f, err := x.files.create("README.md", "release")
	if err != nil {
		return err
	}
	var b strings.Builder
	x.cardFrontMatter(&b)
	x.cardBody(&b)
	f.WriteString(b.String())
	return f.Close()
}

// cardFrontMatter writes the YAML front matter Hugging Face reads.
func (x *exporter) cardFrontMatter(b *strings.Builder) {
	rel := x.job.Release
	c := rel.Card
	license := c.License
	if license == "" {
		license = "other"
	}
	langs := c.Languages
	if len(langs) == 0 {
		langs = x.tally.baseLanguages()
	}
	if len(langs) == 0 {
		langs = []string{"en"}
	}
	cats := c.TaskCategories
	if len(cats) == 0 {
		cats = templateCategories[rel.Template]
	}
	b.WriteString("---\n")
	fmt.Fprintf(b, "license: %s\n", yamlScalar(license))
	yamlList(b, "language", langs)
	yamlList(b, "task_categories", cats)
	yamlList(b, "tags", append([]string{"human-annotation", "evaluation"}, c.Tags...))
	yamlList(b, "size_categories", []string{sizeCategory(x.tally.Total)})
	if rel.Project.Name != "" {
		fmt.Fprintf(b, "pretty_name: %s\n", yamlScalar(rel.Project.Name))
	}
	x.cardConfigs(b)
	b.WriteString("---\n\n")
}

// yamlList writes a YAML list, or nothing when empty.
func yamlList(b *strings.Builder, key string, vals []string) {
	if len(vals) == 0 {
		return
	}
	fmt.Fprintf(b, "%s:\n", key)
	for _, v := range vals {
		fmt.Fprintf(b, "- %s\n", yamlScalar(v))
	}
}

// cardConfigs points the default config at the parquet files (hf), or at
// the canonical JSON Lines when hf is not part of the release.
func (x *exporter) cardConfigs(b *strings.Builder) {
	pattern := ""
	switch {
	case slices.Contains(x.job.Spec.Formats, "hf"):
		pattern = "data/%s-*"
	case slices.Contains(x.job.Spec.Formats, "jsonl"):
		pattern = "jsonl/%s.jsonl"
	default:
		return
	}
	b.WriteString("configs:\n- config_name: default\n  data_files:\n")
	for _, s := range x.tally.splits() {
		fmt.Fprintf(b, "  - split: %s\n    path: %s\n", yamlScalar(s), yamlScalar(fmt.Sprintf(pattern, s)))
	}
}

func ifStr(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// mdText escapes a name for running Markdown text: one line, with every character that could
// open a construct (emphasis, links, images, code, HTML, headings, tables) taken literally.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(s), " ") {
		if strings.ContainsRune("\\`*_[]<>#!|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCell escapes a value for a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
