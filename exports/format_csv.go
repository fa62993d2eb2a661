package exports

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// csvColumn is one column of the csv format.
type csvColumn struct {
	name  string
	value func(e *entry) string
}

// csvWriter writes csv/<split>.csv: one row per item, one column per input
// (candidates split into id, type, value and meta columns), per question
// (checklist items and the satisfied value of binary questions as their own
// columns) and per provenance field. The column order follows the schema.
type csvWriter struct {
	holdsAll
	cols  []csvColumn
	files splitFiles
	csv   map[*outFile]*csv.Writer
}

func openCSV(env *env) (writer, error) {
	w := &csvWriter{cols: csvColumns(&env.rel.Schema, env.spec.Raw), csv: map[*outFile]*csv.Writer{}}
	w.files = splitFiles{env: env, format: "csv", path: func(s string) string { return "csv/" + s + ".csv" },
		start: func(f *outFile) error {
			cw := csv.NewWriter(f)
			w.csv[f] = cw
			header := make([]string, len(w.cols))
			for i, c := range w.cols {
				header[i] = c.name
			}
			return cw.Write(header)
		}}
	return w, nil
}

func (w *csvWriter) write(e *entry) error {
	f, err := w.files.get(e.Split)
	if err != nil {
		return err
	}
	row := make([]string, len(w.cols))
	for i, c := range w.cols {
		row[i] = c.value(e)
	}
	if err := w.csv[f].Write(row); err != nil {
		return err
	}
	f.record()
	return nil
}

func (w *csvWriter) close() error {
	return w.files.closeAll(func(f *outFile) error {
		w.csv[f].Flush()
		return w.csv[f].Error()
	})
}

// csvColumns lists the columns for a schema.
func csvColumns(s *tasks.Schema, raw bool) []csvColumn {
	cols := []csvColumn{
		{"id", func(e *entry) string { return e.ID }},
		{"external_id", func(e *entry) string { return e.ExternalID }},
		{"split", func(e *entry) string { return e.Split }},
		{"status", func(e *entry) string { return string(e.Status) }},
		{"language", func(e *entry) string { return e.Language }},
	}
	for _, in := range s.Inputs {
		cols = append(cols, inputColumns(in)...)
	}
	cols = append(cols, csvColumn{"meta", func(e *entry) string { return e.metaJSON }})
	for _, q := range s.Questions {
		cols = append(cols, questionColumns(q)...)
	}
	cols = append(cols, provenanceColumns()...)
	if raw {
		cols = append(cols,
			csvColumn{"labels", func(e *entry) string { return jsonList(e.Labels) }},
			csvColumn{"reviews", func(e *entry) string { return jsonList(e.Reviews) }})
	}
	return cols
}

// inputColumns returns the columns of one input.
func inputColumns(in tasks.Input) []csvColumn {
	name := "input." + in.Name
	get := func(e *entry) json.RawMessage { return e.Inputs[in.Name] }
	cand := func(e *entry, i int) (tasks.Candidate, bool) {
		cs := e.candidates(in.Name)
		if i >= len(cs) {
			return tasks.Candidate{}, false
		}
		return cs[i], true
	}
	switch in.Type {
	case tasks.InputCandidates:
		if in.Count == 0 {
			return []csvColumn{{name, func(e *entry) string { return rawText(get(e)) }}}
		}
		var cols []csvColumn
		for i := range in.Count {
			p := name + "." + strconv.Itoa(i+1) + "."
			cols = append(cols,
				csvColumn{p + "id", func(e *entry) string { c, _ := cand(e, i); return c.ID }},
				csvColumn{p + "type", func(e *entry) string { c, _ := cand(e, i); return string(c.Type) }},
				csvColumn{p + "value", func(e *entry) string { c, _ := cand(e, i); return candidateText(c) }},
				csvColumn{p + "meta", func(e *entry) string {
					if c, ok := cand(e, i); ok && c.Meta != nil {
						return jsonText(c.Meta)
					}
					return ""
				}})
		}
		return cols
	case tasks.InputText, tasks.InputMarkdown:
		return []csvColumn{{name, func(e *entry) string { return rawString(get(e)) }}}
	case tasks.InputImageList:
		return []csvColumn{{name, func(e *entry) string {
			if get(e) == nil {
				return ""
			}
			return jsonText(mediaPaths(get(e)))
		}}}
	case tasks.InputJSON:
		return []csvColumn{{name, func(e *entry) string { return rawText(get(e)) }}}
	}
	return []csvColumn{{name, func(e *entry) string { return mediaPath(get(e)) }}}
}

// questionColumns returns the ground-truth columns of one question; a
// question the system answered missing says "missing" in its first column.
func questionColumns(q tasks.Question) []csvColumn {
	cols := answerColumns(q)
	first := cols[0].value
	cols[0].value = func(e *entry) string {
		if slices.Contains(e.missing, q.Key) {
			return tasks.AnswerMissing
		}
		return first(e)
	}
	return cols
}

// answerColumns returns the columns of one question's ground-truth answer,
// as its kind lists them (tasks.QuestionKind.CSVColumns).
func answerColumns(q tasks.Question) []csvColumn {
	var cols []csvColumn
	for _, c := range tasks.KindOf(q).CSVColumns() {
		cols = append(cols, csvColumn{"gt." + q.Key + c.Suffix, func(e *entry) string {
			return cellText(c.Cell(e.answered[q.Key], e.normalized[q.Key]))
		}})
	}
	return cols
}

// provenanceColumns returns the provenance, agreement and drop columns.
func provenanceColumns() []csvColumn {
	return []csvColumn{
		{"provenance", func(e *entry) string { return e.Provenance.Kind }},
		{"adjudicator", func(e *entry) string { return e.Provenance.Adjudicator }},
		{"rationale", func(e *entry) string { return e.Provenance.Rationale }},
		{"confidence", func(e *entry) string {
			if c := e.Provenance.Confidence; c != nil {
				return strconv.FormatFloat(*c, 'g', -1, 64)
			}
			return ""
		}},
		{"revision", func(e *entry) string {
			if e.Provenance.Kind == "" {
				return ""
			}
			return strconv.Itoa(e.Provenance.Revision)
		}},
		{"labels_compared", func(e *entry) string {
			if e.Agreement == nil {
				return ""
			}
			return strconv.Itoa(e.Agreement.Labels)
		}},
		{"percent_agreement", func(e *entry) string {
			if e.Agreement == nil || e.Agreement.PercentAgreement == nil {
				return ""
			}
			return strconv.FormatFloat(*e.Agreement.PercentAgreement, 'g', -1, 64)
		}},
		{"drop_reason", func(e *entry) string { return e.DropReason }},
	}
}

// cellText renders a decoded answer value for a cell; nil is empty.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	return jsonText(v)
}

// jsonText encodes v canonically.
func jsonText(v any) string { return string(appendJSON(nil, v)) }

// jsonList encodes a list, or "" when empty.
func jsonList[T any](vs []T) string {
	if len(vs) == 0 {
		return ""
	}
	return jsonText(vs)
}

// rawText returns canonical raw JSON as text, "" when absent.
func rawText(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	return string(raw)
}

// candidateText is a candidate's value as text: the text itself, a media
// path or URL, or a JSON list of paths for an image list.
func candidateText(c tasks.Candidate) string {
	switch c.Type {
	case tasks.InputText, tasks.InputMarkdown:
		return rawString(c.Value)
	case tasks.InputImageList:
		return jsonText(mediaPaths(c.Value))
	case "":
		return ""
	}
	return mediaPath(c.Value)
}
