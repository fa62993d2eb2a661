package exports

import (
	"encoding/json"
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
	Records        Tally               `json:"records"`
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

// meanAcc accumulates a mean.
type meanAcc struct {
	sum float64
	n   int64
}

// count adds an exported entry to the tally and the per-item agreement sums.
func (x *exporter) count(e *entry) {
	x.counter.kept(e, x.writers)
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
		Filters: x.job.Spec.filters(), Records: x.tally, Files: x.files.entries(),
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
