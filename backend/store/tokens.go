package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/arbiter-annotation/arbiter/backend/store/rowcache"
)

// RefreshToken is one refresh token of a login's token family, stored as a hash.
type RefreshToken struct {
	ID        string `gorm:"primaryKey"`
	UserID    string
	FamilyID  string
	TokenHash string
	ExpiresAt time.Time
	UsedAt    *time.Time
	RevokedAt *time.Time
	CreatedAt time.Time
}

// CreateRefreshToken stores a new refresh token.
func (s *Store) CreateRefreshToken(ctx context.Context, t *RefreshToken) error {
	if t.ID == "" {
		t.ID = newID()
	}
	return translate(s.db.WithContext(ctx).Create(t).Error)
}

// RefreshTokenByHash finds a refresh token by its hash.
func (s *Store) RefreshTokenByHash(ctx context.Context, hash string) (*RefreshToken, error) {
	var t RefreshToken
	err := s.db.WithContext(ctx).Where("token_hash = ?", hash).Take(&t).Error
	return &t, translate(err)
}

// UseRefreshToken marks a token used. It reports false when the token was already used or
// revoked, so two concurrent refreshes with one token cannot both succeed.
func (s *Store) UseRefreshToken(ctx context.Context, id string) (bool, error) {
	res := s.db.WithContext(ctx).Model(&RefreshToken{}).
		Where("id = ? AND used_at IS NULL AND revoked_at IS NULL", id).
		Update("used_at", now())
	return res.RowsAffected == 1, translate(res.Error)
}

// RevokeRefreshFamily revokes every token of a family.
func (s *Store) RevokeRefreshFamily(ctx context.Context, familyID string) error {
	return translate(s.db.WithContext(ctx).Model(&RefreshToken{}).
		Where("family_id = ? AND revoked_at IS NULL", familyID).
		Update("revoked_at", now()).Error)
}

// PersonalAccessToken is a long-lived token for scripts, stored as a hash.
type PersonalAccessToken struct {
	ID         string `gorm:"primaryKey"`
	UserID     string
	Name       string
	Prefix     string
	Scopes     []string `gorm:"serializer:json"`
	TokenHash  string
	ExpiresAt  *time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
	CreatedAt  time.Time
}

// CreateAccessToken stores a personal access token.
func (s *Store) CreateAccessToken(ctx context.Context, t *PersonalAccessToken) error {
	if t.ID == "" {
		t.ID = newID()
	}
	return translate(s.db.WithContext(ctx).Create(t).Error)
}

// AccessTokens lists a user's tokens that are not revoked.
func (s *Store) AccessTokens(ctx context.Context, userID string) ([]PersonalAccessToken, error) {
	var ts []PersonalAccessToken
	err := s.db.WithContext(ctx).Where("user_id = ? AND revoked_at IS NULL", userID).Order("created_at").Find(&ts).Error
	return ts, translate(err)
}

// AccessTokenByHash finds a live (not revoked) token by its hash.
func (s *Store) AccessTokenByHash(ctx context.Context, hash string) (*PersonalAccessToken, error) {
	var t PersonalAccessToken
	err := s.db.WithContext(ctx).Where("token_hash = ? AND revoked_at IS NULL", hash).Take(&t).Error
	return &t, translate(err)
}

// TouchAccessToken records a use, at most once a minute per token to keep reads cheap. The
// time of last use is no part of what the cache of authentication rows serves, so writing it
// does not clear that cache.
func (s *Store) TouchAccessToken(ctx context.Context, id string, at time.Time) error {
	return translate(s.db.WithContext(ctx).Set(rowcache.Neutral, true).Model(&PersonalAccessToken{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at < ?)", id, at.Add(-time.Minute)).
		Update("last_used_at", at).Error)
}

// RevokeAccessToken revokes one of the user's tokens; ErrNotFound if it is not theirs.
func (s *Store) RevokeAccessToken(ctx context.Context, userID, id string) error {
	res := s.db.WithContext(ctx).Model(&PersonalAccessToken{}).
		Where("id = ? AND user_id = ? AND revoked_at IS NULL", id, userID).
		Update("revoked_at", now())
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}

// RevokeUserRefreshTokens ends every session of a user.
func (s *Store) RevokeUserRefreshTokens(ctx context.Context, userID string) error {
	return translate(s.db.WithContext(ctx).Model(&RefreshToken{}).
		Where("user_id = ? AND revoked_at IS NULL", userID).Update("revoked_at", now()).Error)
}

// RevokeUserAccessTokens revokes every personal access token of a user.
func (s *Store) RevokeUserAccessTokens(ctx context.Context, userID string) error {
	return translate(s.db.WithContext(ctx).Model(&PersonalAccessToken{}).
		Where("user_id = ? AND revoked_at IS NULL", userID).Update("revoked_at", now()).Error)
}

// PasswordReset is a one-time link to set a new password, stored as a hash.
type PasswordReset struct {
	ID        string `gorm:"primaryKey"`
	UserID    string
	TokenHash string
	CreatedBy string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

// CreatePasswordReset stores a reset link and makes every older unused link of the user useless.
func (s *Store) CreatePasswordReset(ctx context.Context, r *PasswordReset) error {
	if r.ID == "" {
		r.ID = newID()
	}
	err := s.db.WithContext(ctx).Model(&PasswordReset{}).
		Where("user_id = ? AND used_at IS NULL", r.UserID).Update("used_at", now()).Error
	if err != nil {
		return translate(err)
	}
	return translate(s.db.WithContext(ctx).Create(r).Error)
}

// UsePasswordReset marks the unused, unexpired reset with the hash used and returns it;
// ErrNotFound when there is none, so one link sets one password.
func (s *Store) UsePasswordReset(ctx context.Context, hash string) (*PasswordReset, error) {
	var r PasswordReset
	t := now()
	if err := s.db.WithContext(ctx).Where("token_hash = ? AND used_at IS NULL AND expires_at > ?", hash, t).Take(&r).Error; err != nil {
		return nil, translate(err)
	}
	res := s.db.WithContext(ctx).Model(&PasswordReset{}).Where("id = ? AND used_at IS NULL", r.ID).Update("used_at", t)
	if res.Error == nil && res.RowsAffected == 0 {
		return nil, ErrNotFound
	}
	return &r, translate(res.Error)
}

// LoginFailures are the failed logins counted for one throttle key.
type LoginFailures struct {
	Count int
	Last  time.Time // the newest failure; zero when Count is 0
}

// LoginFailures returns the failures of key, forgotten once the key has been quiet for longer
// than window.
func (s *Store) LoginFailures(ctx context.Context, key string, window time.Duration) (LoginFailures, error) {
	var row struct {
		Failures      int
		LastFailureAt time.Time
	}
	err := s.db.WithContext(ctx).Table("login_throttle").Select("failures, last_failure_at").Where("key = ?", key).Take(&row).Error
	if err == gorm.ErrRecordNotFound {
		return LoginFailures{}, nil
	}
	if err != nil {
		return LoginFailures{}, translate(err)
	}
	if now().Sub(row.LastFailureAt) > window {
		return LoginFailures{}, nil
	}
	return LoginFailures{Count: row.Failures, Last: row.LastFailureAt}, nil
}

// RecordLoginFailure counts one failure for each key, starting again from one when the key was
// quiet for longer than window, and returns the new counts in the order of keys.
func (s *Store) RecordLoginFailure(ctx context.Context, window time.Duration, keys ...string) ([]int, error) {
	t := now()
	counts := make([]int, len(keys))
	for i, key := range keys {
		err := s.db.WithContext(ctx).Raw(`
INSERT INTO login_throttle (key, failures, window_start, last_failure_at) VALUES (?, 1, ?, ?)
ON CONFLICT (key) DO UPDATE SET
  failures = CASE WHEN login_throttle.last_failure_at < ? THEN 1 ELSE login_throttle.failures + 1 END,
  window_start = CASE WHEN login_throttle.last_failure_at < ? THEN excluded.window_start ELSE login_throttle.window_start END,
  last_failure_at = excluded.last_failure_at
RETURNING failures`, key, t, t, t.Add(-window), t.Add(-window)).Scan(&counts[i]).Error
		if err != nil {
			return nil, translate(err)
		}
	}
	return counts, nil
}

// ClearLoginFailures forgets the failures of a key after a successful login.
func (s *Store) ClearLoginFailures(ctx context.Context, key string) error {
	return translate(s.db.WithContext(ctx).Exec("DELETE FROM login_throttle WHERE key = ?", key).Error)
}
