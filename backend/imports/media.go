package imports

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// checkAssets verifies that every asset an item references was uploaded to this project.
// known caches ids already checked during one import.
func (s *Service) checkAssets(ctx context.Context, tx *store.Store, p *workflow.Project, item tasks.Item, known map[string]bool) error {
	fe := tasks.FieldErrors{}
	for _, in := range p.Schema.Inputs {
		raw, ok := item.Inputs[in.Name]
		if !ok {
			continue
		}
		for _, id := range workflow.AssetIDs(in.Type, raw) {
			if known[id] {
				continue
			}
			a, err := tx.Asset(ctx, id)
			if err != nil || a.ProjectID != p.ID {
				fe["inputs."+in.Name] = tasks.FieldError{Code: "unknown_asset", Message: fmt.Sprintf("asset %q was not uploaded to this project", id)}
				continue
			}
			known[id] = true
		}
	}
	return fe.Err()
}

// MediaResolver maps a relative media path to an asset id, uploading the file on first use;
// ok is false when the path names no media file.
type MediaResolver func(ctx context.Context, path string) (assetID string, ok bool, err error)

// ReplaceMediaPaths walks a decoded JSON value and swaps strings (and {"url": s} objects)
// naming media files for {"asset": id}. It reports whether anything changed.
func ReplaceMediaPaths(ctx context.Context, v any, resolve MediaResolver) (any, bool, error) {
	switch x := v.(type) {
	case string:
		id, ok, err := resolve(ctx, x)
		if err != nil || !ok {
			return v, false, err
		}
		return map[string]any{"asset": id}, true, nil
	case map[string]any:
		if url, ok := x["url"].(string); ok && len(x) == 1 {
			return ReplaceMediaPaths(ctx, url, resolve)
		}
		return replaceAll(ctx, x, resolve)
	case []any:
		changed := false
		for i, e := range x {
			nv, c, err := ReplaceMediaPaths(ctx, e, resolve)
			if err != nil {
				return nil, false, err
			}
			x[i], changed = nv, changed || c
		}
		return x, changed, nil
	}
	return v, false, nil
}

func replaceAll(ctx context.Context, m map[string]any, resolve MediaResolver) (map[string]any, bool, error) {
	changed := false
	for k, e := range m {
		nv, c, err := ReplaceMediaPaths(ctx, e, resolve)
		if err != nil {
			return nil, false, err
		}
		m[k], changed = nv, changed || c
	}
	return m, changed, nil
}

// resolveInputs rewrites the media paths of an item's inputs.
func resolveInputs(ctx context.Context, inputs map[string]json.RawMessage, resolve MediaResolver) error {
	for name, raw := range inputs {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		nv, changed, err := ReplaceMediaPaths(ctx, v, resolve)
		if err != nil {
			return fmt.Errorf("inputs.%s: %w", name, err)
		}
		if changed {
			b, err := json.Marshal(nv)
			if err != nil {
				return err
			}
			inputs[name] = b
		}
	}
	return nil
}
