package exports

import (
	"encoding/json"
)

// The canonical record (format jsonl) is one JSON object per line with the
// fields, in this order:
//
//	id, external_id, split, status   strings
//	language                         when the item has one: its BCP 47 tag
//	inputs, meta                     objects of the item's values (media as
//	                                 the paths or URLs given)
//	answers                          the ground truth as answered
//	normalized                       the ground truth as analysed
//	provenance                       {kind, adjudicator, rationale,
//	                                 confidence, revision} or null
//	agreement                        {labels, percent_agreement, questions}
//	                                 or null
//	drop_reason                      string or null
//	missing                          when any: the questions the system
//	                                 answered "missing" (the item lacked an
//	                                 input they need), left out of answers
//	texts                            when any: per free-text question, every
//	                                 accepted answer {author, role, text}
//	labels, reviews, skips           with option raw, when the item has any
//	                                 (skips: {person, stage, reason})
//
// Object keys inside these fields are sorted.

// appendRecord appends the canonical record of an entry and a newline.
func appendRecord(b []byte, e *entry, raw bool) []byte {
	b = append(b, '{')
	b = appendField(b, true, "id", e.ID)
	b = appendField(b, false, "external_id", e.ExternalID)
	b = appendField(b, false, "split", e.Split)
	b = appendField(b, false, "status", string(e.Status))
	if e.Language != "" {
		b = appendField(b, false, "language", e.Language)
	}
	b = appendField(b, false, "inputs", nonNil(e.Inputs))
	b = appendField(b, false, "meta", nonNil(e.Meta))
	b = appendField(b, false, "answers", nonNilAny(e.answered))
	b = appendField(b, false, "normalized", nonNilAny(e.normalized))
	b = appendField(b, false, "provenance", provenanceValue(e.Provenance))
	b = appendField(b, false, "agreement", agreementValue(e.Agreement))
	b = appendField(b, false, "drop_reason", nilIfEmpty(e.DropReason))
	if len(e.missing) > 0 {
		b = appendField(b, false, "missing", e.missing)
	}
	if len(e.Aggregates) > 0 {
		b = appendField(b, false, "aggregates", e.Aggregates)
	}
	if len(e.Texts) > 0 {
		b = appendField(b, false, "texts", e.Texts)
	}
	if len(e.Refinements) > 0 {
		b = appendField(b, false, "refinements", e.Refinements)
	}
	if raw && len(e.Labels) > 0 {
		b = appendField(b, false, "labels", e.Labels)
	}
	if raw && len(e.Reviews) > 0 {
		b = appendField(b, false, "reviews", e.Reviews)
	}
	if raw && len(e.Skips) > 0 {
		b = appendField(b, false, "skips", e.Skips)
	}
	return append(b, '}', '\n')
}

// provenanceValue is the provenance object, nil without ground truth.
func provenanceValue(p Provenance) any {
	if p.Kind == "" {
		return nil
	}
	o := obj{{"kind", p.Kind}}
	if p.Adjudicator != "" {
		o.add("adjudicator", p.Adjudicator)
	}
	if p.Rationale != "" {
		o.add("rationale", p.Rationale)
	}
	if p.Confidence != nil {
		o.add("confidence", *p.Confidence)
	}
	o.add("revision", p.Revision)
	return o
}

// agreementValue is the per-item agreement object, nil without figures.
func agreementValue(a *ItemAgreement) any {
	if a == nil {
		return nil
	}
	o := obj{{"labels", a.Labels}}
	if a.PercentAgreement != nil {
		o.add("percent_agreement", *a.PercentAgreement)
	} else {
		o.add("percent_agreement", nil)
	}
	if len(a.Questions) > 0 {
		o.add("questions", a.Questions)
	}
	return o
}

func nonNil(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}

func nonNilAny(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// jsonlWriter writes jsonl/<split>.jsonl.
type jsonlWriter struct {
	holdsAll
	env   *env
	files splitFiles
	buf   []byte
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
	w.buf = appendRecord(w.buf[:0], e, w.env.spec.Raw)
	if _, err := f.Write(w.buf); err != nil {
		return err
	}
	f.record()
	return nil
}

func (w *jsonlWriter) close() error { return w.files.closeAll(nil) }

// writeJSONLine writes v as one compact JSON line without HTML escaping.
func writeJSONLine(f *outFile, v any) error {
	b := appendJSON(nil, v)
	_, err := f.Write(append(b, '\n'))
	return err
}
