package exports

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// truthFile is the hand-made ground truth of a template's sample items,
// testdata/truth/<template>.json, keyed by external id.
type truthFile struct {
	// Meta is merged into every item's metadata (e.g. a split key).
	Meta  map[string]json.RawMessage `json:"meta"`
	Items map[string]truthItem       `json:"items"`
}

type truthItem struct {
	Status     Status                     `json:"status"`
	Language   string                     `json:"language"`
	Answers    tasks.Answers              `json:"answers"`
	Provenance Provenance                 `json:"provenance"`
	DropReason string                     `json:"drop_reason"`
	Labels     []Label                    `json:"labels"`
	Reviews    []Review                   `json:"reviews"`
	Meta       map[string]json.RawMessage `json:"meta"`
	// Texts are the free-text answers kept beside a consensus decision, as
	// the workflow keeps them (never in the consensus answers).
	Texts map[string][]TextAnswer `json:"texts"`
	// Parent is the external id of the item a criterion unit was made from.
	Parent string `json:"parent"`
	// SpotCheck lists the questions a blind spot check disagreed on.
	SpotCheck []string `json:"spot_check"`
	Skips     []Skip   `json:"skips"`
}

// templateRecords builds the records of a template's samples with the
// hand-made ground truth; item ids are "<template>-<n>".
func templateRecords(t *testing.T, tpl tasks.Template) []Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "truth", tpl.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var tf truthFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		t.Fatalf("%s truth: %v", tpl.ID, err)
	}
	var out []Record
	for i, it := range tpl.Samples {
		tr, ok := tf.Items[it.ExternalID]
		if !ok {
			t.Fatalf("%s: no ground truth for sample %s", tpl.ID, it.ExternalID)
		}
		meta := map[string]json.RawMessage{}
		for _, m := range []map[string]json.RawMessage{it.Meta, tf.Meta, tr.Meta} {
			for k, v := range m {
				meta[k] = v
			}
		}
		rec := Record{
			ID: tpl.ID + "-" + string(rune('1'+i)), ExternalID: it.ExternalID, Language: tr.Language, Inputs: it.Inputs, Meta: meta,
			Status: tr.Status, Answers: tr.Answers, Provenance: tr.Provenance, DropReason: tr.DropReason,
			Labels: tr.Labels, Reviews: tr.Reviews, Texts: tr.Texts, Parent: tr.Parent, Skips: tr.Skips,
		}
		if tr.SpotCheck != nil {
			rec.SpotCheck = &SpotCheckFailure{Questions: tr.SpotCheck}
		}
		out = append(out, rec)
	}
	if len(tf.Items) != len(out) {
		t.Fatalf("%s: truth has %d items, template %d samples", tpl.ID, len(tf.Items), len(out))
	}
	return out
}

// testRelease is the release header used by the golden tests.
func testRelease(tpl tasks.Template) *Release {
	alpha := agreement.Estimate{Value: 0.71, Defined: true}
	var qa []QuestionAgreement
	for i, q := range tpl.Schema.Questions {
		if q.MeasurementLevel() == tasks.LevelNone || i > 2 {
			continue
		}
		qa = append(qa, QuestionAgreement{Question: q.Key, Level: string(q.MeasurementLevel()),
			Metric: "krippendorff_alpha", Value: alpha, CI: &agreement.CI{Lower: 0.62, Upper: 0.79, Replicates: 1000},
			Units: 120, Raters: 3})
	}
	var criteria *CriteriaQC
	if slices.ContainsFunc(tpl.Forms, func(f tasks.Form) bool { return f.Key == "criteria" }) {
		criteria = &CriteriaQC{Written: 4, Valid: 3, Removed: []Loss{{Kind: LossCriteriaQC, Reason: "too_vague", Items: 1}}}
	}
	return &Release{
		Name:     "v1",
		Criteria: criteria,
		Project:  Project{ID: "p-" + tpl.ID, Name: tpl.Name, Description: tpl.Description},
		Schema:   tpl.Schema, Template: tpl.ID,
		Policy:        json.RawMessage(`{"overlap":3,"review":"cross","adjudication":"on_disagreement"}`),
		PolicySummary: "Three independent labels per item, cross-review, adjudication on disagreement.",
		Figures: Figures{Annotators: 6, Reviewers: 3, Adjudicators: 1, Overlap: 3, Labels: 390,
			Reviews: map[string]int{"approve": 350, "correct": 30, "reject": 10}, Adjudications: 14, Agreement: qa},
		Card:           Card{License: "cc-by-4.0", Citation: "@misc{example, title={Example}}"},
		CreatedAt:      time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		ArbiterVersion: "0.9.0-test",
		Salt:           []byte("test-salt"),
	}
}

// seq streams records.
func seq(recs []Record) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// failingSeq yields records then an error.
func failingSeq(recs []Record, err error) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
		yield(Record{}, err)
	}
}

// mustSpec parses a spec or fails the test.
func mustSpec(t *testing.T, s *tasks.Schema, formats []string, opts map[string]any) *Spec {
	t.Helper()
	spec, err := ParseSpec(s, formats, opts)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// exportTo runs an export into a memory sink.
func exportTo(t *testing.T, rel *Release, spec *Spec, recs []Record) (*MemorySink, *Manifest) {
	t.Helper()
	sink := &MemorySink{}
	m, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: sink}, seq(recs))
	if err != nil {
		t.Fatal(err)
	}
	return sink, m
}

// fieldCodes returns the codes of a tasks.FieldErrors by key.
func fieldCodes(t *testing.T, err error) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err == nil {
		return out
	}
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not tasks.FieldErrors", err)
	}
	for k, v := range fe {
		if v.Message == "" {
			t.Errorf("%s: empty message", k)
		}
		out[k] = v.Code
	}
	return out
}

// template returns a built-in template or fails.
func template(t *testing.T, id string) tasks.Template {
	t.Helper()
	tpl, ok := tasks.LookupTemplate(id)
	if !ok {
		t.Fatalf("no template %s", id)
	}
	return tpl
}

// sortedPaths lists a sink's paths.
func sortedPaths(s *MemorySink) []string { return slices.Sorted(slices.Values(s.Paths())) }

// contextWithCancel returns a cancellable child of the test context.
func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}

// formatsFitting lists the formats a schema fits.
func formatsFitting(s *tasks.Schema) []string {
	var out []string
	for _, name := range FormatNames() {
		if Validate(s, []string{name}, nil) == nil {
			out = append(out, name)
		}
	}
	return out
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
