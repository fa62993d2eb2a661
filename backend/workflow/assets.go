package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrHiddenInPass refuses a file of an input that the caller's open pass does not show.
var ErrHiddenInPass = errors.New("this file belongs to an input that your current pass does not show; it opens with the pass that shows it")

// AssetURL signs a link to an asset for a member of its project (assets of other projects do
// not exist for the person). The view of a pass leaves out the inputs the pass does not show,
// and so does this: while the person holds an open assignment in a pass, the files of the
// inputs that pass hides are refused, unless another of their open assignments shows the same
// file. Leads read whole items and keep access; so do reviewers and adjudicators, who hold no
// pass.
func (s *Service) AssetURL(ctx context.Context, u *store.User, assetID string) (*media.SignedURL, error) {
	a, err := s.store.Asset(ctx, assetID)
	if err != nil {
		return nil, store.Missing(err, "asset")
	}
	if !u.IsAdmin {
		m, err := s.store.Member(ctx, a.ProjectID, u.ID)
		if err != nil {
			return nil, store.Missing(err, "asset")
		}
		if !m.Roles.Has(store.RoleLead) {
			if err := s.passShowsAsset(ctx, a.ProjectID, u.ID, a.ID); err != nil {
				return nil, err
			}
		}
	}
	return s.media.Sign(ctx, a)
}

// passShowsAsset refuses an asset that one of the person's open assignments in a pass hides
// and none of them shows.
func (s *Service) passShowsAsset(ctx context.Context, projectID, userID, assetID string) error {
	sp, err := s.store.Project(ctx, projectID)
	if err != nil {
		return err
	}
	p, err := s.LoadProject(ctx, sp, 0)
	if errors.Is(err, ErrNoSchema) {
		return nil
	}
	if err != nil {
		return err
	}
	if !p.Schema.HasPasses() { // note: a project without passes pays one read (its row) and no more
		return nil
	}
	hidden, shown := false, false
	for _, stage := range passStages {
		open, err := s.store.ActiveAssignments(ctx, projectID, userID, stage)
		if err != nil {
			return err
		}
		for i := range open {
			h, sh, err := s.passSees(ctx, sp, &open[i], assetID)
			if err != nil {
				return err
			}
			hidden, shown = hidden || h, shown || sh
		}
	}
	if hidden && !shown {
		return ErrHiddenInPass
	}
	return nil
}

// passSees reports whether the assignment's item refers to the asset in an input its current
// form hides, and in one it shows.
func (s *Service) passSees(ctx context.Context, sp *store.Project, a *store.Assignment, assetID string) (hidden, shown bool, err error) {
	p, err := s.LoadProject(ctx, sp, a.SchemaVersion)
	if err != nil {
		return false, false, err
	}
	form, _, err := p.formOf(a)
	if err != nil {
		return false, false, err
	}
	stored, err := s.store.Item(ctx, p.ID, a.ItemID)
	if err != nil {
		return false, false, err
	}
	item, err := storeItem(stored)
	if err != nil {
		return false, false, err
	}
	for _, in := range p.StageSchema(a.Stage).Inputs {
		if !slices.Contains(AssetIDs(in.Type, item.Inputs[in.Name]), assetID) {
			continue
		}
		if _, ok := form.Input(in.Name); ok {
			shown = true
		} else {
			hidden = true
		}
	}
	return hidden, shown, nil
}

// AssetIDs lists the asset ids referenced by one input value.
func AssetIDs(t tasks.InputType, raw json.RawMessage) []string {
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
			ids = append(ids, AssetIDs(c.Type, c.Value)...)
		}
		return ids
	}
	return nil
}
