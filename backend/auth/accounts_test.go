package auth

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// fieldCodes are the codes of err's field errors by path; nil when err has none.
func fieldCodes(err error) map[string]string {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return nil
	}
	out := map[string]string{}
	for k, v := range fe {
		out[k] = v.Code
	}
	return out
}

// audited lists the actions recorded on a target, oldest first.
func audited(t *testing.T, s *Sessions, target string) []string {
	t.Helper()
	q := "SELECT action FROM audit_events WHERE target = ? ORDER BY created_at, id"
	if s.store.Dialect() == store.Postgres {
		q = strings.Replace(q, "?", "$1", 1)
	}
	rows, err := s.store.SQL().Query(q, target)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		rows.Scan(&a)
		out = append(out, a)
	}
	return out
}

func TestCreateUser(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		admin := addUser(t, s, "root@example.org", true)
		bad := []struct {
			in   NewUser
			want map[string]string
		}{
			{NewUser{Email: "Ana <ana@example.org>", Name: "Ana", Password: "a long enough pass"}, map[string]string{"email": "invalid_email"}},
			{NewUser{Email: "ana", Name: " ", Password: "short"}, map[string]string{"email": "invalid_email", "name": "invalid_length", "password": "too_short"}},
			{NewUser{Email: "ana@example.org", Name: strings.Repeat("a", 201), Password: "ana@example.org"}, map[string]string{"name": "invalid_length", "password": "too_common"}},
		}
		for _, c := range bad {
			_, err := s.CreateUser(ctx, admin.ID, c.in)
			if got := fieldCodes(err); !maps.Equal(got, c.want) {
				t.Errorf("CreateUser(%+v) = %v, want %v", c.in, got, c.want)
			}
		}
		u, err := s.CreateUser(ctx, admin.ID, NewUser{Email: "Ana@Example.org", Name: "  Ana Lopez ", Password: "a long enough pass", CanCreateProjects: true})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := s.store.User(ctx, u.ID)
		if err != nil || u.Email != "ana@example.org" || u.Name != "Ana Lopez" || u.IsAdmin || !u.CanCreateProjects || CheckPassword(stored.PasswordHash, "a long enough pass") != nil {
			t.Fatalf("created %+v", u)
		}
		if _, err := s.Login(ctx, "ana@example.org", "a long enough pass", "10.0.0.1"); err != nil {
			t.Fatalf("the new account cannot log in: %v", err)
		}
		if _, err := s.CreateUser(ctx, admin.ID, NewUser{Email: "ANA@example.org", Name: "Other", Password: "another long pass"}); !errors.Is(err, ErrEmailTaken) {
			t.Fatalf("second account with the email: %v", err)
		}
		if got := audited(t, s, "user:"+u.ID); !slices.Equal(got, []string{"user.create"}) {
			t.Fatalf("audit %v", got)
		}

		u, err = s.SetCanCreateProjects(ctx, admin.ID, u.ID, false)
		if err != nil || u.CanCreateProjects {
			t.Fatalf("withdrawn: %+v, %v", u, err)
		}
		var nf *store.NotFoundError
		if _, err := s.SetCanCreateProjects(ctx, admin.ID, "no-such-user", true); !errors.As(err, &nf) {
			t.Fatalf("unknown user: %v", err)
		}
		users, err := s.Users(ctx)
		if err != nil || len(users) != 2 || users[0].Email != "ana@example.org" {
			t.Fatalf("users %+v, %v", users, err)
		}
	})
}

// TestChangePassword: the current password is checked (and its wrong guesses throttled), the
// new one follows the rules, and the change ends every other session and token.
func TestChangePassword(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		old := login(t, s, ana.Email)
		pat, err := s.IssueAccessToken(ctx, ana, NewToken{Name: "ci", Scopes: []string{"read"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			in   PasswordChange
			want map[string]string
		}{
			{PasswordChange{"wrong one", "a brand new password"}, map[string]string{"current_password": "wrong_password"}},
			{PasswordChange{testPassword, "ana12345"}, map[string]string{"new_password": "too_short"}},
			{PasswordChange{testPassword, "ana@example.org!"}, map[string]string{"new_password": "too_common"}},
		} {
			_, err := s.ChangePassword(ctx, ana, "10.0.0.1", c.in)
			if got := fieldCodes(err); !maps.Equal(got, c.want) {
				t.Errorf("ChangePassword(%+v) = %v, want %v", c.in, err, c.want)
			}
		}
		if f, _ := s.store.LoginFailures(ctx, "acct:ana@example.org", time.Hour); f.Count != 1 {
			t.Fatalf("a wrong current password counted %d failures, want 1", f.Count)
		}

		pair, err := s.ChangePassword(ctx, ana, "10.0.0.1", PasswordChange{testPassword, "a brand new password"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, pair.AccessToken); err != nil {
			t.Fatalf("the session the change hands back: %v", err)
		}
		if _, err := s.Authenticate(ctx, old.AccessToken); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("an access token from before the change: %v", err)
		}
		if _, err := s.Refresh(ctx, old.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("a refresh token from before the change: %v", err)
		}
		if _, err := s.Authenticate(ctx, pat.Token); err != nil {
			t.Fatalf("a personal access token must outlive a password change (only disabling ends it): %v", err)
		}
		if _, err := s.Login(ctx, ana.Email, testPassword, "10.0.0.2"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("the old password after the change: %v", err)
		}
		if _, err := s.Login(ctx, ana.Email, "a brand new password", "10.0.0.3"); err != nil {
			t.Fatalf("the new password: %v", err)
		}
		if got := audited(t, s, "user:"+ana.ID); !slices.Equal(got, []string{"user.password_change"}) {
			t.Fatalf("audit %v", got)
		}
	})
}

// TestPasswordReset: a link works once, a newer one replaces it, a refused password leaves it
// usable, and using it ends every session; until then the old password keeps working.
func TestPasswordReset(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		admin := addUser(t, s, "root@example.org", true)
		ana := addUser(t, s, "ana@example.org", false)
		session := login(t, s, ana.Email)

		first, err := s.IssuePasswordReset(ctx, admin.ID, ana.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(first.Token, ResetTokenPrefix) || first.Path != "/reset-password#token="+first.Token ||
			time.Until(first.ExpiresAt) < ResetLinkTTL-time.Minute || time.Until(first.ExpiresAt) > ResetLinkTTL {
			t.Fatalf("link %+v", first)
		}
		second, err := s.IssuePasswordReset(ctx, admin.ID, ana.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ResetPassword(ctx, PasswordReset{first.Token, "a brand new password"}); !errors.Is(err, ErrResetInvalid) {
			t.Fatalf("a replaced link: %v", err)
		}
		if err := s.ResetPassword(ctx, PasswordReset{second.Token, "short"}); fieldCodes(err)["new_password"] != "too_short" {
			t.Fatalf("a refused password: %v", err)
		}
		if _, err := s.Login(ctx, ana.Email, testPassword, "10.0.0.1"); err != nil {
			t.Fatalf("the old password before the link is used: %v", err)
		}
		if err := s.ResetPassword(ctx, PasswordReset{second.Token, "a brand new password"}); err != nil {
			t.Fatalf("the link after a refused password: %v", err)
		}
		if err := s.ResetPassword(ctx, PasswordReset{second.Token, "yet another password"}); !errors.Is(err, ErrResetInvalid) {
			t.Fatalf("a used link: %v", err)
		}
		if err := s.ResetPassword(ctx, PasswordReset{"arb_reset_unknown", "yet another password"}); !errors.Is(err, ErrResetInvalid) {
			t.Fatalf("an unknown link: %v", err)
		}
		if _, err := s.Refresh(ctx, session.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("a session from before the reset: %v", err)
		}
		if _, err := s.Login(ctx, ana.Email, "a brand new password", "10.0.0.1"); err != nil {
			t.Fatalf("the password set by the link: %v", err)
		}
		var nf *store.NotFoundError
		if _, err := s.IssuePasswordReset(ctx, admin.ID, "no-such-user"); !errors.As(err, &nf) {
			t.Fatalf("a link for nobody: %v", err)
		}
		want := []string{"user.password_reset_issue", "user.password_reset_issue", "user.password_reset"}
		if got := audited(t, s, "user:"+ana.ID); !slices.Equal(got, want) {
			t.Fatalf("audit %v, want %v", got, want)
		}
	})
}

// TestSetDisabled: disabling ends every session and token at once and refuses logins;
// re-enabling gives none of them back; nobody disables themselves.
func TestSetDisabled(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		admin := addUser(t, s, "root@example.org", true)
		ana := addUser(t, s, "ana@example.org", false)
		session := login(t, s, ana.Email)
		pat, err := s.IssueAccessToken(ctx, ana, NewToken{Name: "ci", Scopes: []string{"read"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetDisabled(ctx, admin.ID, admin.ID, true); !errors.Is(err, ErrOwnAccount) {
			t.Fatalf("disabling oneself: %v", err)
		}
		u, err := s.SetDisabled(ctx, admin.ID, ana.ID, true)
		if err != nil || !u.Disabled {
			t.Fatalf("disabled: %+v, %v", u, err)
		}
		if _, err := s.Login(ctx, ana.Email, testPassword, "10.0.0.1"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("login while disabled: %v", err)
		}
		if u, err = s.SetDisabled(ctx, admin.ID, ana.ID, false); err != nil || u.Disabled {
			t.Fatalf("enabled: %+v, %v", u, err)
		}
		for name, token := range map[string]string{"access token": session.AccessToken, "personal access token": pat.Token} {
			if _, err := s.Authenticate(ctx, token); !errors.Is(err, ErrUnauthenticated) {
				t.Errorf("%s from before the disable: %v", name, err)
			}
		}
		if _, err := s.Refresh(ctx, session.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("refresh token from before the disable: %v", err)
		}
		login(t, s, ana.Email)
		var nf *store.NotFoundError
		if _, err := s.SetDisabled(ctx, admin.ID, "no-such-user", true); !errors.As(err, &nf) {
			t.Fatalf("disabling nobody: %v", err)
		}
		if got := audited(t, s, "user:"+ana.ID); !slices.Equal(got, []string{"user.disable", "user.enable"}) {
			t.Fatalf("audit %v", got)
		}
	})
}
