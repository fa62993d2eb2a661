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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return marshalCanon(v)
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
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c, err := canonJSON(v)
		if err != nil {
			return nil, k, err
		}
		out[k] = c
	}
	return out, "", nil
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
