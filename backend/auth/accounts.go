package auth

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrEmailTaken refuses a second account with the same email.
var ErrEmailTaken = errors.New("a user with this email exists")

// NewUser is an account an administrator creates.
type NewUser struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	Password string `json:"password"`
	IsAdmin  bool   `json:"is_admin"`
	// CanCreateProjects lets the user create projects (administrators always can).
	CanCreateProjects bool `json:"can_create_projects"`
}

func (in NewUser) validate() error {
	fe := tasks.FieldErrors{}
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != strings.TrimSpace(in.Email) {
		fe.Add("email", "invalid_email", "email must be a plain address like ana@example.org")
	}
	if n := len(strings.TrimSpace(in.Name)); n == 0 || n > 200 {
		fe.Add("name", "invalid_length", "name must be 1 to 200 characters")
	}
	if len(in.Password) < MinPasswordLength || len(in.Password) > 1024 {
		fe.Add("password", "too_short", "password must be at least %d characters", MinPasswordLength)
	}
	return fe.Err()
}

// CreateUser creates an account and records who created it.
func (s *Sessions) CreateUser(ctx context.Context, actorID string, in NewUser) (*store.User, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	hash, err := HashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	u := &store.User{Email: in.Email, Name: strings.TrimSpace(in.Name), PasswordHash: hash, IsAdmin: in.IsAdmin, CanCreateProjects: in.CanCreateProjects}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		return tx.Audit(ctx, "", actorID, "user.create", "user:"+u.ID, nil, u)
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, ErrEmailTaken
	}
	return u, err
}

// SetCanCreateProjects grants or withdraws a user's permission to create projects.
func (s *Sessions) SetCanCreateProjects(ctx context.Context, actorID, userID string, can bool) (*store.User, error) {
	var u *store.User
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.SetCanCreateProjects(ctx, userID, can); err != nil {
			return store.Missing(err, "user")
		}
		var err error
		if u, err = tx.User(ctx, userID); err != nil {
			return err
		}
		return tx.Audit(ctx, "", actorID, "user.permissions", "user:"+userID, nil, map[string]bool{"can_create_projects": can})
	})
	return u, err
}

// Users lists every account.
func (s *Sessions) Users(ctx context.Context) ([]store.User, error) { return s.store.Users(ctx) }

// NewToken asks for a personal access token.
type NewToken struct {
	Name          string `json:"name"`
	ExpiresInDays int    `json:"expires_in_days"` // 0: never
}

// IssuedToken is a new personal access token; Token is shown this once.
type IssuedToken struct {
	store.PersonalAccessToken
	Token string `json:"token"`
}

// IssueAccessToken creates a personal access token for the user.
func (s *Sessions) IssueAccessToken(ctx context.Context, userID string, in NewToken) (*IssuedToken, error) {
	fe := tasks.FieldErrors{}
	name := strings.TrimSpace(in.Name)
	if n := len(name); n == 0 || n > 100 {
		fe.Add("name", "invalid_length", "name must be 1 to 100 characters")
	}
	if in.ExpiresInDays < 0 || in.ExpiresInDays > 3650 {
		fe.Add("expires_in_days", "out_of_range", "expires_in_days must be 0 (never) to 3650")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	token, pat, err := s.CreateAccessToken(ctx, userID, name, time.Duration(in.ExpiresInDays)*24*time.Hour)
	if err != nil {
		return nil, err
	}
	return &IssuedToken{PersonalAccessToken: *pat, Token: token}, nil
}

// AccessTokens lists the user's personal access tokens (never their secrets).
func (s *Sessions) AccessTokens(ctx context.Context, userID string) ([]store.PersonalAccessToken, error) {
	return s.store.AccessTokens(ctx, userID)
}

// RevokeAccessToken revokes one of the user's tokens; other people's tokens do not exist.
func (s *Sessions) RevokeAccessToken(ctx context.Context, userID, id string) error {
	return store.Missing(s.store.RevokeAccessToken(ctx, userID, id), "token")
}
