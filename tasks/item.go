package tasks

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Item is one unit to label: its inputs by name and hidden metadata.
//
// Text, markdown and json inputs hold their value directly. Media inputs
// (image, video, audio, model3d) hold a MediaRef; image_list holds a list of
// them; candidates hold a list of Candidate.
type Item struct {
	// ExternalID is the item's id in the source dataset.
	ExternalID string `json:"external_id"`
	// Inputs maps an input name to its value.
	Inputs map[string]json.RawMessage `json:"inputs"`
	// Meta holds hidden metadata (generator, source, cluster key, split);
	// only the lead's view includes it.
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// Candidate is one output being compared. A candidate may come back in an
// unexpected modality; its Type says how to render it.
type Candidate struct {
	// ID is the canonical candidate id (e.g. a response id); never shown to
	// blinded roles.
	ID string `json:"id"`
	// Type is one of CandidateTypes.
	Type InputType `json:"type"`
	// Value is a string for text and markdown, a MediaRef for media, and a
	// list of MediaRef for image_list.
	Value json.RawMessage `json:"value"`
	// Meta holds hidden candidate metadata such as the model name.
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// MediaRef points at a media file: either a blob-store asset id or a URL or
// path. In JSON it is an object ({"asset": "..."} or {"url": "..."}) or a
// plain string, which is read as a URL or path.
type MediaRef struct {
	Asset       string `json:"asset,omitempty"`
	URL         string `json:"url,omitempty"`
	ContentType string `json:"content_type,omitempty"`
}

// UnmarshalJSON accepts a string (URL or path) or an object.
//
// note: an object is never a string, so it is not first decoded as one; a plain string is
// read from its bytes (plainASCII).
func (m *MediaRef) UnmarshalJSON(b []byte) error {
	if s, ok := plainASCII(b); ok {
		*m = MediaRef{URL: s}
		return nil
	}
	if len(b) == 0 || b[0] != '{' {
		var s string
		if err := json.Unmarshal(b, &s); err == nil {
			*m = MediaRef{URL: s}
			return nil
		}
	}
	type plain MediaRef
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*m = MediaRef(p)
	return nil
}

// valid reports whether the reference points somewhere.
func (m MediaRef) valid() bool { return strings.TrimSpace(m.Asset+m.URL) != "" }

// ValidateItem checks that an item fits the schema: every non-optional input
// is present, no unknown input is given, and each value has its input's
// shape; declared metadata (Schema.Meta) is checked too. Errors are keyed
// "inputs.<name>" and "meta.<key>". It returns nil when valid.
func (s *Schema) ValidateItem(item Item) error {
	fe := FieldErrors{}
	for name := range item.Inputs {
		if _, ok := s.Input(name); !ok {
			fe.add("inputs."+name, CodeUnknownInput, "%q is not an input of this schema", name)
		}
	}
	for _, in := range s.Inputs {
		raw, ok := item.Inputs[in.Name]
		if !ok || isNull(raw) {
			if !in.Optional {
				fe.add("inputs."+in.Name, CodeRequired, "input %q is required", in.Name)
			}
			continue
		}
		if err := checkInputValue(in, raw); err != nil {
			fe["inputs."+in.Name] = *err
		}
	}
	s.checkItemMeta(fe, item.Meta)
	return fe.Err()
}

// checkInputValue validates one input value against its declared type.
func checkInputValue(in Input, raw json.RawMessage) *FieldError {
	if in.Type == InputCandidates {
		return checkCandidates(in, raw)
	}
	if err := checkValue(in.Type, raw); err != nil {
		return err
	}
	if in.Type == InputImageList && in.MaxItems > 0 {
		var refs []json.RawMessage
		_ = json.Unmarshal(raw, &refs)
		if len(refs) > in.MaxItems {
			return ferr(CodeTooMany, "at most "+itoa(in.MaxItems)+" images")
		}
	}
	return nil
}

// checkValue validates a single value of a non-candidates type.
func checkValue(t InputType, raw json.RawMessage) *FieldError {
	switch t {
	case InputText, InputMarkdown:
		if _, e := decodeString(raw); e != nil {
			return e
		}
	case InputJSON:
		if !json.Valid(raw) {
			return ferr(CodeInvalidType, "expected JSON")
		}
	case InputImage, InputVideo, InputAudio, InputModel3D:
		var m MediaRef
		if err := json.Unmarshal(raw, &m); err != nil || !m.valid() {
			return ferr(CodeInvalidType, `expected a media reference: a URL or path, or {"asset": "<id>"}`)
		}
	case InputImageList:
		var refs []MediaRef
		if err := json.Unmarshal(raw, &refs); err != nil || len(refs) == 0 || slices.ContainsFunc(refs, func(m MediaRef) bool { return !m.valid() }) {
			return ferr(CodeInvalidType, "expected a non-empty list of media references")
		}
	default:
		return ferr(CodeInvalidType, "unsupported type "+string(t))
	}
	return nil
}

// checkCandidates validates a candidates list.
func checkCandidates(in Input, raw json.RawMessage) *FieldError {
	cs, err := decodeCandidates(raw)
	if err != nil {
		return ferr(CodeInvalidType, "expected a list of candidates {id, type, value}")
	}
	if (in.Count > 0 && len(cs) != in.Count) || len(cs) < 1 || len(cs) > maxSlots {
		return ferr(CodeOutOfRange, "wrong number of candidates: "+itoa(len(cs)))
	}
	seen := map[string]bool{}
	for i, c := range cs {
		what := "candidate " + itoa(i+1)
		if c.ID == "" || seen[c.ID] {
			return ferr(CodeDuplicateKey, what+": id must be non-empty and unique")
		}
		seen[c.ID] = true
		if !slices.Contains(CandidateTypes, c.Type) {
			return ferr(CodeInvalidType, what+": unknown type "+strings.ToValidUTF8(string(c.Type), "?"))
		}
		if e := checkValue(c.Type, c.Value); e != nil {
			return ferr(e.Code, what+": "+e.Message)
		}
	}
	return nil
}

// decodeCandidates reads a candidates value.
func decodeCandidates(raw json.RawMessage) ([]Candidate, error) {
	var cs []Candidate
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&cs); err != nil {
		return nil, err
	}
	return cs, nil
}

// itoa is strconv.Itoa, short for messages.
func itoa(n int) string { return strconv.Itoa(n) }
