package exports

import (
	"encoding/json"
)

// jsonRecord is the canonical JSON shape of a released item (format jsonl).
type jsonRecord struct {
	ID         string                     `json:"id"`
	ExternalID string                     `json:"external_id"`
	Split      string                     `json:"split"`
	Status     Status                     `json:"status"`
	Inputs     map[string]json.RawMessage `json:"inputs"`
	Meta       map[string]json.RawMessage `json:"meta"`
	Answers    map[string]json.RawMessage `json:"answers"`
	Normalized map[string]any             `json:"normalized"`
	Provenance *Provenance                `json:"provenance"`
	Agreement  *ItemAgreement             `json:"agreement"`
	DropReason *string                    `json:"drop_reason"`
	Labels     []Label                    `json:"labels,omitempty"`
	Reviews    []Review                   `json:"reviews,omitempty"`
}

// canonicalRecord builds the canonical shape of an entry. Empty maps are
// written as {} so consumers can always iterate them.
func canonicalRecord(e *entry, raw bool) jsonRecord {
	r := jsonRecord{
		ID: e.ID, ExternalID: e.ExternalID, Split: e.Split, Status: e.Status,
		Inputs: nonNil(e.Inputs), Meta: nonNil(e.Meta), Answers: nonNil(e.Answers),
		Normalized: e.normalized, Agreement: e.Agreement,
	}
	if r.Normalized == nil {
		r.Normalized = map[string]any{}
	}
	if e.Provenance.Kind != "" {
		p := e.Provenance
		r.Provenance = &p
	}
	if e.DropReason != "" {
		d := e.DropReason
		r.DropReason = &d
	}
	if raw {
		r.Labels, r.Reviews = e.Labels, e.Reviews
	}
	return r
}

func nonNil(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}

// jsonlWriter writes jsonl/<split>.jsonl.
type jsonlWriter struct {
	env   *env
	files splitFiles
}

func openJSONL(env *env) (writer, error) {
	w := &jsonlWriter{env: env}
	w.files = splitFiles{env: env, format: "jsonl", path: func(s string) string { return "jsonl/" + s + ".jsonl" }}
	return w, nil
}

func (w *jsonlWriter) write(e *entry) error {
	f, err := w.files.get(e.Split)
	if err != nil {
		return err
	}
	if err := writeJSONLine(f, canonicalRecord(e, w.env.spec.Raw)); err != nil {
		return err
	}
	f.record()
	return nil
}

func (w *jsonlWriter) close() error { return w.files.closeAll(nil) }

// writeJSONLine writes v as one compact JSON line without HTML escaping.
func writeJSONLine(f *outFile, v any) error {
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
