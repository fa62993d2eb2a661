package exports

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// RecordError is a problem with one streamed item: a missing split key, an
// answer that does not fit the schema. It names the item and the field so
// the caller can report it.
type RecordError struct {
	// ID and ExternalID identify the item.
	ID         string
	ExternalID string
	// Field is the offending field, e.g. "meta.split" or "answers.overall".
	Field string
	// Code is a stable code such as CodeMissingSplitKey.
	Code string
	// Message says what is wrong in words a person can act on.
	Message string
}

// Error names the item, the field and the problem.
func (e *RecordError) Error() string {
	return fmt.Sprintf("exports: item %s (external id %q): %s: %s", e.ID, e.ExternalID, e.Field, e.Message)
}

// recordErr builds a RecordError for rec.
func recordErr(id, ext, field, code, format string, args ...any) *RecordError {
	return &RecordError{ID: id, ExternalID: ext, Field: field, Code: code, Message: fmt.Sprintf(format, args...)}
}

// CheckMeta checks that an item's metadata carries what the split spec
// needs (the split key or the cluster key) and that a split named there is
// valid. Callers run it over every item before starting a release so a
// missing key is reported up front; Export checks again while streaming.
func (s *Spec) CheckMeta(id, externalID string, meta map[string]json.RawMessage) error {
	_, err := s.Split.assign(id, externalID, meta)
	return err
}

// assign returns the split of one item.
func (s SplitSpec) assign(id, ext string, meta map[string]json.RawMessage) (string, error) {
	switch {
	case s.Key != "":
		v, ok := metaString(meta, s.Key)
		if !ok {
			return "", recordErr(id, ext, "meta."+s.Key, CodeMissingSplitKey,
				"the split key %q is missing (or not a string) in this item's metadata", s.Key)
		}
		if !splitName.MatchString(v) {
			return "", recordErr(id, ext, "meta."+s.Key, CodeInvalidSplit,
				"%q is not a split name (letters, digits, _ and inner dots)", v)
		}
		return v, nil
	case len(s.Ratios) > 0:
		key := ext
		if key == "" {
			key = id
		}
		if s.ClusterKey != "" {
			v, ok := metaString(meta, s.ClusterKey)
			if !ok {
				return "", recordErr(id, ext, "meta."+s.ClusterKey, CodeMissingSplitKey,
					"the cluster key %q is missing (or not a string) in this item's metadata", s.ClusterKey)
			}
			key = v
		}
		return s.byRatio(key), nil
	}
	return s.Name, nil
}

// byRatio maps a cluster key to a split: a uniform number in [0, 1) from
// SHA-256(seed, key), placed on the cumulative shares in split-name order.
// The same key and seed always land in the same split.
func (s SplitSpec) byRatio(key string) string {
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], s.Seed)
	h := sha256.New()
	h.Write(seed[:])
	h.Write([]byte(key))
	sum := h.Sum(nil)
	u := float64(binary.BigEndian.Uint64(sum[:8])>>11) / (1 << 53)
	acc := 0.0
	for _, r := range s.Ratios {
		acc += r.Share
		if u < acc {
			return r.Name
		}
	}
	return s.Ratios[len(s.Ratios)-1].Name
}
