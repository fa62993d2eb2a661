package workflow

import (
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// ItemLanguage checks an imported item's language tag and returns its canonical form: a
// well-formed BCP 47 tag, and when the project names its languages, one of them (or a more
// specific tag under one); such a project refuses items without a language.
func (p *Project) ItemLanguage(tag string) (string, error) {
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
