package releases

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
)

// header is what exports needs besides the records: the project, its schema and policy, the
// figures the dataset card reports, and the pseudonym salt. The manifest's creation time is
// the release's, so that the same release always describes itself the same way.
func (s *Service) header(ctx context.Context, fp *workflow.Project, r *store.Release) (*exports.Release, error) {
	salt, err := s.salt(ctx, fp.ID)
	if err != nil {
		return nil, err
	}
	figs, err := s.figures(ctx, fp, salt)
	if err != nil {
		return nil, err
	}
	policy, err := json.Marshal(fp.Policy)
	if err != nil {
		return nil, err
	}
	criteria, err := s.criteriaQC(ctx, fp)
	if err != nil {
		return nil, err
	}
	return &exports.Release{
		Name:    r.Name,
		Project: exports.Project{ID: fp.ID, Name: fp.Name, Description: fp.Description},
		Schema:  *fp.Schema, Template: fp.Template, Policy: policy, PolicySummary: policySummary(fp.Policy),
		Figures: figs, Criteria: criteria, CreatedAt: r.CreatedAt, ArbiterVersion: s.version, Salt: salt,
	}, nil
}

// criteriaQC counts a criteria stage's criteria for the tally: written, kept (each became a
// unit), awaiting review, and removed by verdict. Nil for a project without a criteria stage.
func (s *Service) criteriaQC(ctx context.Context, fp *workflow.Project) (*exports.CriteriaQC, error) {
	if fp.Policy.CriteriaStage == nil {
		return nil, nil
	}
	counts, err := s.store.CriteriaCounts(ctx, fp.ID)
	if err != nil {
		return nil, err
	}
	q := &exports.CriteriaQC{}
	removed := map[flow.CriterionStatus]int64{}
	for _, c := range counts {
		q.Written += c.N
		switch c.Status {
		case flow.CriterionValid:
			q.Valid += c.N
		case flow.CriterionPending:
			q.Pending += c.N
		default:
			removed[c.Status] += c.N
		}
	}
	for _, v := range flow.CriterionVerdicts {
		if n := removed[v]; n > 0 {
			q.Removed = append(q.Removed, exports.Loss{Kind: exports.LossCriteriaQC, Reason: string(v), Items: n})
		}
	}
	return q, nil
}

// pseudonymKey names the server secret that the per-project pseudonym salts derive from.
const pseudonymKey = "release_pseudonym_key"

// salt is the project's pseudonym salt: HMAC-SHA256 of the project id under a secret kept in
// the database (made once, shared by every replica). It is the same for every release of a
// project, so a release is reproducible byte for byte, and differs between projects, so
// pseudonyms cannot be joined across them.
func (s *Service) salt(ctx context.Context, projectID string) ([]byte, error) {
	key, err := s.secret(ctx, pseudonymKey)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("release pseudonyms\x00" + projectID))
	return mac.Sum(nil), nil
}

// figures counts the project's annotation for the dataset card. Labels, annotators and review
// verdicts are the dataset report's (GET .../report), counted by the database under the rules
// the report reads them by (insight.CountLabels), so the card and the Report page give the same
// numbers without a pass over every label before the release's stream starts; the people of the later stages and the
// adjudications come from the work per stage. Items are not figures: the card counts them
// from the release's tally, which reads every item.
func (s *Service) figures(ctx context.Context, fp *workflow.Project, salt []byte) (exports.Figures, error) {
	f := exports.Figures{Overlap: fp.Policy.Overlap, Reviews: map[string]int{}}
	rep, err := s.insight.CountLabels(ctx, fp.ID)
	if err != nil {
		return f, err
	}
	f.Labels, f.Annotators = int(rep.Labels), int(rep.Annotators)
	for _, v := range rep.Reviews {
		f.Reviews[v.Value] = int(v.Count)
	}
	work, err := s.store.StageWork(ctx, fp.ID)
	if err != nil {
		return f, err
	}
	for _, w := range work {
		switch w.Stage {
		case flow.StageReview:
			f.Reviewers = int(w.People)
		case flow.StageAdjudicate:
			f.Adjudicators, f.Adjudications = int(w.People), int(w.Submitted)
		}
	}
	f.Agreement, f.AgreementScope, err = s.projectAgreement(ctx, fp, salt)
	return f, err
}

// policySummary describes the workflow in a sentence for the dataset card.
func policySummary(p workflow.Policy) string {
	var parts []string
	if p.CriteriaStage != nil {
		parts = append(parts, "annotators first wrote evaluation criteria, which were reviewed before labeling")
	}
	label := fmt.Sprintf("%d independent labels per item", p.Overlap)
	if p.Overlap == 1 {
		label = "one label per item"
	}
	parts = append(parts, label)
	if p.Review == workflow.ReviewCross {
		review := "every label cross-reviewed by another person"
		if p.BlindReview {
			review += " who answered blind"
		}
		parts = append(parts, review)
	}
	rule := fmt.Sprintf("consensus by %s rule", p.Consensus.Nominal)
	if p.Consensus.OrdinalTolerance > 0 {
		rule += fmt.Sprintf(" (scores within ±%d agree)", p.Consensus.OrdinalTolerance)
	}
	parts = append(parts, rule)
	switch {
	case p.Adjudication == workflow.AdjudicateAlways:
		parts = append(parts, "every item adjudicated by an expert")
	case p.Adjudication == workflow.AdjudicateOnDisagreement && p.OnNoConsensus == workflow.NoConsensusAdjudicate:
		parts = append(parts, "items without consensus adjudicated by an expert")
	default:
		parts = append(parts, "items without consensus dropped")
	}
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}
