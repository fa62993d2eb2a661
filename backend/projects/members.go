package projects

import (
	"context"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// MemberPause pauses a member or lifts the pause (which starts their gold window over),
// audited as member.pause or member.unpause.
func (s *Service) MemberPause(ctx context.Context, tx *store.Store, actorID, projectID, userID string, paused bool) error {
	before, err := tx.Member(ctx, projectID, userID)
	if err != nil {
		return err
	}
	if err := tx.SetMemberPaused(ctx, projectID, userID, paused); err != nil {
		return err
	}
	action := "member.unpause"
	if paused {
		action = "member.pause"
	}
	return tx.Audit(ctx, projectID, actorID, action, "user:"+userID, map[string]any{"paused": before.Paused}, map[string]any{"paused": paused})
}

// MemberChange is a lead's change to a member: new roles, a pause or its lift, the
// qualification for production labeling, the languages they read; nil leaves each as it is.
type MemberChange struct {
	Roles     *[]store.Role
	Paused    *bool
	Qualified *bool
	Languages *[]string
}

// MemberUpdated is the status of a MemberResult that changed a member's pause or qualification only.
const MemberUpdated = "updated"

// ChangeMember applies a MemberChange: the roles as SetMember sets them, then the pause and the
// qualification and the languages, which need a member (one who stays). A change that names
// nothing is refused.
func (s *Service) ChangeMember(ctx context.Context, actor *store.User, projectID, ref string, c MemberChange) (*MemberResult, error) {
	if c.Roles == nil && c.Paused == nil && c.Qualified == nil && c.Languages == nil {
		return nil, tasks.Field("roles", "required", "give roles, paused, qualified, languages or several of them")
	}
	var langs []string
	if c.Languages != nil {
		var err error
		if langs, err = tasks.CanonicalLanguages("languages", *c.Languages); err != nil {
			return nil, err
		}
	}
	if c.Paused == nil && c.Qualified == nil && c.Languages == nil {
		out, err := s.SetMember(ctx, actor, projectID, ref, *c.Roles)
		if err != nil || out.UserID == "" || out.Status == MemberRemoved {
			return out, err
		}
		if m, err := s.store.Member(ctx, projectID, out.UserID); err == nil {
			out.Paused, out.Qualified = &m.Paused, &m.Qualified
		}
		return out, nil
	}
	field, code := "paused", "not_a_member"
	switch {
	case c.Qualified != nil:
		field, code = "qualified", "not_member"
	case c.Paused == nil:
		field, code = "languages", "not_member"
	}
	target, err := s.memberByRef(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	if c.Roles != nil {
		if err := checkRoles(*c.Roles); err != nil {
			return nil, err
		}
		if target != nil && len(*c.Roles) == 0 {
			return nil, tasks.Field(field, code, "a person who leaves the project cannot be paused, qualified or given languages")
		}
	}
	if target == nil {
		return nil, tasks.Field(field, code, "only members of the project can be paused, qualified or given languages")
	}
	res := &MemberResult{Status: MemberUpdated, UserID: target.ID, Email: target.Email, Name: target.Name}
	if c.Roles != nil {
		if res, err = s.SetMember(ctx, actor, projectID, target.ID, *c.Roles); err != nil {
			return nil, err
		}
	}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if c.Paused != nil {
			if err := s.MemberPause(ctx, tx, actor.ID, projectID, target.ID, *c.Paused); err != nil {
				return err
			}
		}
		if c.Languages != nil {
			if err := setMemberLanguages(ctx, tx, actor.ID, projectID, target.ID, langs); err != nil {
				return err
			}
		}
		if c.Qualified != nil {
			return workflow.SetQualified(ctx, tx, projectID, actor.ID, target.ID, *c.Qualified, map[string]any{"by": "lead"})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m, err := s.store.Member(ctx, projectID, target.ID)
	if err != nil {
		return nil, err
	}
	res.Roles, res.Paused, res.Qualified = m.Roles, &m.Paused, &m.Qualified
	all, err := s.store.MemberLanguages(ctx, projectID)
	res.Languages = nonNil(all[target.ID])
	return res, err
}

// setMemberLanguages replaces the languages a member reads (canonical tags; none means every
// language) and audits the change.
func setMemberLanguages(ctx context.Context, tx *store.Store, actorID, projectID, userID string, langs []string) error {
	before, err := tx.MemberLanguages(ctx, projectID)
	if err != nil {
		return err
	}
	if err := tx.SetMemberLanguages(ctx, projectID, userID, langs); err != nil {
		return err
	}
	return tx.Audit(ctx, projectID, actorID, "member.languages", "user:"+userID, nonNil(before[userID]), nonNil(langs))
}
