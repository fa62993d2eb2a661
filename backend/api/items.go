package api

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// importItems streams an NDJSON file of items into the project; each bad line is reported by
// number. With ?async=true the file is stored and imported in the background (202 with a
// status URL); as multipart/form-data a "media" zip comes first, then the "items".
func (s *Server) importItems(c *gin.Context) error {
	if pool, ok := c.GetQuery("pool"); ok {
		return s.importPool(c, pool)
	}
	if c.ContentType() == "multipart/form-data" {
		return s.importArchive(c, s.imports.ImportArchive)
	}
	return s.importNDJSON(c, flow.ImportItems)
}

var errPoolParam = tasks.Field("pool", "invalid_value", "pool=calibration imports items into the calibration pool, synchronously")

// poolQuery reads ?pool: true for "calibration", false when absent.
func poolQuery(c *gin.Context) (bool, error) {
	pool, ok := c.GetQuery("pool")
	if ok && pool != string(flow.StageCalibration) {
		return false, errPoolParam
	}
	return ok, nil
}

// itemSample answers what an import of the project's items takes (of its calibration pool
// with ?pool=calibration): the inputs and metadata of a line and example lines made from the
// schema.
func (s *Server) itemSample(c *gin.Context) error {
	pool, err := poolQuery(c)
	if err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, imports.SampleOf(fp, pool))
	return nil
}

// importPool imports items into the calibration pool (?pool=calibration), synchronously: NDJSON,
// or as multipart/form-data a "media" zip, then the "items".
func (s *Server) importPool(c *gin.Context, pool string) error {
	if pool != string(flow.StageCalibration) || c.Query("async") == "true" {
		return errPoolParam
	}
	if c.ContentType() == "multipart/form-data" {
		return s.importArchive(c, s.imports.ImportPoolArchive)
	}
	body, err := s.ndjsonBody(c)
	if err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	rep, err := s.imports.ImportPool(c.Request.Context(), fp, currentUser(c).ID, body)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

func (s *Server) importPredictions(c *gin.Context) error {
	return s.importNDJSON(c, flow.ImportPredictions)
}

func (s *Server) importNDJSON(c *gin.Context, kind flow.ImportKind) error {
	body, err := s.ndjsonBody(c)
	if err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	if c.Query("async") == "true" {
		im, err := s.imports.StartImport(c.Request.Context(), fp, currentUser(c).ID, kind, c.Query("filename"), body)
		if err != nil {
			return err
		}
		c.Header("Location", "/api/v1/projects/"+fp.ID+"/imports/"+im.ID)
		c.JSON(http.StatusAccepted, imports.ImportStatusOf(im))
		return nil
	}
	rep, err := s.imports.ImportFile(c.Request.Context(), fp, kind, currentUser(c).ID, body, nil)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

// ndjsonBody checks the body is newline-delimited JSON and bounds its size.
func (s *Server) ndjsonBody(c *gin.Context) (io.Reader, error) {
	switch c.ContentType() {
	case "application/x-ndjson", "application/jsonl", "application/json-seq", "application/ndjson":
	default:
		return nil, fail(http.StatusUnsupportedMediaType, CodeUnsupportedMedia, "send one JSON object per line as application/x-ndjson")
	}
	return http.MaxBytesReader(c.Writer, c.Request.Body, s.cfg.MaxUploadBytes), nil
}

// importArchive handles a multipart import: a "media" zip, then the "items" NDJSON, imported by
// the given import.
func (s *Server) importArchive(c *gin.Context, into func(context.Context, *workflow.Project, string, imports.NextPart) (*imports.ImportReport, error)) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 2*s.cfg.MaxUploadBytes)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return fail(http.StatusBadRequest, CodeBadRequest, "expected multipart/form-data with a \"media\" zip part, then an \"items\" part")
	}
	rep, err := into(c.Request.Context(), fp, currentUser(c).ID, multipartParts(mr))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, rep)
	return nil
}

// multipartParts reads a multipart body part by part; a malformed body is a 400.
func multipartParts(mr *multipart.Reader) imports.NextPart {
	var last *multipart.Part
	n := 0
	return func() (string, io.Reader, error) {
		if last != nil {
			last.Close()
		}
		if n++; n > maxFormParts {
			return "", nil, errTooManyParts
		}
		part, err := mr.NextPart()
		switch {
		case err == io.EOF || isMaxBytes(err):
			return "", nil, err
		case err != nil:
			return "", nil, fail(http.StatusBadRequest, CodeBadRequest, "malformed multipart body: %v", err)
		}
		last = part
		return part.FormName(), part, nil
	}
}

// listItems pages through items with filters; next_cursor continues the listing.
func (s *Server) listItems(c *gin.Context) error {
	f := store.ItemFilter{Stage: flow.Stage(c.Query("stage")), ExternalID: c.Query("external_id"), After: c.Query("cursor")}
	var err error
	if f.Limit, err = intQuery(c, "limit", 50); err != nil {
		return err
	}
	if v := c.Query("flagged"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return tasks.Field("flagged", "invalid_value", "flagged must be true or false")
		}
		f.Flagged = &b
	}
	page, err := s.projects.Items(c.Request.Context(), currentProject(c).ID, f)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, page)
	return nil
}

// getItem returns one item with its work, every ground truth revision and its criteria.
func (s *Server) getItem(c *gin.Context) error {
	it, err := s.projects.Item(c.Request.Context(), currentProject(c).ID, c.Param("iid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, it)
	return nil
}

type resolveFlagRequest struct {
	Action flow.FlagAction `json:"action"`
	Note   string          `json:"note"`
}

func (s *Server) resolveFlag(c *gin.Context) error {
	var req resolveFlagRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	if err := s.flow.ResolveFlag(c.Request.Context(), fp, currentUser(c).ID, c.Param("iid"), req.Action, req.Note); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// listCriteria lists criteria with their items as the caller reviews them (a lead, else a reviewer).
func (s *Server) listCriteria(c *gin.Context) error {
	fp, _ := currentFlow(c) // note: a project without a schema has no items to show
	role := store.RoleReviewer
	if projectRoles(c).Has(store.RoleLead) {
		role = store.RoleLead
	}
	page, err := s.projects.CriteriaWithItems(c.Request.Context(), currentProject(c).ID, fp, role, flow.CriterionStatus(c.Query("status")), c.Query("item_id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, page)
	return nil
}

// criteriaReport counts the project's criteria per status and author.
func (s *Server) criteriaReport(c *gin.Context) error {
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	r, err := s.insight.CriteriaReport(c.Request.Context(), fp)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, r)
	return nil
}

func (s *Server) reviewCriterion(c *gin.Context) error {
	var req workflow.CriterionVerdict
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	fp, err := currentFlow(c)
	if err != nil {
		return err
	}
	cr, err := s.flow.ReviewCriterion(c.Request.Context(), fp, currentUser(c).ID, c.Param("cid"), req)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, cr)
	return nil
}

// projectStats counts items by stage and work per person, for the lead's page.
func (s *Server) projectStats(c *gin.Context) error {
	st, err := s.projects.Stats(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, st)
	return nil
}

func (s *Server) getImport(c *gin.Context) error {
	im, err := s.imports.Import(c.Request.Context(), currentProject(c).ID, c.Param("imid"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, imports.ImportStatusOf(im))
	return nil
}

// importsPage is a list of background imports.
type importsPage struct {
	Items []imports.ImportStatus `json:"items"`
}

func (s *Server) listImports(c *gin.Context) error {
	ims, err := s.imports.Imports(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, importsPage{ims})
	return nil
}
