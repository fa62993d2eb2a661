package projects_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

var (
	annotator = []store.Role{store.RoleAnnotator}
	reviewer  = []store.Role{store.RoleReviewer}
	none      = []store.Role{}
)

// TestSetMember: a lead invites people who are not members by email, with the same answer
// whether or not the email has an account; changes a member's roles at once; removes with no
// roles. An administrator adds anyone at once. Bad roles are refused by their index.
func TestSetMember(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{})
			ann, rev := f.user("ann@example.org"), f.user("rev@example.org")
			set := func(actor *store.User, ref string, roles []store.Role) *projects.MemberResult {
				t.Helper()
				r, err := f.prj.SetMember(f.ctx, actor, p.ID, ref, roles)
				if err != nil {
					t.Fatalf("set %s %v: %v", ref, roles, err)
				}
				return r
			}
			known, unknown := set(f.lead, "Ann@Example.org", []store.Role{store.RoleAnnotator, store.RoleAnnotator}), set(f.lead, "nobody@example.org", annotator)
			if known.Status != projects.MemberInvited || known.UserID != "" || known.Email != "ann@example.org" || !slices.Equal(known.Roles, store.RoleSet(annotator)) ||
				unknown.Status != known.Status || unknown.UserID != "" {
				t.Fatalf("invitations: %+v, %+v", known, unknown)
			}
			if f.roles(p, ann) != nil || !f.audited(p.ID, "member.invite") {
				t.Fatal("an invitation made a member, or was not audited")
			}
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, ann.ID, annotator); fieldCode(err, "uid") != "invite_by_email" {
				t.Fatalf("a non-member by id: %v", err)
			}
			if r := set(f.lead, "nobody@example.org", none); r.Status != projects.MemberRemoved || !f.audited(p.ID, "member.uninvite") {
				t.Fatalf("withdrawing an invitation: %+v", r)
			}
			if invs, _ := f.prj.Invitations(f.ctx, p.ID); len(invs) != 1 || invs[0].Email != "ann@example.org" {
				t.Fatalf("open invitations: %+v", invs)
			}
			if r := set(f.admin, rev.Email, reviewer); r.Status != projects.MemberAdded || r.UserID != rev.ID || !slices.Equal(f.roles(p, rev), store.RoleSet(reviewer)) {
				t.Fatalf("an administrator adds: %+v", r)
			}
			if r := set(f.lead, rev.ID, []store.Role{store.RoleAdjudicator, store.RoleReviewer}); r.Status != projects.MemberAdded ||
				!slices.Equal(f.roles(p, rev), store.RoleSet{store.RoleReviewer, store.RoleAdjudicator}) {
				t.Fatalf("a member's roles changed: %+v %v", r, f.roles(p, rev))
			}
			if r := set(f.lead, rev.Email, none); r.Status != projects.MemberRemoved || f.roles(p, rev) != nil {
				t.Fatalf("a member removed: %+v", r)
			}
			if _, err := f.prj.SetMember(f.ctx, f.admin, p.ID, "ghost-id", annotator); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("an administrator adds an unknown id: %v", err)
			}
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, rev.Email, []store.Role{store.RoleAnnotator, "boss"}); fieldCode(err, "roles[1]") != "unknown_role" {
				t.Fatalf("an unknown role: %v", err)
			}
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, rev.Email, nil); fieldCode(err, "roles") != "required" {
				t.Fatalf("no roles at all: %v", err)
			}
		})
	}
}

// TestLastLead: a project never loses its last lead; with two, one may step down.
func TestLastLead(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{})
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, f.lead.ID, annotator); !errors.Is(err, projects.ErrLastLead) {
				t.Fatalf("the last lead steps down: %v", err)
			}
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, f.lead.ID, none); !errors.Is(err, projects.ErrLastLead) {
				t.Fatalf("the last lead leaves: %v", err)
			}
			other := f.user("other@example.org")
			f.member(p, other, store.RoleLead)
			if _, err := f.prj.SetMember(f.ctx, other, p.ID, f.lead.ID, annotator); err != nil {
				t.Fatalf("one of two leads steps down: %v", err)
			}
			if _, err := f.prj.SetMember(f.ctx, other, p.ID, other.ID, none); !errors.Is(err, projects.ErrLastLead) {
				t.Fatalf("the remaining lead leaves: %v", err)
			}
			if !slices.Equal(f.roles(p, other), store.RoleSet{store.RoleLead}) || !slices.Equal(f.roles(p, f.lead), store.RoleSet(annotator)) {
				t.Fatalf("roles after: %v %v", f.roles(p, other), f.roles(p, f.lead))
			}
		})
	}
}

// TestRoleLossExpiresOpenWork: a member who loses a role gives back the open work of its
// stages at once, audited; work of roles they keep stays theirs.
func TestRoleLossExpiresOpenWork(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{})
			f.importItems(p, "a", "b")
			ann := f.user("ann@example.org")
			f.member(p, ann, store.RoleAnnotator, store.RoleReviewer)
			held := f.claim(p, ann, flow.StageLabel)
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, ann.ID, []store.Role{store.RoleAnnotator, store.RoleAdjudicator}); err != nil {
				t.Fatal(err)
			}
			if a, _ := f.st.Assignment(f.ctx, held.ID); a.Status != flow.AssignActive {
				t.Fatalf("work of a kept role: %s", a.Status)
			}
			if _, err := f.prj.SetMember(f.ctx, f.lead, p.ID, ann.ID, reviewer); err != nil {
				t.Fatal(err)
			}
			if a, _ := f.st.Assignment(f.ctx, held.ID); a.Status != flow.AssignExpired || !f.audited(p.ID, "assignment.release_on_role_change") {
				t.Fatalf("work of a lost role: %s", a.Status)
			}
		})
	}
}

// TestInvitations: the invited person sees their invitation and joins with its roles (added
// to any they hold) on accepting, or declines it; nobody answers another's invitation.
func TestInvitations(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p, q := f.ratings(workflow.Policy{}), f.ratings(workflow.Policy{})
			ann, other := f.user("ann@example.org"), f.user("other@example.org")
			for _, pid := range []string{p.ID, q.ID} {
				if _, err := f.prj.SetMember(f.ctx, f.lead, pid, "ANN@example.org", reviewer); err != nil {
					t.Fatal(err)
				}
			}
			f.member(p, ann, store.RoleViewer) // note: an administrator added them meanwhile
			mine, err := f.prj.MyInvitations(f.ctx, ann)
			if err != nil || len(mine) != 2 || !slices.Equal(mine[0].Roles, store.RoleSet(reviewer)) || mine[0].ProjectName != "ratings" {
				t.Fatalf("my invitations: %v %+v", err, mine)
			}
			byProject := map[string]string{mine[0].ProjectID: mine[0].ID, mine[1].ProjectID: mine[1].ID}
			if err := f.prj.AnswerInvitation(f.ctx, other, byProject[p.ID], true); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("someone else accepts: %v", err)
			}
			if err := f.prj.AnswerInvitation(f.ctx, ann, "no-such-invitation", true); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("an unknown invitation: %v", err)
			}
			if err := f.prj.AnswerInvitation(f.ctx, ann, byProject[p.ID], true); err != nil {
				t.Fatal(err)
			}
			if got := f.roles(p, ann); !slices.Equal(got, store.RoleSet{store.RoleReviewer, store.RoleViewer}) || !f.audited(p.ID, "member.accept") {
				t.Fatalf("roles after accepting: %v", got)
			}
			if err := f.prj.AnswerInvitation(f.ctx, ann, byProject[q.ID], false); err != nil {
				t.Fatal(err)
			}
			if f.roles(q, ann) != nil || !f.audited(q.ID, "member.decline") {
				t.Fatal("declining made a member")
			}
			if left, _ := f.prj.MyInvitations(f.ctx, ann); len(left) != 0 {
				t.Fatalf("answered invitations are still open: %+v", left)
			}
			if err := f.prj.AnswerInvitation(f.ctx, ann, byProject[p.ID], true); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("accepting twice: %v", err)
			}
		})
	}
}

// TestChangeMember: a lead pauses and unpauses a member, qualifies them and names the
// languages they read, alone or with new roles; only members can be changed so, and a change
// that names nothing is refused.
func TestChangeMember(t *testing.T) {
	for _, be := range testenv.Backends() {
		t.Run(be.Name, func(t *testing.T) {
			f := newFixture(t, be.Open(t))
			p := f.ratings(workflow.Policy{})
			ann := f.user("ann@example.org")
			f.member(p, ann, store.RoleAnnotator)
			yes, no := true, false
			change := func(ref string, c projects.MemberChange) (*projects.MemberResult, error) {
				return f.prj.ChangeMember(f.ctx, f.lead, p.ID, ref, c)
			}
			langs := []string{"EN", "pt-br"}
			r, err := change(ann.ID, projects.MemberChange{Paused: &yes, Qualified: &yes, Languages: &langs})
			if err != nil || r.Status != projects.MemberUpdated || !*r.Paused || !*r.Qualified || !slices.Equal(r.Languages, []string{"en", "pt-BR"}) {
				t.Fatalf("pause, qualify and languages: %v %+v", err, r)
			}
			if !f.audited(p.ID, "member.pause") || !f.audited(p.ID, "member.languages") || !f.audited(p.ID, "member.qualify") {
				t.Error("the changes were not audited")
			}
			ms, err := f.prj.Members(f.ctx, p.ID)
			i := slices.IndexFunc(ms, func(m projects.MemberView) bool { return m.UserID == ann.ID })
			if err != nil || i < 0 || !ms[i].Paused || !ms[i].Qualified || !slices.Equal(ms[i].Languages, []string{"en", "pt-BR"}) {
				t.Fatalf("members: %v %+v", err, ms)
			}
			both := []store.Role{store.RoleAnnotator, store.RoleReviewer}
			r, err = change(ann.Email, projects.MemberChange{Roles: &both, Paused: &no})
			if err != nil || r.Status != projects.MemberAdded || *r.Paused || !slices.Equal(r.Roles, store.RoleSet(both)) || !f.audited(p.ID, "member.unpause") {
				t.Fatalf("roles and a lifted pause: %v %+v", err, r)
			}
			r, err = change(ann.ID, projects.MemberChange{Roles: &reviewer})
			if err != nil || r.Status != projects.MemberAdded || r.Paused == nil || *r.Paused || r.Qualified == nil || !*r.Qualified {
				t.Fatalf("roles alone: %v %+v", err, r)
			}
			if r, err := change("new@example.org", projects.MemberChange{Roles: &reviewer}); err != nil || r.Status != projects.MemberInvited || r.Paused != nil {
				t.Fatalf("roles of a non-member: %v %+v", err, r)
			}
			bad := []string{"not a tag!"}
			refused := []struct {
				name, ref   string
				c           projects.MemberChange
				field, code string
			}{
				{"nothing", ann.ID, projects.MemberChange{}, "roles", "required"},
				{"a bad language", ann.ID, projects.MemberChange{Languages: &bad}, "languages[0]", "invalid_language"},
				{"pausing a non-member", "new@example.org", projects.MemberChange{Paused: &yes}, "paused", "not_a_member"},
				{"qualifying a non-member", "new@example.org", projects.MemberChange{Qualified: &yes}, "qualified", "not_member"},
				{"languages of a non-member", "new@example.org", projects.MemberChange{Languages: &langs}, "languages", "not_member"},
				{"pausing someone who leaves", ann.ID, projects.MemberChange{Roles: &none, Paused: &yes}, "paused", "not_a_member"},
				{"a bad role with a pause", ann.ID, projects.MemberChange{Roles: &[]store.Role{"boss"}, Paused: &yes}, "roles[0]", "unknown_role"},
			}
			for _, tc := range refused {
				if _, err := change(tc.ref, tc.c); fieldCode(err, tc.field) != tc.code {
					t.Errorf("%s: %v", tc.name, err)
				}
			}
		})
	}
}

// TestMembersAsHidesOthersEmails: leads and viewers read every member's email; the people who do
// the work read only their own, with everyone's names and roles.
func TestMembersAsHidesOthersEmails(t *testing.T) {
	f := newFixture(t, testenv.SQLite(t))
	p := f.ratings(workflow.Policy{})
	ann, rev := f.user("ann@example.org"), f.user("rev@example.org")
	f.member(p, ann, store.RoleAnnotator)
	f.member(p, rev, store.RoleReviewer, store.RoleViewer)
	for _, tc := range []struct {
		who    *store.User
		roles  store.RoleSet
		emails int
	}{{f.lead, store.RoleSet{store.RoleLead}, 3}, {ann, store.RoleSet{store.RoleAnnotator}, 1}, {rev, store.RoleSet{store.RoleReviewer}, 1}, {rev, store.RoleSet{store.RoleReviewer, store.RoleViewer}, 3}} {
		ms, err := f.prj.MembersAs(f.ctx, p.ID, tc.who.ID, tc.roles)
		if err != nil || len(ms) != 3 {
			t.Fatalf("%s: %v %v", tc.who.Email, ms, err)
		}
		seen := 0
		for _, m := range ms {
			if m.Email != "" {
				seen++
				if m.UserID != tc.who.ID && tc.emails == 1 {
					t.Errorf("%s reads %s's email", tc.who.Email, m.Email)
				}
			}
			if m.Name == "" || len(m.Roles) == 0 {
				t.Errorf("%s reads a member without name or roles: %+v", tc.who.Email, m)
			}
		}
		if seen != tc.emails {
			t.Errorf("%s reads %d emails, want %d", tc.who.Email, seen, tc.emails)
		}
	}
}
