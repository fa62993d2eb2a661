package workflow

import (
	"maps"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestRejectionView: an annotator reads the reviewer's reason and the comments on questions
// their label answered; comments on other questions, and empty ones, are left out.
func TestRejectionView(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	later := at.Add(time.Hour)
	comment := "the count is wrong"
	reject := flow.VerdictReject
	r := store.Rejection{
		Label: store.Assignment{ID: "l1", UserID: "ann", Answers: store.JSON(`{"count":"3","ok":"yes"}`), SubmittedAt: &at},
		Review: store.Assignment{ID: "r1", UserID: "rev", Verdict: &reject, Comment: &comment, SubmittedAt: &later,
			Comments: store.JSON(`{"count":"there are four","ok":"","hidden":"a question of another pass"}`)},
	}
	v := rejectionView(r)
	if v.LabelID != "l1" || v.Comment != comment || v.SubmittedAt != &at || v.ReviewedAt != &later {
		t.Fatalf("view: %+v", v)
	}
	if want := map[string]string{"count": "there are four"}; !maps.Equal(v.Comments, want) {
		t.Errorf("comments %v, want %v", v.Comments, want)
	}
	r.Review.Comment, r.Review.Comments = nil, nil
	if v := rejectionView(r); v.Comment != "" || v.Comments != nil {
		t.Errorf("a review without words: %+v", v)
	}
}
