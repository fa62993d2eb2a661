package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"
)

// User is a person who logs in.
type User struct {
	ID           string `gorm:"primaryKey"`
	Email        string
	Name         string
	PasswordHash string
	IsAdmin      bool
	// CanCreateProjects is granted by administrators (who can always create projects).
	CanCreateProjects bool
	Disabled          bool
	// Locale is the language of the user's interface: "en", "zh-CN", or empty when not chosen.
	Locale string
	// SessionGeneration ends every access token signed in an older generation.
	SessionGeneration int
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// NormalizeEmail is the form in which emails are stored and compared.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// CreateUser inserts a user; ErrConflict when the email is taken.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	if u.ID == "" {
		u.ID = newID()
	}
	u.Email = NormalizeEmail(u.Email)
	return translate(s.db.WithContext(ctx).Create(u).Error)
}

// User returns the user with the given id.
func (s *Store) User(ctx context.Context, id string) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&u).Error
	return &u, translate(err)
}

// UserByEmail returns the user with the given email.
func (s *Store) UserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("email = ?", NormalizeEmail(email)).Take(&u).Error
	return &u, translate(err)
}

// Users lists every user by email.
func (s *Store) Users(ctx context.Context) ([]User, error) {
	var us []User
	err := s.db.WithContext(ctx).Order("email").Find(&us).Error
	return us, translate(err)
}

// UserCount counts users; zero means a fresh database.
func (s *Store) UserCount(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&User{}).Count(&n).Error
	return n, translate(err)
}

// SetCanCreateProjects grants or withdraws the permission to create projects.
func (s *Store) SetCanCreateProjects(ctx context.Context, id string, can bool) error {
	return s.updateUser(ctx, id, map[string]any{"can_create_projects": can})
}

// SetLocale stores the language of a user's interface ("" forgets it).
func (s *Store) SetLocale(ctx context.Context, id, locale string) error {
	return s.updateUser(ctx, id, map[string]any{"locale": locale})
}

func (s *Store) updateUser(ctx context.Context, id string, fields map[string]any) error {
	fields["updated_at"] = now()
	res := s.db.WithContext(ctx).Model(&User{}).Where("id = ?", id).Updates(fields)
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}

// SetPassword stores a new password hash and starts a new session generation.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	return s.updateUser(ctx, userID, map[string]any{"password_hash": hash, "session_generation": gorm.Expr("session_generation + 1")})
}

// SetDisabled disables or re-enables a user; either starts a new session generation.
func (s *Store) SetDisabled(ctx context.Context, userID string, disabled bool) error {
	return s.updateUser(ctx, userID, map[string]any{"disabled": disabled, "session_generation": gorm.Expr("session_generation + 1")})
}
