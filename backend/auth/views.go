package auth

import (
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// UserView is an account as responses show it: never its password hash or session generation.
type UserView struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	// IsAdmin: administrators manage accounts and see every project.
	IsAdmin bool `json:"is_admin"`
	// CanCreateProjects is granted by administrators (who can always create projects).
	CanCreateProjects bool `json:"can_create_projects"`
	Disabled          bool `json:"disabled"`
	// Locale is the language of the user's interface: "en", "zh-CN", or empty when not chosen.
	Locale    string    `json:"locale"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// UserViewOf is the view of an account.
func UserViewOf(u *store.User) *UserView {
	return &UserView{ID: u.ID, Email: u.Email, Name: u.Name, IsAdmin: u.IsAdmin, CanCreateProjects: u.CanCreateProjects,
		Disabled: u.Disabled, Locale: u.Locale, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}
}

func userViews(us []store.User) []UserView {
	if us == nil {
		return nil
	}
	out := make([]UserView, len(us))
	for i := range us {
		out[i] = *UserViewOf(&us[i])
	}
	return out
}

// TokenView is a personal access token as its owner sees it: never its hash, its owner or
// when it was revoked (a revoked token is not listed).
type TokenView struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	Scopes     []string   `json:"scopes"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	CreatedAt  time.Time  `json:"created_at"`
}

func tokenView(t *store.PersonalAccessToken) TokenView {
	return TokenView{ID: t.ID, Name: t.Name, Prefix: t.Prefix, Scopes: t.Scopes, ExpiresAt: t.ExpiresAt,
		LastUsedAt: t.LastUsedAt, CreatedAt: t.CreatedAt}
}

func tokenViews(ts []store.PersonalAccessToken) []TokenView {
	if ts == nil {
		return nil
	}
	out := make([]TokenView, len(ts))
	for i := range ts {
		out[i] = tokenView(&ts[i])
	}
	return out
}
