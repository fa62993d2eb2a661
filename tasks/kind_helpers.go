package tasks

import (
	"bytes"
	"encoding/json"
)

// Helpers shared by the kind_*.go files.

// readString reads a JSON string; plain strings without escapes skip the
// JSON decoder, since exports decode the same few answers millions of times.
func readString(raw json.RawMessage) (string, error) {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && !bytes.ContainsAny(raw[1:n-1], "\\\"") {
		return string(raw[1 : n-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// readStrings reads a JSON list of strings; an empty list is not nil.
func readStrings(raw json.RawMessage) ([]string, error) {
	var vs []string
	err := json.Unmarshal(raw, &vs)
	if vs == nil {
		vs = []string{}
	}
	return vs, err
}

// keep returns a decoded value as it is, for kinds analysed as answered.
func keep(_ Question, v any) any { return v }

// compactKey is an answer as compact JSON, the consensus key of kinds whose
// answers agree when they are the same JSON value.
func compactKey(_ Question, raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// stringRatings reads a string answer as its one agreement value.
func stringRatings(raw json.RawMessage) []Rating {
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return []Rating{{"", v}}
}

// optionKeys lists q's option keys in order.
func optionKeys(q Question) []string {
	keys := make([]string, len(q.Options))
	for i, o := range q.Options {
		keys[i] = o.Key
	}
	return keys
}
