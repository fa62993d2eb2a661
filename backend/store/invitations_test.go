package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestInvitations(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, co := f.user("lead"), f.user("co")
		p, q, archived := f.project(lead), f.project(lead), f.project(lead)
		email := unique("guest") + "@example.org"
		invite := func(p *store.Project, by *store.User, roles ...store.Role) *store.Invitation {
			inv := &store.Invitation{ProjectID: p.ID, Email: " " + strings.ToUpper(email) + " ", Roles: roles, InvitedBy: by.ID}
			must(t, f.s.PutInvitation(f.ctx, inv))
			return inv
		}
		first := invite(p, lead, store.RoleAnnotator)
		invite(p, co, store.RoleReviewer) // replaces the roles of the open invitation
		invite(q, lead, store.RoleViewer)
		invite(archived, lead, store.RoleViewer)
		must(t, f.s.SetProjectArchived(f.ctx, archived.ID, new(time.Now().UTC())))

		got, err := f.s.Invitation(f.ctx, first.ID)
		if err != nil || got.Email != email || len(got.Roles) != 1 || got.Roles[0] != store.RoleReviewer || got.InvitedBy != co.ID {
			t.Fatalf("invitation after its roles were replaced %+v, %v", got, err)
		}
		open, err := f.s.ProjectInvitations(f.ctx, p.ID)
		must(t, err)
		if len(open) != 1 {
			t.Fatalf("open invitations of the project %+v", open)
		}
		mine, err := f.s.InvitationsFor(f.ctx, strings.ToUpper(email))
		must(t, err)
		if len(mine) != 2 || mine[0].ProjectID != p.ID || mine[0].ProjectName != p.Name || mine[0].InvitedBy != "co" ||
			mine[1].ProjectID != q.ID || mine[1].Roles[0] != store.RoleViewer {
			t.Fatalf("invitations of the invitee (archived projects left out) %+v", mine)
		}

		must(t, f.s.DeleteInvitationOf(f.ctx, q.ID, strings.ToUpper(email)))
		must(t, f.s.DeleteInvitation(f.ctx, first.ID))
		if _, err := f.s.Invitation(f.ctx, first.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a deleted invitation: %v", err)
		}
		if mine, _ := f.s.InvitationsFor(f.ctx, email); len(mine) != 0 {
			t.Fatalf("invitations left %+v", mine)
		}
		must(t, f.s.DeleteInvitationOf(f.ctx, q.ID, email)) // none left: not an error
	})
}
