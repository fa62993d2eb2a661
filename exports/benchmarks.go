package exports

import (
	"encoding/json"
	"hash/fnv"
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// obj is a JSON object whose keys keep their insertion order, for benchmark
// records whose field order follows the paper ("reasoning" before the
// score). Values are encoded canonically.
type obj []kv

type kv struct {
	k string
	v any
}

// add appends a field.
func (o *obj) add(k string, v any) { *o = append(*o, kv{k, v}) }

// MarshalJSON writes the fields in order.
func (o obj) MarshalJSON() ([]byte, error) { return o.appendTo(nil), nil }

// appendTo appends the object.
func (o obj) appendTo(b []byte) []byte {
	b = append(b, '{')
	for i, f := range o {
		b = appendField(b, i == 0, f.k, f.v)
	}
	return append(b, '}')
}

// arrayFiles writes JSON arrays, one element per line, opened on first use
// and keyed by path.
type arrayFiles struct{ files splitFiles }

func newArrayFiles(env *env, format string) *arrayFiles {
	return &arrayFiles{splitFiles{env: env, format: format, path: func(p string) string { return p },
		start: func(f *outFile) error { _, err := f.WriteString("["); return err }}}
}

// add appends one element to the array at path.
func (a *arrayFiles) add(path string, v any) error {
	f, err := a.files.get(path)
	if err != nil {
		return err
	}
	b := appendJSON(nil, v)
	if f.entry.Records > 0 {
		f.WriteByte(',')
	}
	f.WriteByte('\n')
	f.Write(b)
	f.record()
	return nil
}

// close ends every array and closes its file.
func (a *arrayFiles) close() error {
	return a.files.closeAll(func(f *outFile) error { _, err := f.WriteString("\n]\n"); return err })
}

// lineFiles writes JSON Lines files keyed by path.
type lineFiles struct{ files splitFiles }

func newLineFiles(env *env, format string) *lineFiles {
	return &lineFiles{splitFiles{env: env, format: format, path: func(p string) string { return p }}}
}

// add writes one line to the file at path.
func (l *lineFiles) add(path string, v any) error {
	f, err := l.files.get(path)
	if err != nil {
		return err
	}
	if err := writeJSONLine(f, v); err != nil {
		return err
	}
	f.record()
	return nil
}

func (l *lineFiles) close() error { return l.files.closeAll(nil) }

// seenSet remembers keys by a 64-bit hash, so a writer can emit a shared
// record (a query, a response) once. It holds 8 bytes per distinct key.
type seenSet map[uint64]struct{}

// first reports whether the key made of parts is new, and remembers it.
func (s seenSet) first(parts ...string) bool {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	k := h.Sum64()
	if _, ok := s[k]; ok {
		return false
	}
	s[k] = struct{}{}
	return true
}

// inputValue reads an input as the value a benchmark record carries: text
// as a string, media as a path or URL, an image list as a list of paths,
// JSON as itself; nil when absent.
func inputValue(in tasks.Input, raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	switch in.Type {
	case tasks.InputText, tasks.InputMarkdown:
		return rawString(raw)
	case tasks.InputJSON, tasks.InputCandidates:
		return raw
	case tasks.InputImageList:
		return mediaPaths(raw)
	}
	return mediaPath(raw)
}

// candidateValue reads a candidate as text, a path, or a list of paths.
func candidateValue(c tasks.Candidate) any {
	if c.Type == tasks.InputImageList {
		return mediaPaths(c.Value)
	}
	return candidateText(c)
}

// candidateModel is a candidate's model name (meta "model"), else its id.
func candidateModel(c tasks.Candidate) string {
	if m := rawString(c.Meta["model"]); m != "" {
		return m
	}
	return c.ID
}

// itemKey is the id a benchmark record uses: the external id, else the
// Arbiter id.
func itemKey(e *entry) string {
	if e.ExternalID != "" {
		return e.ExternalID
	}
	return e.ID
}

// templateSuffix returns the part of a template id after prefix, or "".
func templateSuffix(template, prefix string) string {
	s, ok := strings.CutPrefix(template, prefix)
	if !ok {
		return ""
	}
	return s
}

// commentFor finds the free-text question that comments on key: key plus
// one of the suffixes.
func commentFor(s *tasks.Schema, key string, suffixes ...string) (tasks.Question, bool) {
	for _, suf := range suffixes {
		if q, ok := s.Question(key + suf); ok && q.Kind == tasks.KindText {
			return q, true
		}
	}
	return tasks.Question{}, false
}

// answeredString returns a string answer, "" when absent.
func answeredString(e *entry, key string) string {
	s, _ := e.answered[key].(string)
	return s
}
