package releases

import (
	"context"
	"encoding/json"
	"iter"
	"sync"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// pageSize is the number of items read per query while a release streams.
const pageSize = 500

// page is one page of records, or the error that ended the stream.
type page struct {
	recs []exports.Record
	err  error
}

// records streams the release's items in id order as exports records. Pages are read and
// converted ahead of the exporter on goroutines of their own (readPages); the stream waits for
// them before it returns, so nothing is written after a release stopped.
func (s *Service) records(ctx context.Context, fp *workflow.Project, stages []flow.Stage, med *releaseMedia) iter.Seq2[exports.Record, error] {
	return func(yield func(exports.Record, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		pages := make(chan page)
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			s.readPages(ctx, fp, stages, med, pages)
		}()
		defer func() {
			cancel()
			for range pages {
			}
			<-finished
		}()
		for pg := range pages {
			if pg.err != nil {
				yield(exports.Record{}, pg.err)
				return
			}
			for _, rec := range pg.recs {
				if !yield(rec, nil) {
					return
				}
			}
		}
	}
}

// buildAhead is the number of pages whose labels are read and whose records are built at the
// same time, each on a goroutine of its own, while the exporter takes the pages before them.
const buildAhead = 2

// readPages sends every page of records to out in id order, then closes it. One goroutine
// reads the pages of items, each query starting when the page before it arrived, and starts
// building each page's records (its labels read, converted); up to buildAhead pages are built
// at once. The pages' media are then rewritten one page after the other, in order, here.
func (s *Service) readPages(ctx context.Context, fp *workflow.Project, stages []flow.Stage, med *releaseMedia, out chan<- page) {
	defer close(out)
	built := make(chan chan page, buildAhead-1)
	go s.buildPages(ctx, fp, stages, built)
	defer func() {
		for range built { // note: the reading goroutine ends once ctx ends or every page was read
		}
	}()
	for next := range built {
		pg := <-next
		if pg.err == nil {
			pg.err = s.rewriteMedia(ctx, fp, pg.recs, med)
		}
		select {
		case out <- pg:
		case <-ctx.Done():
			return
		}
		if pg.err != nil {
			return
		}
	}
}

// buildPages reads the pages of items and sends, for each in order, where its records will
// arrive; it closes built once every page was read (or one failed, or ctx ended) and every
// page it started was built.
func (s *Service) buildPages(ctx context.Context, fp *workflow.Project, stages []flow.Stage, built chan<- chan page) {
	var wg sync.WaitGroup
	defer func() {
		wg.Wait()
		close(built)
	}()
	next := s.fetchItems(ctx, fp.ID, stages, "")
	for {
		res := <-next
		if res.err == nil && len(res.items) == 0 {
			return
		}
		pg := make(chan page, 1)
		if res.err != nil {
			pg <- page{err: res.err}
		}
		select {
		case built <- pg:
		case <-ctx.Done():
			return
		}
		if res.err != nil {
			return
		}
		// note: a page is built once there is room for it in built, which bounds the pages held
		next = s.fetchItems(ctx, fp.ID, stages, res.items[len(res.items)-1].ID)
		wg.Go(func() {
			recs, err := s.convert(ctx, fp, res.items)
			pg <- page{recs: recs, err: err}
		})
	}
}

// itemsPage is one query's items, or its error.
type itemsPage struct {
	items []store.ItemTruth
	err   error
}

// fetchItems reads the page of items after the given id on a goroutine of its own.
func (s *Service) fetchItems(ctx context.Context, projectID string, stages []flow.Stage, after string) <-chan itemsPage {
	ch := make(chan itemsPage, 1)
	go func() {
		its, err := s.store.ItemsWithTruth(ctx, projectID, stages, after, pageSize)
		ch <- itemsPage{its, err}
	}()
	return ch
}

// convert turns a page of items into records: ground truth, labels and reviews. Their media
// are rewritten afterwards (rewriteMedia), page after page.
func (s *Service) convert(ctx context.Context, fp *workflow.Project, its []store.ItemTruth) ([]exports.Record, error) {
	ids := make([]string, len(its))
	for i := range its {
		ids[i] = its[i].ID
	}
	work, err := s.store.SubmittedWork(ctx, ids)
	if err != nil {
		return nil, err
	}
	byItem := map[string][]store.Assignment{}
	for _, a := range work {
		byItem[a.ItemID] = append(byItem[a.ItemID], a)
	}
	recs := make([]exports.Record, len(its))
	var lists []tasks.Question
	if fp.Policy.ChecklistStage != nil {
		lists = workflow.RefinedLists(*fp.StageSchema(flow.StageChecklist))
	}
	for i := range its {
		recs[i] = record(&its[i], byItem[its[i].ID])
		recs[i].Refinements = workflow.Refinements(lists, its[i].Drafted, byItem[its[i].ID])
	}
	return recs, nil
}

// rewriteMedia replaces the asset references of a page's inputs with what the release carries.
func (s *Service) rewriteMedia(ctx context.Context, fp *workflow.Project, recs []exports.Record, med *releaseMedia) error {
	var assetIDs []string
	for i := range recs {
		walkMedia(fp.Schema, recs[i].Inputs, func(id string) (string, error) {
			assetIDs = append(assetIDs, id)
			return "", nil
		})
	}
	if len(assetIDs) == 0 {
		return nil
	}
	assets, err := s.store.AssetsByIDs(ctx, fp.ID, assetIDs)
	if err != nil {
		return err
	}
	for i := range recs {
		if err := med.rewrite(ctx, fp.Schema, recs[i].Inputs, assets); err != nil {
			return &exports.RecordError{ID: recs[i].ID, ExternalID: recs[i].ExternalID, Field: "inputs",
				Code: "media_unavailable", Message: err.Error()}
		}
	}
	return nil
}

// record is one item as exports reads it. Inputs, metadata and answers are JSON objects the
// server validated when it stored them.
func record(it *store.ItemTruth, work []store.Assignment) exports.Record {
	rec := exports.Record{ID: it.ID, ExternalID: it.ExternalID, Language: it.Language, Status: itemStatus(&it.Item)}
	rec.Inputs, _ = splitObject(it.Inputs)
	if len(it.Meta) > 0 {
		rec.Meta, _ = splitObject(it.Meta)
	}
	if it.DropReason != nil {
		rec.DropReason = *it.DropReason
	}
	if it.ParentID != nil {
		rec.Parent = *it.ParentID
	}
	rec.SpotCheck = spotCheckFailure(it.Flag)
	if it.Truth != nil && rec.Status == exports.StatusDone {
		rec.Answers, _ = splitObject(it.Truth.Answers)
		rec.Provenance = provenance(it.Truth)
		if len(it.Truth.Texts) > 0 {
			json.Unmarshal(it.Truth.Texts, &rec.Texts)
		}
		var d struct {
			Aggregates map[string]exports.Aggregate `json:"aggregates"`
		}
		if json.Unmarshal(it.Truth.Details, &d) == nil {
			rec.Aggregates = d.Aggregates
		}
	}
	rec.Labels, rec.Reviews = labelsAndReviews(work)
	rec.Skips = skipsOf(work)
	creditCorrections(rec.Texts, work)
	return rec
}

// spotCheckFailure reads the flag of a failed spot check the lead has not resolved yet, with
// the questions it disagreed on; nil for any other flag or none.
func spotCheckFailure(flag store.JSON) *exports.SpotCheckFailure {
	var f struct {
		Category  flow.FlagCategory `json:"category"`
		Questions []string          `json:"questions"`
	}
	if len(flag) == 0 || json.Unmarshal(flag, &f) != nil || f.Category != flow.FlagSpotCheckMismatch {
		return nil
	}
	return &exports.SpotCheckFailure{Questions: f.Questions}
}

// skipsOf are the item's skipped labels and reviews, oldest first.
func skipsOf(work []store.Assignment) []exports.Skip {
	var out []exports.Skip
	for _, a := range work {
		if a.Status != flow.AssignSkipped {
			continue
		}
		s := exports.Skip{Person: a.UserID, Stage: string(a.Stage)}
		if a.SkipReason != nil {
			s.Reason = *a.SkipReason
		}
		out = append(out, s)
	}
	return out
}

// provenance is how the ground truth was reached. An adjudicator's confidence (1 to 5) is
// released on [0, 1]: (confidence − 1) / 4.
func provenance(gt *store.GroundTruth) exports.Provenance {
	p := exports.Provenance{Kind: string(gt.Provenance), Revision: gt.Revision}
	if gt.Rationale != nil {
		p.Rationale = *gt.Rationale
	}
	if gt.Provenance != flow.ProvenanceAdjudicated {
		return p
	}
	if gt.DecidedBy != nil {
		p.Adjudicator = *gt.DecidedBy
	}
	var d struct {
		Confidence *int `json:"confidence"`
	}
	if json.Unmarshal(gt.Details, &d) == nil && d.Confidence != nil && *d.Confidence >= 1 && *d.Confidence <= 5 {
		c := float64(*d.Confidence-1) / 4
		p.Confidence = &c
	}
	return p
}

// labelsAndReviews are an item's labels, rejected ones too, each with the annotator's own
// answers and its review status, and the reviews of its labels with the reviewers' answers (a
// correction), oldest first.
func labelsAndReviews(work []store.Assignment) ([]exports.Label, []exports.Review) {
	author := map[string]string{}
	var labels []exports.Label
	for _, a := range work {
		if a.Stage != flow.StageLabel || a.Status == flow.AssignSkipped {
			continue // note: a skip is no label; it is released among the skips
		}
		author[a.ID] = a.UserID
		ans, _ := splitObject(a.Answers)
		l := exports.Label{Annotator: a.UserID, Answers: ans}
		if a.ReviewStatus != flow.ReviewNone {
			l.Review = string(a.ReviewStatus)
		}
		labels = append(labels, l)
	}
	var reviews []exports.Review
	for _, a := range work {
		if a.Stage != flow.StageReview || a.Status != flow.AssignSubmitted || a.Verdict == nil {
			continue
		}
		r := exports.Review{Reviewer: a.UserID, Verdict: string(*a.Verdict)}
		if a.TargetID != nil {
			r.Annotator = author[*a.TargetID]
		}
		if a.Comment != nil {
			r.Comment = *a.Comment
		}
		json.Unmarshal(a.Comments, &r.Comments)
		json.Unmarshal(a.Answers, &r.Answers)
		reviews = append(reviews, r)
	}
	return labels, reviews
}

// creditCorrections gives the kept text of a corrected label to the reviewer who corrected it,
// where ground truth decided before corrections were credited to their reviewers names the
// label's annotator.
func creditCorrections(texts map[string][]exports.TextAnswer, work []store.Assignment) {
	if len(texts) == 0 {
		return
	}
	labelBy := map[string]string{}
	for _, a := range work {
		if a.Stage == flow.StageLabel {
			labelBy[a.ID] = a.UserID
		}
	}
	correctedBy := map[string]string{} // annotator → the reviewer who corrected their label
	for _, a := range work {
		if a.Stage == flow.StageReview && a.Status == flow.AssignSubmitted && a.Verdict != nil && *a.Verdict == flow.VerdictCorrect && a.TargetID != nil {
			if by, ok := labelBy[*a.TargetID]; ok {
				correctedBy[by] = a.UserID
			}
		}
	}
	for _, ts := range texts {
		for i := range ts {
			if r, ok := correctedBy[ts[i].Author]; ok && ts[i].Role == "corrected" {
				ts[i].Author = r
			}
		}
	}
}
