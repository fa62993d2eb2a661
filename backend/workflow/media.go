package workflow

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// checkAssets verifies that every asset an item references was uploaded to this project.
// known caches ids already checked during one import.
func (s *Service) checkAssets(ctx context.Context, tx *store.Store, p *Project, item tasks.Item, known map[string]bool) error {
	fe := tasks.FieldErrors{}
	for _, in := range p.Schema.Inputs {
		raw, ok := item.Inputs[in.Name]
		if !ok {
			continue
		}
		for _, id := range assetIDs(in.Type, raw) {
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

// assetIDs lists the asset ids referenced by one input value.
func assetIDs(t tasks.InputType, raw json.RawMessage) []string {
	switch t {
	case tasks.InputImage, tasks.InputVideo, tasks.InputAudio, tasks.InputModel3D:
		var ref tasks.MediaRef
		if json.Unmarshal(raw, &ref) == nil && ref.Asset != "" {
			return []string{ref.Asset}
		}
	case tasks.InputImageList:
		var refs []tasks.MediaRef
		json.Unmarshal(raw, &refs)
		var ids []string
		for _, r := range refs {
			if r.Asset != "" {
				ids = append(ids, r.Asset)
			}
		}
		return ids
	case tasks.InputCandidates:
		var cs []tasks.Candidate
		json.Unmarshal(raw, &cs)
		var ids []string
		for _, c := range cs {
			ids = append(ids, assetIDs(c.Type, c.Value)...)
		}
		return ids
	}
	return nil
}
