package exports

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
)

// canonJSON re-encodes a JSON value with object keys sorted, numbers kept
// as written and no HTML escaping, so equal values give equal bytes
// whatever the database or importer did to key order and spacing.
func canonJSON(raw json.RawMessage) (json.RawMessage, error) {
	if compactWithoutObjects(raw) && json.Valid(raw) {
		return raw, nil // note: already canonical; the common case, kept cheap
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return marshalCanon(v)
}

// sameBytes reports whether two slices share their bytes (canonJSON
// returned its input).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// compactWithoutObjects reports whether raw has no whitespace outside
// strings and no object (whose keys would need sorting), so that, once
// valid, it is its own canonical form.
func compactWithoutObjects(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return !inString
}

// marshalCanon encodes v compactly without HTML escaping.
func marshalCanon(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// canonMap canonicalises every value of a map of raw JSON; nil stays nil.
func canonMap(m map[string]json.RawMessage) (map[string]json.RawMessage, string, error) {
	if m == nil {
		return nil, "", nil
	}
	var out map[string]json.RawMessage // note: allocated only when a value changes
	for k, v := range m {
		c, err := canonJSON(v)
		if err != nil {
			return nil, k, err
		}
		if out == nil && !sameBytes(c, v) {
			out = make(map[string]json.RawMessage, len(m))
			for k2, v2 := range m {
				out[k2] = v2
			}
		}
		if out != nil {
			out[k] = c
		}
	}
	if out == nil {
		return m, "", nil // every value is canonical; the map is only read
	}
	return out, "", nil
}

// nilIfEmpty is nil for "", else the string.
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// rawString reads a raw JSON string, or returns "".
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// mediaPath reads a media value (a path or URL string, or a MediaRef
// object) as the path or URL the release carries; an asset reference that
// was not rewritten reads as "asset:<id>".
func mediaPath(raw json.RawMessage) string {
	var ref struct {
		URL   string `json:"url"`
		Asset string `json:"asset"`
	}
	if s := rawString(raw); s != "" {
		return s
	}
	if json.Unmarshal(raw, &ref) != nil {
		return ""
	}
	if ref.URL != "" {
		return ref.URL
	}
	if ref.Asset != "" {
		return "asset:" + ref.Asset
	}
	return ""
}

// mediaPaths reads an image_list value as paths or URLs.
func mediaPaths(raw json.RawMessage) []string {
	var refs []json.RawMessage
	if json.Unmarshal(raw, &refs) != nil {
		return nil
	}
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		out = append(out, mediaPath(r))
	}
	return out
}

// pseudonyms maps user ids to release pseudonyms: "anon-" and the first 12
// hex digits of HMAC-SHA256(salt, user id). The same id always gets the
// same pseudonym within a release; without the salt it cannot be reversed
// by hashing candidate ids.
type pseudonyms struct {
	mac   hash.Hash
	cache map[string]string
}

func newPseudonyms(salt []byte) *pseudonyms {
	return &pseudonyms{mac: hmac.New(sha256.New, salt), cache: map[string]string{}}
}

// of returns the pseudonym of a user id; "" stays "".
func (p *pseudonyms) of(id string) string {
	if id == "" {
		return ""
	}
	if s, ok := p.cache[id]; ok {
		return s
	}
	p.mac.Reset()
	p.mac.Write([]byte(id))
	s := "anon-" + hex.EncodeToString(p.mac.Sum(nil))[:12]
	p.cache[id] = s
	return s
}

// Pseudonym returns the pseudonym Export gives a user id under salt, for
// callers that name raters outside the records (agreement reports).
func Pseudonym(salt []byte, id string) string { return newPseudonyms(salt).of(id) }
