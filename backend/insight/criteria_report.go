package insight

import (
	"context"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// CriteriaReport counts a project's criteria per status and per author, and the authorships
// behind them: how far "criteria by every annotator" has got.
type CriteriaReport struct {
	// Overlap is the number of authors each item asks for (0 without a criteria stage).
	Overlap int `json:"overlap"`
	// Items is the number of items at least one author wrote criteria for; Authorships the
	// number of submitted criteria assignments.
	Items       int64 `json:"items"`
	Authorships int64 `json:"authorships"`
	// Total and ByStatus count every criterion (every status present, zeros included).
	Total    int64                          `json:"total"`
	ByStatus map[flow.CriterionStatus]int64 `json:"by_status"`
	// Authors lists each author's counts, by email.
	Authors []AuthorCriteria `json:"authors"`
}

// AuthorCriteria is one author's criteria by status.
type AuthorCriteria struct {
	UserID   string                         `json:"user_id"`
	Name     string                         `json:"name"`
	Email    string                         `json:"email"`
	Total    int64                          `json:"total"`
	ByStatus map[flow.CriterionStatus]int64 `json:"by_status"`
}

// CriteriaReport builds the criteria report of a project.
func (s *Service) CriteriaReport(ctx context.Context, p *workflow.Project) (*CriteriaReport, error) {
	counts, err := s.store.CriteriaCounts(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	r := &CriteriaReport{ByStatus: statusCounts(), Authors: []AuthorCriteria{}}
	if p.Policy.CriteriaStage != nil {
		r.Overlap = p.Policy.CriteriaStage.Overlap
	}
	if r.Items, r.Authorships, err = s.store.CriteriaItems(ctx, p.ID); err != nil {
		return nil, err
	}
	for _, c := range counts {
		n := len(r.Authors)
		if n == 0 || r.Authors[n-1].UserID != c.AuthorID {
			r.Authors = append(r.Authors, AuthorCriteria{UserID: c.AuthorID, Name: c.Name, Email: c.Email, ByStatus: statusCounts()})
			n++
		}
		a := &r.Authors[n-1]
		a.ByStatus[c.Status] += c.N
		a.Total += c.N
		r.ByStatus[c.Status] += c.N
		r.Total += c.N
	}
	return r, nil
}

// statusCounts is a zero count for every criterion status.
func statusCounts() map[flow.CriterionStatus]int64 {
	m := make(map[flow.CriterionStatus]int64, len(flow.CriterionStatuses))
	for _, st := range flow.CriterionStatuses {
		m[st] = 0
	}
	return m
}
