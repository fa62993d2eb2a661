package workflow

import (
	"context"
	"encoding/json"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// rejectionsShown is how many of a person's rejected labels their own view lists.
const rejectionsShown = 50

// RejectionView is one of the caller's own labels a reviewer rejected, with the reason: all an
// annotator reads of a review of their work. It names neither the reviewer nor anything of the
// item (its inputs may be blinded), and keeps only the comments on questions the label answered.
type RejectionView struct {
	LabelID     string            `json:"label_id"`
	SubmittedAt *time.Time        `json:"submitted_at"`
	ReviewedAt  *time.Time        `json:"reviewed_at"`
	Comment     string            `json:"comment"`
	Comments    map[string]string `json:"comments,omitempty"`
}

// MyRejections lists the caller's own labels in the project that a review rejected, the latest
// first, with the reviewer's comment and per-question comments.
func (s *Service) MyRejections(ctx context.Context, p *Project, userID string) ([]RejectionView, error) {
	rs, err := s.store.RejectionsOf(ctx, p.ID, userID, rejectionsShown)
	if err != nil {
		return nil, err
	}
	out := make([]RejectionView, 0, len(rs))
	for _, r := range rs {
		out = append(out, rejectionView(r))
	}
	return out, nil
}

// rejectionView is a rejection as its annotator sees it.
func rejectionView(r store.Rejection) RejectionView {
	v := RejectionView{LabelID: r.Label.ID, SubmittedAt: r.Label.SubmittedAt, ReviewedAt: r.Review.SubmittedAt, Comment: deref(r.Review.Comment)}
	var comments map[string]string
	if len(r.Review.Comments) > 0 && json.Unmarshal(r.Review.Comments, &comments) == nil {
		answered := DecodeAnswers(r.Label.Answers)
		for k, c := range comments {
			if _, ok := answered[k]; !ok || c == "" {
				continue // note: a comment on a question the label never answered is not its annotator's to read
			}
			if v.Comments == nil {
				v.Comments = map[string]string{}
			}
			v.Comments[k] = c
		}
	}
	return v
}
