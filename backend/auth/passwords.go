package auth

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Errors of account changes.
var (
	ErrOwnAccount   = errors.New("administrators cannot disable their own account")
	ErrResetInvalid = errors.New("this password reset link is unknown, used, replaced or expired; ask an administrator for a new one")
)

// ResetLinkTTL is how long a password reset link works. note: an administrator hands it over
// by hand, so it lives a working day; it works once and a newer link replaces it.
const ResetLinkTTL = 24 * time.Hour

// ResetTokenPrefix marks password reset tokens.
const ResetTokenPrefix = "arb_reset_"

// PasswordChange is a person changing their own password.
type PasswordChange struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// ChangePassword sets a new password for the user after checking the current one (wrong
// guesses count towards the login throttle). Every session and access token of the user ends;
// the caller gets a new session.
func (s *Sessions) ChangePassword(ctx context.Context, u *store.User, addr string, in PasswordChange) (*Pair, error) {
	keys := newThrottleKeys(u.Email, addr)
	if err := s.checkThrottle(ctx, keys); err != nil {
		return nil, err
	}
	match, err := s.checkPassword(ctx, u.PasswordHash, in.CurrentPassword)
	if err != nil {
		return nil, err
	}
	if !match {
		if err := s.fail(ctx, keys); errors.Is(err, ErrUnavailable) {
			return nil, err
		}
		return nil, tasks.Field("current_password", "wrong_password", "the current password is wrong")
	}
	if err := CheckNewPassword("new_password", in.NewPassword, u.Email, u.Name); err != nil {
		return nil, err
	}
	if err := s.setPassword(ctx, u.ID, u.ID, "user.password_change", in.NewPassword); err != nil {
		return nil, err
	}
	fresh, err := s.store.User(ctx, u.ID)
	if err != nil {
		return nil, unavailable(err)
	}
	pair, err := s.issue(ctx, s.store, fresh, RandomString(12))
	return pair, unavailable(err)
}

// setPassword stores a new password, ends every session of the user and audits it.
func (s *Sessions) setPassword(ctx context.Context, actorID, userID, action, password string) error {
	hash, err := s.hashPassword(ctx, password)
	if err != nil {
		return err
	}
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.SetPassword(ctx, userID, hash); err != nil {
			return store.Missing(err, "user")
		}
		if err := tx.RevokeUserRefreshTokens(ctx, userID); err != nil {
			return err
		}
		return tx.Audit(ctx, "", actorID, action, "user:"+userID, nil, nil)
	})
}

// IssuedReset is a password reset link's secret, shown once to the administrator who made it.
type IssuedReset struct {
	Token     string    `json:"token"`
	Path      string    `json:"path"` // where the web UI takes it: /reset-password#token=...
	ExpiresAt time.Time `json:"expires_at"`
}

// IssuePasswordReset makes a one-time link for the user to set a new password, replacing any
// older one. The current password keeps working until the link is used.
func (s *Sessions) IssuePasswordReset(ctx context.Context, actorID, userID string) (*IssuedReset, error) {
	token := NewOpaqueToken(ResetTokenPrefix)
	r := &store.PasswordReset{UserID: userID, TokenHash: HashToken(token), CreatedBy: actorID,
		ExpiresAt: time.Now().UTC().Add(ResetLinkTTL), CreatedAt: time.Now().UTC()}
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if _, err := tx.User(ctx, userID); err != nil {
			return store.Missing(err, "user")
		}
		if err := tx.CreatePasswordReset(ctx, r); err != nil {
			return err
		}
		return tx.Audit(ctx, "", actorID, "user.password_reset_issue", "user:"+userID, nil, map[string]any{"expires_at": r.ExpiresAt})
	})
	if err != nil {
		return nil, err
	}
	// note: the token travels in the fragment, which browsers send to no server and no Referer
	return &IssuedReset{Token: token, Path: "/reset-password#token=" + token, ExpiresAt: r.ExpiresAt}, nil
}

// PasswordReset sets a new password with a reset link.
type PasswordReset struct {
	Token       string `json:"token"`
	NewPassword string `json:"new_password"`
}

// ResetPassword sets a new password with a one-time link; every session of the user ends. A
// password the rules refuse leaves the link usable.
func (s *Sessions) ResetPassword(ctx context.Context, in PasswordReset) error {
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		r, err := tx.UsePasswordReset(ctx, HashToken(in.Token))
		if errors.Is(err, store.ErrNotFound) {
			return ErrResetInvalid
		}
		if err != nil {
			return err
		}
		u, err := tx.User(ctx, r.UserID)
		if err != nil {
			return err
		}
		if err := CheckNewPassword("new_password", in.NewPassword, u.Email, u.Name); err != nil {
			return err
		}
		hash, err := s.hashPassword(ctx, in.NewPassword)
		if err != nil {
			return err
		}
		if err := tx.SetPassword(ctx, u.ID, hash); err != nil {
			return err
		}
		if err := tx.RevokeUserRefreshTokens(ctx, u.ID); err != nil {
			return err
		}
		return tx.Audit(ctx, "", u.ID, "user.password_reset", "user:"+u.ID, nil, map[string]string{"link_by": r.CreatedBy})
	})
	return err
}

// SetDisabled disables or re-enables a user. Disabling ends every session and revokes every
// personal access token at once; re-enabling gives back none of them.
func (s *Sessions) SetDisabled(ctx context.Context, actorID, userID string, disabled bool) (*UserView, error) {
	if disabled && actorID == userID {
		return nil, ErrOwnAccount
	}
	action := map[bool]string{true: "user.disable", false: "user.enable"}[disabled]
	var u *store.User
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.SetDisabled(ctx, userID, disabled); err != nil {
			return store.Missing(err, "user")
		}
		if disabled {
			if err := tx.RevokeUserRefreshTokens(ctx, userID); err != nil {
				return err
			}
			if err := tx.RevokeUserAccessTokens(ctx, userID); err != nil {
				return err
			}
		}
		var err error
		if u, err = tx.User(ctx, userID); err != nil {
			return err
		}
		return tx.Audit(ctx, "", actorID, action, "user:"+userID, nil, map[string]bool{"disabled": disabled})
	})
	if err != nil {
		return nil, err
	}
	return UserViewOf(u), nil
}
