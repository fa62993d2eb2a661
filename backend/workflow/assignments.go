package workflow

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Worker is the person acting on a piece of work, with their roles in the project as they are
// at this moment: every action checks the role of the work's stage, not only the claim.
type Worker struct {
	ID    string
	Roles store.RoleSet
}

// openAssignment locks an assignment of the project that belongs to the worker, is active, and
// whose stage the worker still holds the role for.
func (s *Service) openAssignment(ctx context.Context, tx *store.Store, p *Project, w Worker, aid string) (*store.Assignment, error) {
	a, err := tx.AssignmentForUpdate(ctx, aid)
	return s.checkOpen(ctx, tx, p, w, a, err)
}

// checkOpen checks an assignment read for openAssignment (err: the read's error).
func (s *Service) checkOpen(ctx context.Context, tx *store.Store, p *Project, w Worker, a *store.Assignment, err error) (*store.Assignment, error) {
	if err != nil {
		return nil, store.Missing(err, "assignment")
	}
	if a.ProjectID != p.ID {
		return nil, &store.NotFoundError{What: "assignment"}
	}
	if err := owns(a, w.ID); err != nil {
		return nil, err
	}
	if !w.Roles.Has(a.Stage.Role()) {
		return nil, ErrRoleRequired
	}
	if err := roundOpen(ctx, tx, a); err != nil {
		return nil, err
	}
	if a.Status == flow.AssignSubmitted {
		return a, ErrAlreadyDone
	}
	if a.Status != flow.AssignActive {
		return a, ErrNotActive
	}
	return a, nil
}

// Assignment returns an assignment of the project that belongs to the user, for handlers that
// need its project before acting.
func (s *Service) Assignment(ctx context.Context, aid, userID string) (*store.Assignment, error) {
	a, err := s.store.Assignment(ctx, aid)
	if err != nil {
		return nil, store.Missing(err, "assignment")
	}
	if a.UserID != userID {
		return nil, &store.NotFoundError{What: "assignment"} // note: someone else's assignment does not exist for you
	}
	return a, nil
}

// SaveDraft autosaves answers (in the order shown) if version is the current one; it returns
// the new version. Every save is kept as a revision.
//
// The assignment is not locked: it is the one this replica remembers at that version (see
// openWork) or, failing that, read, and the write takes effect only while the assignment is
// still active, the person's, and at that version (every change of its draft or pass moves the
// version), so what was checked holds when it commits. On PostgreSQL a save is one statement
// committed by itself (two when the assignment is read) instead of a transaction of four. When
// the condition fails, the save is decided again under the lock, which tells a stale version,
// or work no longer open, from the state it waited for.
func (s *Service) SaveDraft(ctx context.Context, p *Project, w Worker, aid string, answers tasks.Answers, version *int) (int, error) {
	if version == nil {
		return 0, tasks.Field("version", "required", "send the version you loaded; a stale one gets 409")
	}
	a, ok := s.open.at(aid, *version)
	if !ok {
		var err error
		a, err = s.store.Assignment(ctx, aid)
		if a, err = s.checkOpen(ctx, s.store, p, w, a, err); err != nil {
			return 0, err
		}
		if *version != a.Version {
			return a.Version, ErrStaleVersion
		}
	} else if _, err := s.checkOpen(ctx, s.store, p, w, a, nil); err != nil {
		s.open.forget(aid)
		return s.saveDraftLocked(ctx, p, w, aid, answers, *version)
	}
	draft, ps, err := p.draftOf(a, answers)
	if err != nil {
		return 0, err
	}
	var pass *string
	var inputs store.JSON
	if ps != nil {
		pass, inputs = &ps.Key, Encode(ps.Inputs)
	}
	saved, err := s.store.SaveDraftIf(ctx, a.ID, w.ID, a.Version, draft, pass, inputs)
	if err != nil {
		return 0, err
	}
	if saved {
		a.Draft, a.Version = draft, a.Version+1
		s.open.keep(a)
		return a.Version, nil
	}
	s.open.forget(aid)
	return s.saveDraftLocked(ctx, p, w, aid, answers, *version)
}

// saveDraftLocked is SaveDraft under the assignment's lock.
func (s *Service) saveDraftLocked(ctx context.Context, p *Project, w Worker, aid string, answers tasks.Answers, version int) (int, error) {
	var next int
	var saved *store.Assignment
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		a, err := s.openAssignment(ctx, tx, p, w, aid)
		if err != nil {
			return err
		}
		if version != a.Version {
			next = a.Version
			return ErrStaleVersion
		}
		draft, ps, err := p.draftOf(a, answers)
		if err != nil {
			return err
		}
		a.Draft, a.Version = draft, a.Version+1
		next = a.Version
		if err := tx.SaveAssignmentWith(ctx, a, revisionOf(a, flow.RevisionDraft, a.Draft, ps)); err != nil {
			return err
		}
		saved = a
		return nil
	})
	if err == nil {
		s.open.keep(saved)
	}
	return next, err
}

// draftOf is the draft a save of answers stores on an assignment as it stands: canonical (in
// the stored order) where the answers allow it, and for a form with passes the current pass's
// answers over the earlier passes' ones.
func (p *Project) draftOf(a *store.Assignment, answers tasks.Answers) (store.JSON, *tasks.Pass, error) {
	form, ps, err := p.formOf(a)
	if err != nil {
		return nil, nil, err
	}
	if err := onlyPass(form, ps, answers); err != nil {
		return nil, nil, err
	}
	canonical, err := form.ToCanonical(answers, shuffleOf(a))
	if err != nil {
		canonical = answers // note: a draft may hold half-made answers; keep them as given
	}
	if ps != nil {
		canonical = withPass(form, DecodeAnswers(a.Draft), canonical)
	}
	return Encode(canonical), ps, nil
}

// Heartbeat extends the lease of an open assignment.
func (s *Service) Heartbeat(ctx context.Context, p *Project, w Worker, aid string) (time.Time, error) {
	var until time.Time
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		a, err := s.openAssignment(ctx, tx, p, w, aid)
		if err != nil {
			return err
		}
		t := s.now()
		if a.LeaseExpiresAt.Before(t) {
			free, err := s.slotStillFree(ctx, tx, p, &store.LockedForSubmit{Assignment: a}, t)
			if err != nil {
				return err
			}
			if !free {
				return ErrLeaseLost
			}
		}
		a.LeaseExpiresAt = t.Add(p.Lease())
		until = a.LeaseExpiresAt
		return tx.SaveAssignment(ctx, a)
	})
	return until, err
}

// Skip gives an assignment back; the person will not get that item again in this stage.
func (s *Service) Skip(ctx context.Context, p *Project, w Worker, aid, reason string) error {
	s.open.forget(aid)
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		a, err := s.openAssignment(ctx, tx, p, w, aid)
		if err != nil {
			return err
		}
		a.Status, a.SkipReason = flow.AssignSkipped, &reason
		ev, err := tx.EventWrite(ctx, store.Event{ProjectID: p.ID, ActorID: w.ID, Action: "assignment.skip", Target: "item:" + a.ItemID,
			After: map[string]any{"assignment": a.ID, "reason": reason}})
		if err != nil {
			return err
		}
		return tx.SaveAssignmentWith(ctx, a, ev) // note: the skip and its audit event, one statement on PostgreSQL
	})
}

// ErrHasDraft refuses to release an assignment with saved answers.
var ErrHasDraft = errors.New("this assignment has saved answers; submit or skip it instead")

// Release gives back an assignment nobody has worked on (e.g. one claimed ahead when the
// person leaves), as if it had never been claimed: the item returns to the queue, for this
// person too. One with saved answers is refused, so nothing typed is ever thrown away.
func (s *Service) Release(ctx context.Context, p *Project, w Worker, aid string) error {
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		a, err := s.openAssignment(ctx, tx, p, w, aid)
		if err != nil {
			return err
		}
		ok, err := tx.DeleteUntouchedAssignment(ctx, a.ID)
		if err != nil {
			return err
		}
		if !ok {
			return ErrHasDraft
		}
		return tx.Audit(ctx, p.ID, w.ID, "assignment.release", "item:"+a.ItemID, map[string]any{"assignment": a.ID, "stage": a.Stage}, nil)
	})
}

// Flag takes the item out of the queue for the lead to decide. A flag of category "other"
// needs a reason.
func (s *Service) Flag(ctx context.Context, p *Project, w Worker, aid string, category flow.FlagCategory, reason string) error {
	if !category.Valid() {
		return tasks.Field("category", "invalid_value", "category must be one of %v", flow.FlagCategories)
	}
	if category == flow.FlagOther && strings.TrimSpace(reason) == "" {
		return tasks.Field("reason", "required", "say what is wrong with the item")
	}
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		a, err := s.openAssignment(ctx, tx, p, w, aid)
		if err != nil {
			return err
		}
		a.Status = flow.AssignFlagged
		if err := tx.SaveAssignment(ctx, a); err != nil {
			return err
		}
		flag := map[string]any{"category": category, "reason": reason, "by": w.ID, "assignment": a.ID, "at": s.now()}
		if err := tx.SetItemFlag(ctx, a.ItemID, Encode(flag)); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, w.ID, "item.flag", "item:"+a.ItemID, nil, flag)
	})
}

// ResolveFlag is the lead's decision on a flagged item: "return" puts it back in the queue,
// "drop" drops it with the flag as the reason.
func (s *Service) ResolveFlag(ctx context.Context, p *Project, actorID, itemID string, action flow.FlagAction, note string) error {
	if !action.Valid() {
		return tasks.Field("action", "invalid_value", "action must be return (back to the queue) or drop")
	}
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		it, err := tx.ItemForUpdate(ctx, itemID)
		if err != nil {
			return store.Missing(err, "item")
		}
		if it.ProjectID != p.ID {
			return &store.NotFoundError{What: "item"}
		}
		if len(it.Flag) == 0 {
			return ErrItemNotInFlow
		}
		if err := tx.SetItemFlag(ctx, it.ID, nil); err != nil {
			return err
		}
		if action == flow.FlagDrop && it.Stage != flow.StageCalibration { // note: a pool item stays in the pool
			reason := "flagged: " + string(it.Flag)
			if note != "" {
				reason += "; lead: " + note
			}
			if err := tx.SetItemStage(ctx, it.ID, flow.StageDropped, &reason); err != nil {
				return err
			}
		}
		return tx.Audit(ctx, p.ID, actorID, "item.flag_resolved", "item:"+it.ID, it.Flag, map[string]any{"action": action, "note": note})
	})
}
