package workflow

import (
	"context"
	"errors"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrNotQualified refuses label work to an annotator who has not qualified in a project whose
// policy requires it.
var ErrNotQualified = errors.New("label work in this project needs a qualification: pass a calibration round, or ask a lead to qualify you")

// checkQualified refuses a person who is not a qualified member of the project.
func (s *Service) checkQualified(ctx context.Context, p *Project, userID string) error {
	m, err := s.store.Member(ctx, p.ID, userID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !m.Qualified) {
		return ErrNotQualified
	}
	return err
}

// setQualified changes a member's qualification and audits the change (member.qualify or
// member.disqualify); an unchanged qualification writes nothing. why says what caused it.
func setQualified(ctx context.Context, tx *store.Store, projectID, actorID, userID string, qualified bool, why map[string]any) error {
	m, err := tx.Member(ctx, projectID, userID)
	if err != nil {
		return err
	}
	if m.Qualified == qualified {
		return nil
	}
	if err := tx.SetQualified(ctx, projectID, userID, qualified); err != nil {
		return err
	}
	action := map[bool]string{true: "member.qualify", false: "member.disqualify"}[qualified]
	after := map[string]any{"qualified": qualified}
	for k, v := range why {
		after[k] = v
	}
	return tx.Audit(ctx, projectID, actorID, action, "user:"+userID, map[string]any{"qualified": m.Qualified}, after)
}

// MemberChange is a lead's change to a person's membership: their roles, their qualification
// for production labeling, or both.
type MemberChange struct {
	Roles     []store.Role
	Qualified *bool
}

// MemberStatusUpdated is the status of a change that set only the qualification.
const MemberStatusUpdated = "updated"

// ChangeMember applies a membership change: the roles as SetMember sets them, then the
// qualification, which needs a member. A change that names neither is refused.
func (s *Service) ChangeMember(ctx context.Context, actor *store.User, projectID, ref string, c MemberChange) (*MemberResult, error) {
	if c.Roles == nil && c.Qualified == nil {
		return nil, tasks.Field("roles", "required", "give roles, qualified or both")
	}
	if c.Qualified == nil {
		return s.SetMember(ctx, actor, projectID, ref, c.Roles)
	}
	target, err := s.memberByRef(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	if c.Roles != nil {
		if err := checkRoles(c.Roles); err != nil {
			return nil, err
		}
		if target != nil && len(c.Roles) == 0 {
			return nil, tasks.Field("qualified", "not_member", "a person who leaves the project has no qualification to set")
		}
	}
	if target == nil {
		return nil, tasks.Field("qualified", "not_member", "only members of the project can be qualified")
	}
	res := &MemberResult{Status: MemberStatusUpdated, UserID: target.ID, Email: target.Email, Name: target.Name}
	if c.Roles != nil {
		if res, err = s.SetMember(ctx, actor, projectID, target.ID, c.Roles); err != nil {
			return nil, err
		}
	}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		return setQualified(ctx, tx, projectID, actor.ID, target.ID, *c.Qualified, map[string]any{"by": "lead"})
	})
	if err != nil {
		return nil, err
	}
	m, err := s.store.Member(ctx, projectID, target.ID)
	if err != nil {
		return nil, err
	}
	res.Roles, res.Qualified = m.Roles, &m.Qualified
	return res, nil
}
