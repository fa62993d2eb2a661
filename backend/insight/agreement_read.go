package insight

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// maxCachedAnswers bounds the answers per question whose ratings a table keeps: enough for
// every value of a choice, binary or rating question, while free-form answers stop being
// kept once there are this many.
const maxCachedAnswers = 1024

// ratingsCache keeps the ratings of the answers a question has been given, by the answer's
// bytes: a project's labels repeat a few answers many times, and the ratings of an answer
// depend on it alone. An answer in the cache is valid JSON (it was checked when it went in).
type ratingsCache map[string][]Rating

// ratings returns AnswerRatings(q, raw, rawBinary), or errInvalidAnswer when raw is not JSON.
func (c ratingsCache) ratings(q tasks.Question, raw json.RawMessage, rawBinary bool) ([]Rating, error) {
	if rs, ok := c[string(raw)]; ok {
		return rs, nil
	}
	if !json.Valid(raw) {
		return nil, errInvalidAnswer
	}
	rs := AnswerRatings(q, raw, rawBinary)
	if len(c) < maxCachedAnswers {
		c[string(raw)] = rs
	}
	return rs, nil
}

var errInvalidAnswer = errors.New("an answer is not valid JSON")

// addDocument adds one label's answers document as json.Unmarshal into a map and Add would,
// failing where json.Unmarshal would (a value that is not JSON fails with errInvalidAnswer
// instead of the decoder's error): members reads the document's top-level members without decoding
// them, and each answer's ratings come from its question's cache. After an error the tables
// hold part of the document (the job stops at it).
func (t *AgreementTables) addDocument(item, rater string, doc []byte) error {
	if len(doc) == 0 {
		t.Add(item, rater, nil)
		return nil
	}
	fields, ok := members(doc, t.fields[:0])
	if !ok {
		var answers map[string]json.RawMessage
		if err := json.Unmarshal(doc, &answers); err != nil {
			return err
		}
		t.Add(item, rater, answers)
		return nil
	}
	t.fields = fields
	t.Labels++
	for _, f := range fields {
		rt := t.tables[string(f.key)]
		if rt == nil {
			if !json.Valid(f.raw) {
				return errInvalidAnswer
			}
			continue
		}
		if err := rt.add(item, rater, f.raw); err != nil {
			return err
		}
	}
	return nil
}

// member is one top-level member of a JSON object: its key (without escapes) and raw value.
type member struct{ key, raw []byte }

// members appends the members of a JSON object to out; ok is false for anything else than an
// object whose keys are plain and different (the caller decodes it with encoding/json). Values
// are delimited, not checked: whoever reads one checks it.
func members(doc []byte, out []member) (_ []member, ok bool) {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return out, false
	}
	if i = skipSpace(doc, i+1); i < len(doc) && doc[i] == '}' {
		return out, skipSpace(doc, i+1) == len(doc)
	}
	for {
		end := stringEnd(doc, i)
		if end < 0 || !plainKey(doc[i+1:end-1]) {
			return out, false
		}
		key := doc[i+1 : end-1]
		if i = skipSpace(doc, end); i >= len(doc) || doc[i] != ':' {
			return out, false
		}
		i = skipSpace(doc, i+1)
		vend := valueEnd(doc, i)
		if vend < 0 {
			return out, false
		}
		if hasKey(out, key) { // a repeated key: encoding/json keeps the last and checks the others
			return out, false
		}
		out = append(out, member{key, doc[i:vend]})
		switch i = skipSpace(doc, vend); {
		case i < len(doc) && doc[i] == ',':
			i = skipSpace(doc, i+1)
		case i < len(doc) && doc[i] == '}':
			return out, skipSpace(doc, i+1) == len(doc)
		default:
			return out, false
		}
	}
}

// plainKey reports whether a key reads the same raw as decoded: printable ASCII, no escapes.
func plainKey(k []byte) bool {
	for _, c := range k {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return false
		}
	}
	return true
}

func hasKey(ms []member, key []byte) bool {
	for _, m := range ms {
		if bytes.Equal(m.key, key) {
			return true
		}
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the string that starts at b[i], or -1.
func stringEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// valueEnd returns the index after the JSON value that starts at b[i] (a string, an object
// or array with its nested values, or a literal), or -1 where the value does not end.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				if i = stringEnd(b, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	start := i
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if i == start {
				return -1
			}
			return i
		}
	}
	return -1 // a literal is never the end of the document: the object's brace follows
}
