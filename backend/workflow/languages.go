package workflow

import (
	"context"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// itemLanguage checks an imported item's language tag and returns its canonical form: a
// well-formed BCP 47 tag, and when the project names its languages, one of them (or a more
// specific tag under one); such a project refuses items without a language.
func (p *Project) itemLanguage(tag string) (string, error) {
	want := p.Policy.Languages
	if strings.TrimSpace(tag) == "" {
		if len(want) > 0 {
			return "", tasks.Field("language", "required", "this project takes items in %s only; give the item's language", strings.Join(want, ", "))
		}
		return "", nil
	}
	lang, err := tasks.CanonicalLanguage(tag)
	if err != nil {
		return "", err
	}
	if len(want) > 0 && !tasks.ReadsLanguage(want, lang) {
		return "", tasks.Field("language", "language_not_allowed", "%s is not a language of this project (%s)", lang, strings.Join(want, ", "))
	}
	return lang, nil
}

// setMemberLanguages replaces the languages a member reads (canonical tags; none means every
// language) and audits the change.
func setMemberLanguages(ctx context.Context, tx *store.Store, actorID, projectID, userID string, langs []string) error {
	before, err := tx.MemberLanguages(ctx, projectID)
	if err != nil {
		return err
	}
	if err := tx.SetMemberLanguages(ctx, projectID, userID, langs); err != nil {
		return err
	}
	return tx.Audit(ctx, projectID, actorID, "member.languages", "user:"+userID, nonNil(before[userID]), nonNil(langs))
}
