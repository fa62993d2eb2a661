package projects

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ReservedLease is how long work handed to a named person waits for them: a day, or the
// project's lease when that is longer. After it the slot is free for anyone again.
const ReservedLease = 24 * time.Hour

// StuckAssign names stuck work and the person to give it to. ID is an item id, or for the
// review stage the id of the label waiting for a reviewer (the ids Stuck lists). GrantRole gives
// a member the stage's role when they lack it, or invites a non-member with it.
type StuckAssign struct {
	Stage     flow.Stage `json:"stage"`
	ID        string     `json:"id"`
	User      string     `json:"user"`
	GrantRole bool       `json:"grant_role"`
}

// StuckAssignResult says what happened: the work was assigned to a member (with the role added
// when it was missing), or the person was invited with the role and claims the work once they
// join.
type StuckAssignResult struct {
	// Status is "assigned" or "invited".
	Status    string     `json:"status"`
	UserID    string     `json:"user_id,omitempty"`
	Email     string     `json:"email,omitempty"`
	Role      store.Role `json:"role"`
	RoleAdded bool       `json:"role_added"`
	// Assignment is the work now held for the person; omitted when invited.
	Assignment *ReservedWork `json:"assignment,omitempty"`
}

// ReservedWork is an assignment held for a named person until it expires.
type ReservedWork struct {
	ID             string     `json:"id"`
	ItemID         string     `json:"item_id"`
	Stage          flow.Stage `json:"stage"`
	TargetID       *string    `json:"target_id,omitempty"`
	LeaseExpiresAt time.Time  `json:"lease_expires_at"`
}

// Stuck-assign statuses.
const (
	StuckAssigned = "assigned"
	StuckInvited  = "invited"
)

// AssignStuck gives one piece of waiting work to a named person, from the lead's view of stuck
// work: it checks that the work still waits and that the person may take it under the
// independence rules (never worked the item in another stage, never this item in this stage,
// never their own label), adds the stage's role when asked, and holds an assignment for them
// (ReservedLease) that their next claim in the stage resumes. Role and assignment are written in
// one transaction. A person who is not a member is invited with the role instead.
func (s *Service) AssignStuck(ctx context.Context, p *workflow.Project, actor *store.User, in StuckAssign) (*StuckAssignResult, error) {
	if !slices.Contains(flow.WorkStages, in.Stage) || !p.HasStage(in.Stage) {
		return nil, tasks.Field("stage", "invalid_value", "the project has no work stage %q", in.Stage)
	}
	if in.ID == "" {
		return nil, tasks.Field("id", "required", "name the waiting item (or, for reviews, the label)")
	}
	role := in.Stage.Role()
	target, err := s.memberByRef(ctx, p.ID, in.User)
	if err != nil {
		return nil, err
	}
	if target == nil && actor.IsAdmin {
		if target, err = s.userByRef(ctx, in.User); err != nil {
			return nil, tasks.Field("user", "unknown_user", "no account has this id or email")
		}
	}
	if target == nil {
		if !in.GrantRole {
			return nil, tasks.Field("user", "not_member", "%s is not a member; set grant_role to invite them as %s", in.User, role)
		}
		m, err := s.invite(ctx, actor, p.ID, in.User, store.RoleSet{role})
		if err != nil {
			return nil, err
		}
		return &StuckAssignResult{Status: StuckInvited, Email: m.Email, Role: role, RoleAdded: true}, nil
	}
	res := &StuckAssignResult{Status: StuckAssigned, UserID: target.ID, Email: target.Email, Role: role}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		added, err := s.grantStageRole(ctx, tx, p, actor, target.ID, role, in.GrantRole)
		if err != nil {
			return err
		}
		res.RoleAdded = added
		a, err := s.reserve(ctx, tx, p, actor, target.ID, in)
		if err != nil {
			return err
		}
		res.Assignment = &ReservedWork{ID: a.ID, ItemID: a.ItemID, Stage: a.Stage, TargetID: a.TargetID, LeaseExpiresAt: a.LeaseExpiresAt}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// StuckCandidate is a member who may be given one piece of waiting work: the rules of who may
// work an item allow them. HasRole is false for a member who lacks the stage's role, whom a
// hand-off gives it (grant_role).
type StuckCandidate struct {
	UserID  string        `json:"user_id"`
	Email   string        `json:"email"`
	Name    string        `json:"name"`
	Roles   store.RoleSet `json:"roles"`
	HasRole bool          `json:"has_role"`
}

// StuckCandidates lists the members, paused ones left out, to whom AssignStuck may give one
// piece of waiting work (an item, or for reviews a label): those the rules of who may work it
// allow (store.MayWork), with or without the stage's role, by email. Work that no longer waits
// is refused as AssignStuck refuses it.
func (s *Service) StuckCandidates(ctx context.Context, p *workflow.Project, stage flow.Stage, id string) ([]StuckCandidate, error) {
	in := StuckAssign{Stage: stage, ID: id}
	if !slices.Contains(flow.WorkStages, stage) || !p.HasStage(stage) {
		return nil, tasks.Field("stage", "invalid_value", "the project has no work stage %q", stage)
	}
	if id == "" {
		return nil, tasks.Field("id", "required", "name the waiting item (or, for reviews, the label)")
	}
	if _, err := s.waitingItem(ctx, s.store, p, in); err != nil {
		return nil, err
	}
	ms, err := s.store.Members(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := []StuckCandidate{}
	for _, m := range ms {
		if m.Paused {
			continue
		}
		broken, err := s.store.MayWork(ctx, stage, id, m.UserID, p.Allowed())
		if err != nil {
			return nil, err
		}
		if broken == "" {
			out = append(out, StuckCandidate{UserID: m.UserID, Email: m.Email, Name: m.Name, Roles: m.Roles, HasRole: m.Roles.Has(stage.Role())})
		}
	}
	return out, nil
}

// grantStageRole makes sure the member has role, adding it when grant is set.
func (s *Service) grantStageRole(ctx context.Context, tx *store.Store, p *workflow.Project, actor *store.User, userID string, role store.Role, grant bool) (bool, error) {
	if _, err := tx.ProjectForUpdate(ctx, p.ID); err != nil {
		return false, err
	}
	m, err := tx.Member(ctx, p.ID, userID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	var before store.RoleSet
	if m != nil {
		before = m.Roles
	}
	if before.Has(role) {
		return false, nil
	}
	if !grant {
		return false, tasks.Field("user", "missing_role", "this person is not a %s of the project; set grant_role to add the role", role)
	}
	after := append(slices.Clone(before), role).Normalize()
	if err := tx.SetMember(ctx, p.ID, userID, after); err != nil {
		return false, err
	}
	return true, tx.Audit(ctx, p.ID, actor.ID, "member.set", "user:"+userID, before, after)
}

// reserve checks that the work waits and that the person may take it, then claims it on their
// behalf with the reserved lease.
func (s *Service) reserve(ctx context.Context, tx *store.Store, p *workflow.Project, actor *store.User, userID string, in StuckAssign) (*store.Assignment, error) {
	itemID, err := s.waitingItem(ctx, tx, p, in)
	if err != nil {
		return nil, err
	}
	if err := mayWork(ctx, tx, p, in, userID); err != nil {
		return nil, err
	}
	id := in.ID
	if in.Stage != flow.StageReview {
		id = itemID
	}
	a, _, err := s.wf.TryClaim(ctx, tx, p, userID, in.Stage, id, s.now())
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, tasks.Field("id", "not_waiting", "every slot of this work is taken; nothing is left to assign")
	}
	a.LeaseExpiresAt = s.now().Add(max(ReservedLease, p.Lease()))
	if err := tx.SaveAssignment(ctx, a); err != nil {
		return nil, err
	}
	return a, tx.Audit(ctx, p.ID, actor.ID, "assignment.reserve", "item:"+a.ItemID, nil,
		map[string]any{"assignment": a.ID, "stage": a.Stage, "user": userID, "lease_expires_at": a.LeaseExpiresAt})
}

// mayWork refuses a hand-off the rules of who may work an item refuse (store.WorkRules), with
// the rule that refuses it: the person a claim would never give the work to.
func mayWork(ctx context.Context, tx *store.Store, p *workflow.Project, in StuckAssign, userID string) error {
	broken, err := tx.MayWork(ctx, in.Stage, in.ID, userID, p.Allowed())
	if err != nil || broken == "" {
		return err
	}
	code := "not_independent"
	if broken == store.RuleLanguage {
		code = "language"
	}
	return tasks.Field("user", code, "this person cannot be given this %s work: it needs someone who %s", in.Stage, broken.Says(in.Stage))
}

// waitingItem returns the item of the named work after checking that it waits in the stage:
// an unflagged item in that stage, or for reviews a submitted label whose review is pending.
func (s *Service) waitingItem(ctx context.Context, tx *store.Store, p *workflow.Project, in StuckAssign) (string, error) {
	notWaiting := tasks.Field("id", "not_waiting", "this is not work waiting in the %s stage", in.Stage)
	itemID := in.ID
	if in.Stage == flow.StageReview {
		l, err := tx.AssignmentForUpdate(ctx, in.ID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && (l.ProjectID != p.ID || l.Stage != flow.StageLabel ||
			l.Status != flow.AssignSubmitted || l.ReviewStatus != flow.ReviewPending)) {
			return "", notWaiting
		}
		if err != nil {
			return "", err
		}
		itemID = l.ItemID
	}
	it, err := tx.Item(ctx, p.ID, itemID)
	if errors.Is(err, store.ErrNotFound) {
		return "", notWaiting
	}
	if err != nil {
		return "", err
	}
	if len(it.Flag) > 0 || (in.Stage != flow.StageReview && it.Stage != in.Stage) {
		return "", notWaiting
	}
	return it.ID, nil
}

// StuckTotals counts, per work stage, the waiting work that no current member can be given,
// over every project that is not archived (each project's count capped as in Stuck). It feeds
// the arbiter_stuck_work gauge; its labels are the four work stages, never project ids.
func (s *Service) StuckTotals(ctx context.Context) (map[flow.Stage]int64, error) {
	roles := make(map[flow.Stage]string, len(flow.WorkStages))
	for _, stage := range flow.WorkStages {
		roles[stage] = string(stage.Role())
	}
	return s.store.StuckTotals(ctx, roles, workflow.AvailableCap, func(raw store.JSON) store.Allowed {
		pol, err := workflow.ParsePolicy(raw)
		if err != nil {
			return store.Allowed{} // note: a policy that does not parse lets nothing through
		}
		return workflow.AllowedBy(pol)
	})
}
