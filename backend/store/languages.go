package store

import (
	"context"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// readsItem is the SQL condition that the member of the item's project named by the SQL
// expression user reads the language of item i: the item has no language, the member named no
// languages, or one of theirs is the item's tag or a prefix of it ("zh" reads "zh-Hans"). It is
// the queue's form of tasks.ReadsLanguage.
func readsItem(user string) string {
	return fmt.Sprintf(`(i.language = ''
    OR NOT EXISTS (SELECT 1 FROM member_languages ml WHERE ml.project_id = i.project_id AND ml.user_id = %[1]s)
    OR EXISTS (SELECT 1 FROM member_languages ml WHERE ml.project_id = i.project_id AND ml.user_id = %[1]s
      AND (ml.language = i.language OR i.language LIKE (ml.language || '-%%'))))`, user)
}

// MemberLanguages returns the languages each member of a project reads, by user id; members
// who named none are absent.
func (s *Store) MemberLanguages(ctx context.Context, projectID string) (map[string][]string, error) {
	var rows []struct{ UserID, Language string }
	err := s.db.WithContext(ctx).Raw(`SELECT user_id, language FROM member_languages WHERE project_id = ? ORDER BY user_id, language`, projectID).
		Scan(&rows).Error
	out := map[string][]string{}
	for _, r := range rows {
		out[r.UserID] = append(out[r.UserID], r.Language)
	}
	return out, translate(err)
}

// SetMemberLanguages replaces the languages a member reads (canonical tags); none means every
// language.
func (s *Store) SetMemberLanguages(ctx context.Context, projectID, userID string, languages []string) error {
	db := s.db.WithContext(ctx)
	if err := db.Exec(`DELETE FROM member_languages WHERE project_id = ? AND user_id = ?`, projectID, userID).Error; err != nil {
		return translate(err)
	}
	for _, l := range languages {
		if err := db.Exec(`INSERT INTO member_languages (project_id, user_id, language) VALUES (?, ?, ?)`, projectID, userID, l).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// LanguageStuck is waiting work in one language that no member with the stage's role reads.
type LanguageStuck struct {
	Language string
	Count    int64
}

// ItemLanguages returns the languages of a project's items that still wait for work (in a
// work stage, or with their criteria under review), sorted.
func (s *Store) ItemLanguages(ctx context.Context, projectID string) ([]string, error) {
	stages := append([]flow.Stage{flow.StageCriteriaReview}, flow.WorkStages...)
	var out []string
	err := s.db.WithContext(ctx).Raw(`SELECT DISTINCT language FROM items WHERE project_id = ? AND stage IN ? AND language <> '' ORDER BY language`,
		projectID, stages).Scan(&out).Error
	return out, translate(err)
}
