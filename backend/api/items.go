package api

import (
	"errors"
	"net/http"
	"path"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// ndjson checks the body is newline-delimited JSON and bounds its size.
func (s *Server) ndjson(c *gin.Context) error {
	switch c.ContentType() {
	case "application/x-ndjson", "application/jsonl", "application/json-seq", "application/ndjson":
	default:
		return fail(http.StatusUnsupportedMediaType, CodeUnsupportedMedia, "send one JSON object per line as application/x-ndjson")
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.cfg.MaxUploadBytes)
	return nil
}

// importNDJSON streams an NDJSON file of the given kind (items or predictions) into the
// project; each bad line is reported by number. With ?async=true the file is stored and
// imported in the background (202 with a status URL).
func (s *Server) importNDJSON(kind string) handler {
	return func(c *gin.Context) error {
		if kind == workflow.ImportItemsKind && c.ContentType() == "multipart/form-data" {
			fp, err := s.loadFlow(c, currentProject(c))
			if err != nil {
				return err
			}
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 2*s.cfg.MaxUploadBytes)
			return s.importWithArchive(c, fp)
		}
		if err := s.ndjson(c); err != nil {
			return err
		}
		fp, err := s.loadFlow(c, currentProject(c))
		if err != nil {
			return err
		}
		if c.Query("async") == "true" {
			return s.importLater(c, kind)
		}
		rep, err := s.flow.Import(c.Request.Context(), fp, kind, currentUser(c).ID, c.Request.Body, nil)
		if err != nil {
			return err
		}
		c.JSON(http.StatusOK, rep)
		return nil
	}
}

// itemView is an item as a lead sees it: its work and its ground truth.
type itemView struct {
	*store.Item
	Annotations []assignmentView `json:"annotations"`
	Reviews     []assignmentView `json:"reviews"`
	Other       []assignmentView `json:"other_work,omitempty"`
	GroundTruth *gtView          `json:"ground_truth"`
}

type assignmentView struct {
	ID           string     `json:"id"`
	UserID       string     `json:"user_id"`
	Stage        string     `json:"stage"`
	Status       string     `json:"status"`
	Answers      store.JSON `json:"answers,omitempty"`
	Effective    store.JSON `json:"corrected_answers,omitempty"`
	ReviewStatus string     `json:"review_status,omitempty"`
	TargetID     *string    `json:"target_id,omitempty"`
	Verdict      *string    `json:"verdict,omitempty"`
	Comment      *string    `json:"comment,omitempty"`
	Comments     store.JSON `json:"comments,omitempty"`
	Rationale    *string    `json:"rationale,omitempty"`
	DraftSource  *string    `json:"draft_source,omitempty"`
	TimeSpentMS  int64      `json:"time_spent_ms"`
	SubmittedAt  *time.Time `json:"submitted_at,omitempty"`
	Shown        store.JSON `json:"shown_order,omitempty"`
}

type gtView struct {
	Answers    store.JSON `json:"answers"`
	Provenance gin.H      `json:"provenance"`
	Revision   int        `json:"revision"`
}

func toGT(g *store.GroundTruth) *gtView {
	if g == nil {
		return nil
	}
	prov := gin.H{"kind": g.Provenance, "at": g.CreatedAt}
	if g.DecidedBy != nil {
		prov["by"] = *g.DecidedBy
	}
	if g.Rationale != nil {
		prov["rationale"] = *g.Rationale
	}
	if len(g.Details) > 0 {
		prov["details"] = g.Details
	}
	return &gtView{Answers: g.Answers, Provenance: prov, Revision: g.Revision}
}

func toItemView(it *store.Item, as []store.Assignment, gt *store.GroundTruth) itemView {
	v := itemView{Item: it, Annotations: []assignmentView{}, Reviews: []assignmentView{}, GroundTruth: toGT(gt)}
	for _, a := range as {
		av := assignmentView{ID: a.ID, UserID: a.UserID, Stage: a.Stage, Status: a.Status, Answers: a.Answers, Effective: a.Effective,
			TargetID: a.TargetID, Verdict: a.Verdict, Comment: a.Comment, Comments: a.Comments, Rationale: a.Rationale, DraftSource: a.DraftSource,
			TimeSpentMS: a.TimeSpentMS, SubmittedAt: a.SubmittedAt, Shown: a.Shuffle}
		switch a.Stage {
		case store.StageLabel:
			av.ReviewStatus = a.ReviewStatus
			v.Annotations = append(v.Annotations, av)
		case store.StageReview:
			v.Reviews = append(v.Reviews, av)
		default:
			v.Other = append(v.Other, av)
		}
	}
	return v
}

// listItems pages through items with filters; next_cursor continues the listing.
func (s *Server) listItems(c *gin.Context) error {
	ctx := c.Request.Context()
	f := store.ItemFilter{Stage: c.Query("stage"), ExternalID: c.Query("external_id"), After: c.Query("cursor"), Limit: 50}
	if v := c.Query("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			return FieldErrors{"limit": {"out_of_range", "limit must be 1 to 500"}}.Err()
		}
		f.Limit = n
	}
	if v := c.Query("flagged"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return FieldErrors{"flagged": {"invalid_value", "flagged must be true or false"}}.Err()
		}
		f.Flagged = &b
	}
	its, err := s.store.Items(ctx, currentProject(c).ID, f)
	if err != nil {
		return err
	}
	ids := make([]string, len(its))
	for i := range its {
		ids[i] = its[i].ID
	}
	work, err := s.store.AssignmentsOfItems(ctx, ids)
	if err != nil {
		return err
	}
	gts, err := s.store.LatestGroundTruth(ctx, ids)
	if err != nil {
		return err
	}
	out := make([]itemView, len(its))
	for i := range its {
		out[i] = toItemView(&its[i], work[its[i].ID], gts[its[i].ID])
	}
	next := ""
	if len(its) == f.Limit {
		next = its[len(its)-1].ID
	}
	c.JSON(http.StatusOK, gin.H{"items": out, "next_cursor": next})
	return nil
}

// getItem returns one item with its work, every ground truth revision and its criteria.
func (s *Server) getItem(c *gin.Context) error {
	ctx := c.Request.Context()
	p := currentProject(c)
	it, err := s.store.Item(ctx, p.ID, c.Param("iid"))
	if err != nil {
		return mapNotFound(err, "item")
	}
	as, err := s.store.ItemAssignments(ctx, it.ID, "")
	if err != nil {
		return err
	}
	history, err := s.store.GroundTruthHistory(ctx, it.ID)
	if err != nil {
		return err
	}
	var latest *store.GroundTruth
	if len(history) > 0 {
		latest = &history[len(history)-1]
	}
	crit, err := s.store.Criteria(ctx, p.ID, "", it.ID, 1000)
	if err != nil {
		return err
	}
	preds, err := s.store.Predictions(ctx, it.ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, gin.H{"item": toItemView(it, as, latest), "ground_truth_history": history, "criteria": crit, "predictions": preds})
	return nil
}

type resolveFlagRequest struct {
	Action string `json:"action"`
	Note   string `json:"note"`
}

func (s *Server) resolveFlag(c *gin.Context) error {
	var req resolveFlagRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Action != "return" && req.Action != "drop" {
		return FieldErrors{"action": {"invalid_value", "action must be return (back to the queue) or drop"}}.Err()
	}
	fp, err := s.loadFlow(c, currentProject(c))
	if err != nil {
		return err
	}
	if err := s.flow.ResolveFlag(c.Request.Context(), fp, currentUser(c).ID, c.Param("iid"), req.Action, req.Note); err != nil {
		return mapNotFound(workflowError(err), "item")
	}
	c.Status(http.StatusNoContent)
	return nil
}

func (s *Server) listCriteria(c *gin.Context) error {
	cs, err := s.store.Criteria(c.Request.Context(), currentProject(c).ID, c.DefaultQuery("status", store.CriterionPending), c.Query("item_id"), 500)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, gin.H{"items": cs})
	return nil
}

type criterionRequest struct {
	Status string `json:"status"`
}

func (s *Server) reviewCriterion(c *gin.Context) error {
	var req criterionRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if !contains(workflow.CriterionVerdicts, req.Status) {
		return FieldErrors{"status": {"invalid_value", "status must be valid, too_vague or too_specific"}}.Err()
	}
	fp, err := s.loadFlow(c, currentProject(c))
	if err != nil {
		return err
	}
	cr, err := s.flow.ReviewCriterion(c.Request.Context(), fp, currentUser(c).ID, c.Param("cid"), req.Status)
	if err != nil {
		return mapNotFound(workflowError(err), "criterion")
	}
	c.JSON(http.StatusOK, cr)
	return nil
}

// projectStats counts items by stage and work per person, for the lead's page.
func (s *Server) projectStats(c *gin.Context) error {
	ctx := c.Request.Context()
	p := currentProject(c)
	counts, err := s.store.ItemCounts(ctx, p.ID)
	if err != nil {
		return err
	}
	y, m, d := time.Now().UTC().Date()
	tp, err := s.store.ProjectThroughput(ctx, p.ID, time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, gin.H{"items": counts, "throughput": tp})
	return nil
}

// importLater stores the request body in the blob store and queues its import.
func (s *Server) importLater(c *gin.Context, kind string) error {
	if s.jobs == nil {
		return fail(http.StatusServiceUnavailable, CodeUnavailable, "background jobs are not running on this server; import without async")
	}
	ctx := c.Request.Context()
	p := currentProject(c)
	name := path.Base(c.Query("filename"))
	if len(name) > 255 || name == "." || name == "/" {
		name = ""
	}
	im := &store.Import{ID: store.NewAssetID(), ProjectID: p.ID, Kind: kind, Filename: name, Status: store.ImportQueued, CreatedBy: currentUser(c).ID}
	im.BlobKey = "imports/" + p.ID + "/" + im.ID + ".ndjson"
	body := &countingReader{r: c.Request.Body, limit: s.cfg.MaxUploadBytes}
	if err := s.blobs.Put(ctx, im.BlobKey, body, -1, "application/x-ndjson"); err != nil {
		s.blobs.Delete(ctx, im.BlobKey)
		if isMaxBytes(err) || errors.Is(err, errTooLarge) {
			return fail(http.StatusRequestEntityTooLarge, CodePayloadTooLarge, "file exceeds %d bytes", s.cfg.MaxUploadBytes)
		}
		return err
	}
	im.BytesTotal = body.n
	if err := s.store.CreateImport(ctx, im); err != nil {
		return err
	}
	if err := s.jobs.EnqueueImport(ctx, im.ID); err != nil {
		return err
	}
	c.Header("Location", "/api/v1/projects/"+p.ID+"/imports/"+im.ID)
	c.JSON(http.StatusAccepted, importView(im))
	return nil
}

// importView adds the share done, for progress bars.
func importView(im *store.Import) gin.H {
	pct := 0.0
	if im.BytesTotal > 0 {
		pct = 100 * float64(im.BytesDone) / float64(im.BytesTotal)
	}
	if im.Status == store.ImportDone {
		pct = 100
	}
	return gin.H{"id": im.ID, "kind": im.Kind, "filename": im.Filename, "status": im.Status, "bytes_total": im.BytesTotal, "bytes_done": im.BytesDone,
		"lines_done": im.LinesDone, "percent": pct, "report": im.Report, "error": im.Error, "created_at": im.CreatedAt, "updated_at": im.UpdatedAt}
}

func (s *Server) getImport(c *gin.Context) error {
	im, err := s.store.Import(c.Request.Context(), currentProject(c).ID, c.Param("imid"))
	if err != nil {
		return mapNotFound(err, "import")
	}
	c.JSON(http.StatusOK, importView(im))
	return nil
}

func (s *Server) listImports(c *gin.Context) error {
	ims, err := s.store.Imports(c.Request.Context(), currentProject(c).ID, 50)
	if err != nil {
		return err
	}
	out := make([]gin.H, len(ims))
	for i := range ims {
		out[i] = importView(&ims[i])
	}
	c.JSON(http.StatusOK, gin.H{"items": out})
	return nil
}
