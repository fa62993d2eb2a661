package imports

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// fastLine is ItemLine with its objects decoded by rawObject: the same fields, in the same
// order, with the same names (TestFastLineMirrorsItemLine).
type fastLine struct {
	ExternalID  string     `json:"external_id"`
	Inputs      rawObject  `json:"inputs"`
	Meta        rawObject  `json:"meta,omitempty"`
	Language    string     `json:"language,omitempty"`
	GroundTruth *fastTruth `json:"ground_truth,omitempty"`
	Gold        bool       `json:"gold,omitempty"`
}

// fastTruth is ImportedTruth as fastLine decodes it.
type fastTruth struct {
	Answers    rawObject       `json:"answers"`
	Provenance flow.Provenance `json:"provenance,omitempty"`
	Note       string          `json:"note,omitempty"`
}

// decodeItemLine decodes a line as decodeLine does, in one pass of a Decoder that refuses
// unknown fields, with the objects of the line read by rawObject; it reports false for a line
// it does not take whole, which decodeLine then decodes the long way (for its error).
func decodeItemLine(data []byte, line *ItemLine) bool {
	var fl fastLine
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&fl) != nil || dec.InputOffset() != int64(len(data)) {
		return false
	}
	*line = ItemLine{ExternalID: fl.ExternalID, Inputs: fl.Inputs, Meta: fl.Meta, Language: fl.Language, Gold: fl.Gold}
	if fl.GroundTruth != nil {
		line.GroundTruth = &ImportedTruth{Answers: map[string]json.RawMessage(fl.GroundTruth.Answers), Provenance: fl.GroundTruth.Provenance, Note: fl.GroundTruth.Note}
	}
	return true
}

// rawObject is a JSON object's members, each value raw, as encoding/json decodes a
// map[string]json.RawMessage, but without reflection.
type rawObject map[string]json.RawMessage

// errNotPlain is an object rawObject leaves to encoding/json: a key with an escape, or not an
// object at all.
var errNotPlain = errors.New("not a plain object")

// UnmarshalJSON reads the members of b, which the Decoder has found to be valid JSON.
func (o *rawObject) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = nil
		return nil
	}
	if len(b) < 2 || b[0] != '{' {
		return errNotPlain
	}
	m := *o // note: a key given twice adds to the object decoded first, as encoding/json does
	if m == nil {
		m = rawObject{}
	}
	for i := space(b, 1); b[i] != '}'; {
		if b[i] != '"' {
			return errNotPlain
		}
		end := bytes.IndexByte(b[i+1:], '"') + i + 1
		if bytes.IndexByte(b[i+1:end], '\\') >= 0 {
			return errNotPlain
		}
		key := string(b[i+1 : end])
		start := space(b, space(b, end+1)+1) // note: past the colon
		i = skipValue(b, start)
		m[key] = append(json.RawMessage(nil), b[start:i]...)
		if i = space(b, i); b[i] == ',' {
			i = space(b, i+1)
		}
	}
	*o = m
	return nil
}

// space is the index of the first byte at or after i that is not white space.
func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the index just past the valid JSON value that starts at i.
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
