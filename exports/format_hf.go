package exports

import (
	"maps"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// hfBatch is the number of rows handed to the parquet writer at once.
const hfBatch = 256

// hfWriter writes data/<split>-00000-of-00001.parquet: one shard per split
// (the number of records per split is only known at the end of the stream),
// row groups of at most Spec.RowGroupRows rows flushed as they fill.
type hfWriter struct {
	holdsAll
	env     *env
	schema  *parquet.Schema
	enc     *rowEncoder
	rows    *hfRows
	files   splitFiles
	writers map[*outFile]*hfShard
}

// hfShard is one parquet file being written, with rows waiting for it.
type hfShard struct {
	w    *parquet.GenericWriter[any]
	rows []parquet.Row
	n    int
}

func openHF(env *env) (writer, error) {
	schema := hfSchema(&env.rel.Schema, env.spec.Raw)
	w := &hfWriter{env: env, schema: schema, enc: newRowEncoder(schema), rows: newHFRows(&env.rel.Schema, env.spec.Raw),
		writers: map[*outFile]*hfShard{}}
	w.files = splitFiles{env: env, format: "hf",
		path: func(s string) string { return "data/" + s + "-00000-of-00001.parquet" },
		start: func(f *outFile) error {
			w.writers[f] = &hfShard{rows: make([]parquet.Row, hfBatch), w: parquet.NewGenericWriter[any](f, schema,
				parquet.MaxRowsPerRowGroup(int64(env.spec.RowGroupRows)),
				parquet.Compression(&snappy.Codec{}),
				parquet.CreatedBy("arbiter-exports", "1", "hf"))}
			return nil
		}}
	return w, nil
}

func (w *hfWriter) write(e *entry) error {
	f, err := w.files.get(e.Split)
	if err != nil {
		return err
	}
	sh := w.writers[f]
	sh.rows[sh.n] = w.enc.encode(sh.rows[sh.n][:0], w.rows.build(e))
	sh.n++
	f.record()
	if sh.n == len(sh.rows) {
		return sh.flush()
	}
	return nil
}

// flush hands the buffered rows to the parquet writer; the row buffers are
// reused.
func (sh *hfShard) flush() error {
	if sh.n == 0 {
		return nil
	}
	_, err := sh.w.WriteRows(sh.rows[:sh.n])
	sh.n = 0
	return err
}

func (w *hfWriter) close() error {
	return w.files.closeAll(func(f *outFile) error {
		sh := w.writers[f]
		if err := sh.flush(); err != nil {
			return err
		}
		return sh.w.Close()
	})
}

// hfRows builds the value tree of an entry's row, in the layout of
// hf_schema.go (absent values are nil). Its maps are reused from row to
// row: a row is encoded before the next one is built.
type hfRows struct {
	s                        *tasks.Schema
	raw                      bool
	row, inputs, prov, agree map[string]any
}

func newHFRows(s *tasks.Schema, raw bool) *hfRows {
	return &hfRows{s: s, raw: raw, row: map[string]any{}, inputs: map[string]any{}, prov: map[string]any{}, agree: map[string]any{}}
}

func (h *hfRows) build(e *entry) map[string]any {
	row := h.row
	clear(row)
	row["id"], row["external_id"], row["split"], row["status"] = e.ID, e.ExternalID, e.Split, string(e.Status)
	row["language"] = nilIfEmpty(e.Language)
	row["meta"], row["answers"], row["normalized"] = e.metaJSON, e.answered, e.normalized
	row["drop_reason"] = nilIfEmpty(e.DropReason)
	if len(h.s.Inputs) > 0 {
		row["inputs"] = h.inputsRow(e)
	}
	if p := e.Provenance; p.Kind != "" {
		clear(h.prov)
		h.prov["kind"], h.prov["adjudicator"], h.prov["rationale"] = p.Kind, nilIfEmpty(p.Adjudicator), nilIfEmpty(p.Rationale)
		h.prov["revision"] = int64(p.Revision)
		if p.Confidence != nil {
			h.prov["confidence"] = *p.Confidence
		}
		row["provenance"] = h.prov
	}
	if a := e.Agreement; a != nil {
		clear(h.agree)
		h.agree["labels"], h.agree["questions"] = int64(a.Labels), a.Questions
		if a.PercentAgreement != nil {
			h.agree["percent_agreement"] = *a.PercentAgreement
		}
		row["agreement"] = h.agree
	}
	if h.raw {
		row["labels"], row["reviews"] = labelsRow(h.s, e.Labels), reviewsRow(h.s, e.Reviews)
	}
	return row
}

// inputsRow converts the inputs of an entry.
func (h *hfRows) inputsRow(e *entry) map[string]any {
	out := h.inputs
	clear(out)
	for _, in := range h.s.Inputs {
		raw, ok := e.Inputs[in.Name]
		if !ok || isNull(raw) {
			continue
		}
		switch in.Type {
		case tasks.InputText, tasks.InputMarkdown:
			out[in.Name] = rawString(raw)
		case tasks.InputJSON:
			out[in.Name] = string(raw)
		case tasks.InputImageList:
			out[in.Name] = mediaPaths(raw)
		case tasks.InputCandidates:
			out[in.Name] = candidatesRow(e.candidates(in.Name))
		default:
			out[in.Name] = mediaPath(raw)
		}
	}
	return out
}

func candidatesRow(cs []tasks.Candidate) []any {
	out := make([]any, 0, len(cs))
	for _, c := range cs {
		m := map[string]any{"id": c.ID, "type": string(c.Type), "value": nil, "values": []string{}, "meta": nil}
		if c.Type == tasks.InputImageList {
			m["values"] = mediaPaths(c.Value)
		} else {
			m["value"] = candidateText(c)
		}
		if c.Meta != nil {
			m["meta"] = jsonText(c.Meta)
		}
		out = append(out, m)
	}
	return out
}

func labelsRow(s *tasks.Schema, ls []Label) []any {
	out := make([]any, 0, len(ls))
	for _, l := range ls {
		out = append(out, map[string]any{"annotator": l.Annotator, "role": l.Role, "answers": decodeLenient(s, l.Answers),
			"review": nilIfEmpty(l.Review)})
	}
	return out
}

func reviewsRow(s *tasks.Schema, rs []Review) []any {
	out := make([]any, 0, len(rs))
	for _, r := range rs {
		comments := []any{}
		for _, k := range slices.Sorted(maps.Keys(r.Comments)) {
			comments = append(comments, map[string]any{"question": k, "comment": r.Comments[k]})
		}
		var answers any
		if len(r.Answers) > 0 {
			answers = decodeLenient(s, r.Answers)
		}
		out = append(out, map[string]any{"reviewer": r.Reviewer, "role": r.Role, "annotator": r.Annotator, "verdict": r.Verdict,
			"comment": nilIfEmpty(r.Comment), "comments": comments, "answers": answers})
	}
	return out
}
