package tasks

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/language"
)

// CodeInvalidLanguage is the code of a language tag that is not well-formed BCP 47.
const CodeInvalidLanguage = "invalid_language"

// CanonicalLanguage parses a BCP 47 language tag and returns its canonical form ("EN-us" is
// "en-US", "zh-hans" is "zh-Hans"), or an error for a tag that is not well-formed.
func CanonicalLanguage(tag string) (string, error) {
	t, err := language.Parse(strings.TrimSpace(tag))
	if err != nil || t == language.Und {
		return "", Field("language", CodeInvalidLanguage, "%q is not a BCP 47 language tag (e.g. en, en-US, zh-Hans)", tag)
	}
	return t.String(), nil
}

// CanonicalLanguages canonicalises a list of tags, sorted and without repeats; a bad tag is an
// error at field[i].
func CanonicalLanguages(field string, tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	fe := FieldErrors{}
	for i, tag := range tags {
		c, err := CanonicalLanguage(tag)
		if err != nil {
			fe.add(fmt.Sprintf("%s[%d]", field, i), CodeInvalidLanguage, "%q is not a BCP 47 language tag (e.g. en, en-US, zh-Hans)", tag)
			continue
		}
		out = append(out, c)
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// ReadsLanguage reports whether someone who reads the languages in reads can work on an item
// in language item: always when the item has no language or the reader named none, otherwise
// when one of their tags is the item's or a prefix of it ("zh" reads "zh-Hans-CN"). The queue
// applies the same rule in SQL.
func ReadsLanguage(reads []string, item string) bool {
	if item == "" || len(reads) == 0 {
		return true
	}
	return slices.ContainsFunc(reads, func(l string) bool { return LanguageCovers(l, item) })
}

// LanguageCovers reports whether tag covers item: the same tag, or a prefix of it ending at a
// subtag boundary.
func LanguageCovers(tag, item string) bool {
	return item == tag || strings.HasPrefix(item, tag+"-")
}
