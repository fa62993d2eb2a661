package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Codes of the media of an import line that are refused, next to the schema's.
const (
	CodeUnknownAsset = "unknown_asset"        // an asset id not uploaded to the project
	CodeMissingMedia = media.CodeMissingMedia // a media path that names no file of the folder or archive
	CodeWrongMedia   = media.CodeWrongMedia   // a file whose bytes are not the medium its input shows
)

// assetRef is an asset that an input of a line names, with the medium the input shows.
type assetRef struct {
	field  string // "inputs.photo"
	medium tasks.InputType
	asset  string
}

// assetRefs lists the assets an item's inputs name, input by input in the schema's order.
func assetRefs(schema *tasks.Schema, item tasks.Item) []assetRef {
	var out []assetRef
	for _, in := range schema.Inputs {
		raw, ok := item.Inputs[in.Name]
		if !ok || !mayNameAsset(raw) {
			continue
		}
		walkMedia(in.Type, raw, func(t tasks.InputType, ref tasks.MediaRef) {
			if ref.Asset != "" {
				out = append(out, assetRef{field: "inputs." + in.Name, medium: t, asset: ref.Asset})
			}
		})
	}
	return out
}

// mayNameAsset reports whether a value may hold an asset reference: an "asset" key in any case,
// or an escape or a long s (ſ, which encoding/json matches with s) that may spell one. Most
// values (a URL, a path, a prompt) do not, and need not be decoded again.
func mayNameAsset(raw []byte) bool {
	if bytes.IndexByte(raw, '\\') >= 0 || bytes.Contains(raw, []byte("ſ")) {
		return true
	}
	for i := 0; i+len("asset") <= len(raw); i++ {
		if c := raw[i]; (c == 'a' || c == 'A') && bytes.EqualFold(raw[i:i+len("asset")], []byte("asset")) {
			return true
		}
	}
	return false
}

// checkAssets verifies that every asset a line names (assetRefs) was uploaded to this project
// and is the medium its input shows (an HTML page or a PNG is no audio), by the type its bytes
// were sniffed as on upload. known caches the content types of the assets read during one import.
func (s *Service) checkAssets(ctx context.Context, tx *store.Store, p *workflow.Project, refs []assetRef, known map[string]string) error {
	fe := tasks.FieldErrors{}
	for _, r := range refs {
		ct, ok := known[r.asset]
		if !ok {
			a, err := tx.Asset(ctx, r.asset)
			if err != nil || a.ProjectID != p.ID {
				fe[r.field] = tasks.FieldError{Code: CodeUnknownAsset, Message: fmt.Sprintf("asset %q was not uploaded to this project", r.asset)}
				continue
			}
			ct, known[r.asset] = a.ContentType, a.ContentType
		}
		if !media.Fits(r.medium, ct) {
			fe[r.field] = tasks.FieldError{Code: CodeWrongMedia, Message: fmt.Sprintf("asset %q is %s, not %s", r.asset, media.Describe(ct), media.Medium(r.medium))}
		}
	}
	return fe.Err()
}

// walkMedia calls fn with every media reference of one input value and the medium it is:
// the value of a media input, each image of an image list, the value of each media candidate.
// Values that are not references (checked by the schema) are skipped.
func walkMedia(t tasks.InputType, raw json.RawMessage, fn func(tasks.InputType, tasks.MediaRef)) {
	switch t {
	case tasks.InputImage, tasks.InputVideo, tasks.InputAudio, tasks.InputModel3D:
		var ref tasks.MediaRef
		if json.Unmarshal(raw, &ref) == nil {
			fn(t, ref)
		}
	case tasks.InputImageList:
		var refs []json.RawMessage
		json.Unmarshal(raw, &refs)
		for _, r := range refs {
			walkMedia(tasks.InputImage, r, fn)
		}
	case tasks.InputCandidates:
		var cs []tasks.Candidate
		json.Unmarshal(raw, &cs)
		for _, c := range cs {
			walkMedia(c.Type, c.Value, fn)
		}
	}
}

// MediaFiles are the files the media paths of an import name: a folder on the lead's machine
// (arbiter import --media) or a zip archive uploaded with the items.
type MediaFiles interface {
	// Check refuses a path that names none of the files (CodeMissingMedia) or a file whose
	// bytes are not a medium of type t (CodeWrongMedia); it returns nil for a path it takes.
	Check(path string, t tasks.InputType) *tasks.FieldError
	// AssetID returns the id of the project's asset holding the file's bytes, storing the file
	// on first use.
	AssetID(ctx context.Context, path string) (string, error)
}

// isMediaPath reports whether a media reference names a file by path (img/a.png, ./a.wav,
// /data/a.png) rather than by URL (https://…, s3://…, data:…): with media files given, such a
// path must name one of them.
func isMediaPath(s string) bool {
	if s == "" || strings.HasPrefix(s, "//") {
		return false
	}
	u, err := url.Parse(s)
	return err != nil || len(u.Scheme) < 2 // note: "C:" is a drive, not a scheme
}

// ResolveMediaPaths replaces the media paths of an item's media inputs (strings and {"url": s}
// objects, by the schema's input types; other inputs are never read) with the assets of the
// files they name. Every path is checked before any file is stored: a line with a path that
// names no file, or names a file of another medium, is refused whole with field errors keyed
// "inputs.<name>", and nothing of it is stored. Any other error (a file that cannot be
// stored) is returned with the input named.
func ResolveMediaPaths(ctx context.Context, schema *tasks.Schema, inputs map[string]json.RawMessage, files MediaFiles) error {
	fe := tasks.FieldErrors{}
	for _, in := range schema.Inputs {
		if raw, ok := inputs[in.Name]; ok {
			walkMedia(in.Type, raw, func(t tasks.InputType, ref tasks.MediaRef) {
				if ref.Asset == "" && isMediaPath(ref.URL) {
					if bad := files.Check(ref.URL, t); bad != nil {
						fe["inputs."+in.Name] = *bad
					}
				}
			})
		}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	for _, in := range schema.Inputs {
		raw, ok := inputs[in.Name]
		if !ok {
			continue
		}
		out, err := replacePaths(ctx, in.Type, raw, files)
		if err != nil {
			return fmt.Errorf("inputs.%s: %w", in.Name, err)
		}
		inputs[in.Name] = out
	}
	return nil
}

// replacePaths rewrites one input value, each media path as {"asset": id}.
func replacePaths(ctx context.Context, t tasks.InputType, raw json.RawMessage, files MediaFiles) (json.RawMessage, error) {
	switch t {
	case tasks.InputImage, tasks.InputVideo, tasks.InputAudio, tasks.InputModel3D:
		var ref tasks.MediaRef
		if json.Unmarshal(raw, &ref) != nil || ref.Asset != "" || !isMediaPath(ref.URL) {
			return raw, nil
		}
		id, err := files.AssetID(ctx, ref.URL)
		if err != nil {
			return nil, err
		}
		return json.Marshal(tasks.MediaRef{Asset: id})
	case tasks.InputImageList:
		var refs []json.RawMessage
		if json.Unmarshal(raw, &refs) != nil {
			return raw, nil
		}
		for i, r := range refs {
			out, err := replacePaths(ctx, tasks.InputImage, r, files)
			if err != nil {
				return nil, err
			}
			refs[i] = out
		}
		return json.Marshal(refs)
	case tasks.InputCandidates:
		var cs []map[string]json.RawMessage
		if json.Unmarshal(raw, &cs) != nil {
			return raw, nil
		}
		for _, c := range cs {
			var ct tasks.InputType
			if json.Unmarshal(c["type"], &ct) != nil || c["value"] == nil {
				continue
			}
			out, err := replacePaths(ctx, ct, c["value"], files)
			if err != nil {
				return nil, err
			}
			c["value"] = out
		}
		return json.Marshal(cs)
	}
	return raw, nil
}
