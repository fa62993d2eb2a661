package exports

import (
	"maps"
	"slices"
	"strconv"

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
	env     *env
	schema  *parquet.Schema
	files   splitFiles
	writers map[*outFile]*hfShard
}

// hfShard is one parquet file being written.
type hfShard struct {
	w    *parquet.GenericWriter[any]
	rows []any
}

func openHF(env *env) (writer, error) {
	w := &hfWriter{env: env, schema: hfSchema(&env.rel.Schema, env.spec.Raw), writers: map[*outFile]*hfShard{}}
	w.files = splitFiles{env: env, format: "hf",
		path: func(s string) string { return "data/" + s + "-00000-of-00001.parquet" },
		start: func(f *outFile) error {
			w.writers[f] = &hfShard{w: parquet.NewGenericWriter[any](f, w.schema,
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
	sh.rows = append(sh.rows, hfRow(&w.env.rel.Schema, e, w.env.spec.Raw))
	f.record()
	if len(sh.rows) >= hfBatch {
		return sh.flush()
	}
	return nil
}

// flush hands the buffered rows to the parquet writer.
func (sh *hfShard) flush() error {
	if len(sh.rows) == 0 {
		return nil
	}
	_, err := sh.w.Write(sh.rows)
	clear(sh.rows)
	sh.rows = sh.rows[:0]
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

// hfRow builds the parquet row of an entry.
func hfRow(s *tasks.Schema, e *entry, raw bool) map[string]any {
	row := map[string]any{
		"id": e.ID, "external_id": e.ExternalID, "split": e.Split, "status": string(e.Status),
		"meta":        jsonText(nonNil(e.Meta)),
		"answers":     answersRow(s, e.answered, false),
		"normalized":  answersRow(s, e.normalized, true),
		"provenance":  nil,
		"agreement":   agreementRow(s, e.Agreement),
		"drop_reason": nilIfEmpty(e.DropReason),
	}
	if len(s.Inputs) > 0 {
		row["inputs"] = inputsRow(s, e)
	}
	if p := e.Provenance; p.Kind != "" {
		var conf any
		if p.Confidence != nil {
			conf = opt(*p.Confidence)
		}
		row["provenance"] = map[string]any{"kind": p.Kind, "adjudicator": nilIfEmpty(p.Adjudicator),
			"rationale": nilIfEmpty(p.Rationale), "confidence": conf, "revision": int64(p.Revision)}
	}
	if raw {
		row["labels"], row["reviews"] = labelsRow(s, e.Labels), reviewsRow(s, e.Reviews)
	}
	return row
}

// nilIfEmpty is nil for "", else an optional string.
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return &s
}

// opt wraps a leaf value for an optional column. parquet-go writes a zero
// value (false, 0, "") of an optional column as null; a pointer keeps it.
func opt(v any) any {
	switch x := v.(type) {
	case bool:
		return &x
	case int64:
		return &x
	case float64:
		return &x
	case string:
		return &x
	}
	return v
}

// inputsRow converts the inputs of an entry.
func inputsRow(s *tasks.Schema, e *entry) map[string]any {
	out := make(map[string]any, len(s.Inputs))
	for _, in := range s.Inputs {
		raw, ok := e.Inputs[in.Name]
		if !ok || isNull(raw) {
			out[in.Name] = nil
			continue
		}
		switch in.Type {
		case tasks.InputText, tasks.InputMarkdown:
			out[in.Name] = opt(rawString(raw))
		case tasks.InputJSON:
			out[in.Name] = opt(string(raw))
		case tasks.InputImageList:
			out[in.Name] = mediaPaths(raw)
		case tasks.InputCandidates:
			out[in.Name] = candidatesRow(e.candidates(in.Name))
		default:
			out[in.Name] = opt(mediaPath(raw))
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
			m["value"] = opt(candidateText(c))
		}
		if c.Meta != nil {
			m["meta"] = opt(jsonText(c.Meta))
		}
		out = append(out, m)
	}
	return out
}

// answersRow converts decoded answers to the answers or normalized struct.
func answersRow(s *tasks.Schema, vals map[string]any, normalized bool) map[string]any {
	out := make(map[string]any, len(s.Questions))
	for _, q := range s.Questions {
		v, ok := vals[q.Key]
		if !ok || v == nil {
			out[q.Key] = nil
			continue
		}
		switch x := v.(type) {
		case int64:
			if q.Kind == tasks.KindLikert && q.AllowNA && !normalized {
				out[q.Key] = opt(strconv.FormatInt(x, 10))
				continue
			}
		case map[string]int64:
			m := make(map[string]any, len(x))
			for _, it := range q.Items {
				m[it.Key] = x[it.Key]
			}
			out[q.Key] = m
			continue
		}
		out[q.Key] = opt(v)
	}
	return out
}

// decodeRaw decodes raw answers leniently for labels and reviews: values
// that do not fit are left out of the typed columns.
func decodeRaw(s *tasks.Schema, a tasks.Answers) map[string]any {
	out := map[string]any{}
	for _, q := range s.Questions {
		raw, ok := a[q.Key]
		if !ok || isNull(raw) {
			continue
		}
		if v, err := decodeValue(q, raw); err == nil {
			out[q.Key] = v
		}
	}
	return out
}

func agreementRow(s *tasks.Schema, a *ItemAgreement) any {
	if a == nil {
		return nil
	}
	m := map[string]any{"labels": int64(a.Labels), "percent_agreement": nil}
	if a.PercentAgreement != nil {
		m["percent_agreement"] = opt(*a.PercentAgreement)
	}
	qs := map[string]any{}
	for _, q := range s.Questions {
		if q.MeasurementLevel() == tasks.LevelNone {
			continue
		}
		if v, ok := a.Questions[q.Key]; ok {
			qs[q.Key] = opt(v)
		} else {
			qs[q.Key] = nil
		}
	}
	if len(qs) > 0 {
		m["questions"] = qs
	}
	return m
}

func labelsRow(s *tasks.Schema, ls []Label) []any {
	out := make([]any, 0, len(ls))
	for _, l := range ls {
		out = append(out, map[string]any{"annotator": l.Annotator, "answers": answersRow(s, decodeRaw(s, l.Answers), false)})
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
			answers = answersRow(s, decodeRaw(s, r.Answers), false)
		}
		out = append(out, map[string]any{"reviewer": r.Reviewer, "annotator": r.Annotator, "verdict": r.Verdict,
			"comment": nilIfEmpty(r.Comment), "comments": comments, "answers": answers})
	}
	return out
}
