package exports

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
)

// Manifest describes a release: every file with its checksum, the record
// counts, and what produced it. It is written as manifest.json.
type Manifest struct {
	Name           string              `json:"name"`
	Project        ManifestProject     `json:"project"`
	ArbiterVersion string              `json:"arbiter_version"`
	CreatedAt      string              `json:"created_at"`
	Schema         ManifestSchema      `json:"schema"`
	Policy         json.RawMessage     `json:"policy"`
	Formats        []string            `json:"formats"`
	Options        map[string]any      `json:"options"`
	Filters        map[string][]string `json:"filters"`
	Records        Counts              `json:"records"`
	Files          []FileEntry         `json:"files"`
}

// ManifestProject identifies the released project.
type ManifestProject struct {
	// ID is the project's id.
	ID string `json:"id"`
	// Name is the project's name.
	Name string `json:"name"`
}

// ManifestSchema identifies the schema the ground truth answers.
type ManifestSchema struct {
	// Version is the project's schema version.
	Version int `json:"version"`
	// Hash is tasks.Schema.ContentHash: equal for schemas asking the same.
	Hash string `json:"hash"`
	// Format is the schema language version.
	Format int `json:"format"`
	// Template is the built-in template the project follows, if any.
	Template string `json:"template,omitempty"`
}

// Counts are the record counts of a release.
type Counts struct {
	// Total is the number of records exported.
	Total int64 `json:"total"`
	// BySplit, ByStatus and ByProvenance break Total down.
	BySplit      map[string]int64 `json:"by_split"`
	ByStatus     map[string]int64 `json:"by_status"`
	ByProvenance map[string]int64 `json:"by_provenance"`
	// ByLanguage counts records per item language (NoLanguage for items
	// without one); it is left out when no record has a language.
	ByLanguage map[string]int64 `json:"by_language,omitempty"`
	// Excluded counts dropped or unresolved items left out (include_dropped
	// false); Filtered counts items the metadata filter left out.
	Excluded int64 `json:"excluded"`
	Filtered int64 `json:"filtered"`
}

func newCounts() Counts {
	return Counts{BySplit: map[string]int64{}, ByStatus: map[string]int64{}, ByProvenance: map[string]int64{}, ByLanguage: map[string]int64{}}
}

// NoLanguage counts the records of items without a language ("und", the
// BCP 47 tag for an undetermined language).
const NoLanguage = "und"

// dropNoLanguages forgets the language counts when no record has a
// language: a project that never names languages releases as before.
func (c *Counts) dropNoLanguages() {
	if len(c.ByLanguage) == 0 || (len(c.ByLanguage) == 1 && c.ByLanguage[NoLanguage] > 0) {
		c.ByLanguage = nil
	}
}

// baseLanguages returns the language subtags of the counted tags (zh for
// zh-Hans), sorted, as the card's front matter lists them.
func (c Counts) baseLanguages() []string {
	var out []string
	for tag := range c.ByLanguage {
		if tag != NoLanguage {
			out = append(out, strings.SplitN(tag, "-", 2)[0])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// languages returns the counted language tags, NoLanguage last.
func (c Counts) languages() []string {
	tags := slices.Sorted(maps.Keys(c.ByLanguage))
	if i := slices.Index(tags, NoLanguage); i >= 0 {
		tags = append(slices.Delete(tags, i, i+1), NoLanguage)
	}
	return tags
}

// meanAcc accumulates a mean.
type meanAcc struct {
	sum float64
	n   int64
}

// count adds an exported entry to the counts and per-item agreement sums.
func (x *exporter) count(e *entry) {
	c := &x.counts
	c.Total++
	c.BySplit[e.Split]++
	c.ByStatus[string(e.Status)]++
	lang := e.Language
	if lang == "" {
		lang = NoLanguage
	}
	c.ByLanguage[lang]++
	if e.Provenance.Kind != "" {
		c.ByProvenance[e.Provenance.Kind]++
	}
	if e.Agreement == nil {
		return
	}
	for q, v := range e.Agreement.Questions {
		a := x.agree[q]
		if a == nil {
			a = &meanAcc{}
			x.agree[q] = a
		}
		a.sum += v
		a.n++
	}
}

// splits returns the split names in order: train, validation, test first
// (the Hugging Face order), then the rest by name.
func (c Counts) splits() []string {
	rank := map[string]int{"train": 0, "validation": 1, "test": 2}
	names := slices.Collect(maps.Keys(c.BySplit))
	slices.SortFunc(names, func(a, b string) int {
		ra, oka := rank[a]
		rb, okb := rank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	return names
}

// writeManifest writes manifest.json, listing every other file.
func (x *exporter) writeManifest() (*Manifest, error) {
	rel := x.job.Release
	policy := rel.Policy
	if len(policy) == 0 {
		policy = json.RawMessage("null")
	} else if c, err := canonJSON(policy); err == nil {
		policy = c
	}
	m := &Manifest{
		Name: rel.Name, Project: ManifestProject{ID: rel.Project.ID, Name: rel.Project.Name},
		ArbiterVersion: rel.ArbiterVersion, CreatedAt: rel.CreatedAt.UTC().Format(time.RFC3339),
		Schema: ManifestSchema{Version: rel.Schema.Version, Hash: rel.Schema.ContentHash(),
			Format: max(rel.Schema.Format, 1), Template: rel.Template},
		Policy: policy, Formats: x.job.Spec.Formats, Options: x.job.Spec.Options(),
		Filters: x.job.Spec.filters(), Records: x.counts, Files: x.files.entries(),
	}
	if x.job.ExtraFiles != nil {
		m.Files = append(m.Files, x.job.ExtraFiles()...)
		slices.SortFunc(m.Files, func(a, b FileEntry) int { return strings.Compare(a.Path, b.Path) })
	}
	w, err := x.job.Sink.Create("manifest.json")
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err == nil {
		_, err = w.Write(append(b, '\n'))
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return m, err
}
