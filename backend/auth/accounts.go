package auth

import (
	"context"
	"errors"
	"net/mail"
	"slices"
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
	// Locale is the language of the user's interface (one of Locales, or empty).
	Locale string `json:"locale"`
}

// Locales are the languages the interface is translated into; a user's locale is one of
// them or empty (the browser's language applies then).
var Locales = []string{"en", "zh-CN"}

func checkLocale(fe tasks.FieldErrors, locale string) {
	if locale != "" && !slices.Contains(Locales, locale) {
		fe.Add("locale", "invalid_locale", "locale must be one of %s, or empty", strings.Join(Locales, ", "))
	}
}

func (in NewUser) validate() error {
	fe := tasks.FieldErrors{}
	checkLocale(fe, in.Locale)
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != strings.TrimSpace(in.Email) {
		fe.Add("email", "invalid_email", "email must be a plain address like ana@example.org")
	}
	if n := len(strings.TrimSpace(in.Name)); n == 0 || n > 200 {
		fe.Add("name", "invalid_length", "name must be 1 to 200 characters")
	}
	var pe tasks.FieldErrors
	if errors.As(CheckNewPassword("password", in.Password, in.Email, in.Name), &pe) {
		for k, v := range pe {
			fe[k] = v
		}
	}
	return fe.Err()
}

// CreateUser creates an account and records who created it.
func (s *Sessions) CreateUser(ctx context.Context, actorID string, in NewUser) (*UserView, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	hash, err := s.hashPassword(ctx, in.Password)
	if err != nil {
		return nil, err
	}
	u := &store.User{Email: in.Email, Name: strings.TrimSpace(in.Name), PasswordHash: hash, IsAdmin: in.IsAdmin, CanCreateProjects: in.CanCreateProjects, Locale: in.Locale}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		return tx.Audit(ctx, "", actorID, "user.create", "user:"+u.ID, nil, UserViewOf(u))
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, ErrEmailTaken
	}
	if err != nil {
		return nil, err
	}
	return UserViewOf(u), nil
}

// SetCanCreateProjects grants or withdraws a user's permission to create projects.
func (s *Sessions) SetCanCreateProjects(ctx context.Context, actorID, userID string, can bool) (*UserView, error) {
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
	if err != nil {
		return nil, err
	}
	return UserViewOf(u), nil
}

// OwnSettings are the settings a user changes for themselves; a field left out keeps its value.
type OwnSettings struct {
	Locale *string `json:"locale"`
}

// UpdateOwnSettings changes the signed-in user's own settings.
func (s *Sessions) UpdateOwnSettings(ctx context.Context, userID string, in OwnSettings) (*UserView, error) {
	fe := tasks.FieldErrors{}
	if in.Locale != nil {
		checkLocale(fe, *in.Locale)
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	var u *store.User
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if in.Locale != nil {
			if err := tx.SetLocale(ctx, userID, *in.Locale); err != nil {
				return store.Missing(err, "user")
			}
		}
		var err error
		u, err = tx.User(ctx, userID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return UserViewOf(u), nil
}

// Users lists every account.
func (s *Sessions) Users(ctx context.Context) ([]UserView, error) {
	us, err := s.store.Users(ctx)
	return userViews(us), err
}

// NewToken asks for a personal access token.
type NewToken struct {
	Name          string   `json:"name"`
	Scopes        []string `json:"scopes"`
	ExpiresInDays int      `json:"expires_in_days"` // 0: never
}

// IssuedToken is a new personal access token; Token is shown this once.
type IssuedToken struct {
	TokenView
	Token string `json:"token"`
}

// IssueAccessToken creates a personal access token for the user, with the scopes asked for;
// only an administrator's token may have the admin scope.
func (s *Sessions) IssueAccessToken(ctx context.Context, u *store.User, in NewToken) (*IssuedToken, error) {
	fe := tasks.FieldErrors{}
	name := strings.TrimSpace(in.Name)
	if n := len(name); n == 0 || n > 100 {
		fe.Add("name", "invalid_length", "name must be 1 to 100 characters")
	}
	if in.ExpiresInDays < 0 || in.ExpiresInDays > 3650 {
		fe.Add("expires_in_days", "out_of_range", "expires_in_days must be 0 (never) to 3650")
	}
	scopes, err := checkScopes(in.Scopes, u.IsAdmin)
	var se tasks.FieldErrors
	if errors.As(err, &se) {
		for k, v := range se {
			fe[k] = v
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	var out *IssuedToken
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		token, pat, err := createAccessToken(ctx, tx, u.ID, name, scopes, time.Duration(in.ExpiresInDays)*24*time.Hour)
		if err != nil {
			return err
		}
		out = &IssuedToken{TokenView: tokenView(pat), Token: token}
		return tx.Audit(ctx, "", u.ID, "token.create", "token:"+pat.ID, nil, out.TokenView)
	})
	return out, err
}

// AccessTokens lists the user's personal access tokens (never their secrets).
func (s *Sessions) AccessTokens(ctx context.Context, userID string) ([]TokenView, error) {
	ts, err := s.store.AccessTokens(ctx, userID)
	return tokenViews(ts), err
}

// RevokeAccessToken revokes one of the user's tokens; other people's tokens do not exist.
func (s *Sessions) RevokeAccessToken(ctx context.Context, userID, id string) error {
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.RevokeAccessToken(ctx, userID, id); err != nil {
			return store.Missing(err, "token")
		}
		return tx.Audit(ctx, "", userID, "token.revoke", "token:"+id, nil, nil)
	})
}
