package store_test

import (
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestMemberLanguages(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, a, b := f.user("lead"), f.user("a"), f.user("b")
		p, other := f.project(lead), f.project(lead)
		for _, u := range []*store.User{a, b} {
			f.member(p, u, store.RoleAnnotator)
			f.member(other, u, store.RoleAnnotator)
		}
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, a.ID, []string{"fr", "de"}))
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, b.ID, []string{"en"}))
		must(t, f.s.SetMemberLanguages(f.ctx, other.ID, a.ID, []string{"ja"}))
		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, a.ID, []string{"zh", "de"})) // replaces
		got, err := f.s.MemberLanguages(f.ctx, p.ID)
		must(t, err)
		equal(t, "languages", got, map[string][]string{a.ID: {"de", "zh"}, b.ID: {"en"}})

		must(t, f.s.SetMemberLanguages(f.ctx, p.ID, b.ID, nil)) // every language
		must(t, f.s.SetMember(f.ctx, p.ID, a.ID, nil))          // leaving the project forgets them
		got, err = f.s.MemberLanguages(f.ctx, p.ID)
		must(t, err)
		equal(t, "languages after changes", got, map[string][]string{})
		if err := f.s.SetMemberLanguages(f.ctx, p.ID, a.ID, []string{"en"}); err == nil {
			t.Fatal("languages of someone who is not a member were stored")
		}
		got, err = f.s.MemberLanguages(f.ctx, other.ID)
		must(t, err)
		equal(t, "another project's languages", got, map[string][]string{a.ID: {"ja"}})
	})
}
