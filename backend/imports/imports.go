package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// MaxLineBytes bounds one NDJSON line of an import.
const MaxLineBytes = 16 << 20

// importBatch is how many lines share one transaction.
const importBatch = 500

// importBatchBytes bounds the bytes of the lines that share one transaction: a batch ends
// after importBatch lines or once its lines add up to this many bytes, so it holds less than
// importBatchBytes + MaxLineBytes of lines however long they are. Lines of up to 4 KiB still
// go 500 to a transaction.
const importBatchBytes = 2 << 20

// MaxImportMemory is the most heap one import takes, whatever its file: a batch holds less
// than importBatchBytes + MaxLineBytes of lines (18 MiB), each held about four times over on
// its way to the database (the line, its decoded inputs, their stored encoding, the driver's
// copies), the garbage collector lets the heap grow to twice what is live, and the rest is
// margin (the highest measured is 157 MiB). TestImportMemoryBound measures it;
// docs/performance.md states it.
const MaxImportMemory = 16 * MaxLineBytes

// ItemLine is one line of an items import.
type ItemLine struct {
	ExternalID string                     `json:"external_id"`
	Inputs     map[string]json.RawMessage `json:"inputs"`
	Meta       map[string]json.RawMessage `json:"meta,omitempty"`
	// Language is the item's BCP 47 tag, stored in its canonical form.
	Language    string         `json:"language,omitempty"`
	GroundTruth *ImportedTruth `json:"ground_truth,omitempty"`
	// Gold makes the item a gold item: GroundTruth holds its gold answers.
	Gold bool `json:"gold,omitempty"`
}

// ImportedTruth is ground truth that comes with an item: by rule or by construction.
type ImportedTruth struct {
	Answers    tasks.Answers   `json:"answers"`
	Provenance flow.Provenance `json:"provenance,omitempty"`
	Note       string          `json:"note,omitempty"`
}

// LineError is the reason one line was refused.
type LineError struct {
	Line    int    `json:"line"`
	Error   string `json:"error"`
	Details any    `json:"details,omitempty"`
}

// ImportReport counts what an import did; good lines are kept even when others fail.
type ImportReport struct {
	Lines     int         `json:"lines"`
	Imported  int         `json:"imported"`
	Updated   int         `json:"updated"`
	Unchanged int         `json:"unchanged"`
	Errors    []LineError `json:"errors"`
	Truncated bool        `json:"errors_truncated,omitempty"`
}

// ImportError is an import that stopped part way (the database went away, say): the lines
// of the batches before it are stored, and Report says how far it got.
type ImportError struct {
	Report *ImportReport
	Cause  error
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("the import stopped after line %d: %v", e.Report.Lines, e.Cause)
}

func (e *ImportError) Unwrap() error { return e.Cause }

// stopped wraps a failure of an import with its report so far.
func stopped(rep *ImportReport, err error) error {
	if err == nil {
		return nil
	}
	return &ImportError{Report: rep, Cause: err}
}

// maxReportedErrors bounds the error list of one import.
const maxReportedErrors = 1000

func (r *ImportReport) fail(line int, err error) {
	if len(r.Errors) >= maxReportedErrors {
		r.Truncated = true
		return
	}
	le := LineError{Line: line, Error: err.Error()}
	var fe tasks.FieldErrors
	if errors.As(err, &fe) {
		le.Error, le.Details = "invalid item", fe
	}
	var named *lineProblem
	if errors.As(err, &named) {
		le.Error = named.summary
	}
	r.Errors = append(r.Errors, le)
}

// ImportItems reads NDJSON items and creates or updates them, a batch per transaction. Each
// bad line is reported with its number and reason; good lines are kept. progress, when not
// nil, is told the number of lines read after each batch.
func (s *Service) ImportItems(ctx context.Context, p *workflow.Project, actorID string, r io.Reader, progress func(int)) (*ImportReport, error) {
	return s.ImportItemsWithMedia(ctx, p, actorID, r, progress, nil)
}

// ImportItemsWithMedia is ImportItems where the media paths of the inputs name files (of an
// archive uploaded with the import) and are first replaced by their assets (ResolveMediaPaths:
// a line with a path that names no file is refused whole); files may be nil.
func (s *Service) ImportItemsWithMedia(ctx context.Context, p *workflow.Project, actorID string, r io.Reader, progress func(int), files MediaFiles) (*ImportReport, error) {
	return s.importItems(ctx, p, actorID, r, progress, files, false)
}

// ImportPool reads NDJSON items into the project's calibration pool: items of stage
// calibration, which only calibration rounds use. A line's ground_truth is the item's gold
// answer (questions may be left out), never ground truth.
func (s *Service) ImportPool(ctx context.Context, p *workflow.Project, actorID string, r io.Reader) (*ImportReport, error) {
	return s.importItems(ctx, p, actorID, r, nil, nil, true)
}

func (s *Service) importItems(ctx context.Context, p *workflow.Project, actorID string, r io.Reader, progress func(int), files MediaFiles, pool bool) (*ImportReport, error) {
	rep := &ImportReport{Errors: []LineError{}}
	assets := map[string]string{}
	quit := make(chan struct{})
	batches := readAhead(ctx, p, r, files, pool, quit)
	defer func() {
		close(quit)
		for b := range batches { // note: the reader is done with r before the import returns
			close(b.stored)
		}
	}()
	for b := range batches {
		rep.merge(b.part)
		err := b.err
		if errors.Is(err, io.EOF) {
			err = nil
		}
		if err == nil && len(b.lines) > 0 {
			err = s.store.WithConnTx(ctx, func(tx *store.Store) error { return s.importBatch(ctx, tx, p, b.lines, rep, assets, pool) })
		}
		close(b.stored)
		if err != nil {
			return rep, stopped(rep, err)
		}
		if progress != nil {
			progress(rep.Lines)
		}
	}
	if err := s.analyzeAfter(ctx, rep, "items"); err != nil {
		return rep, err
	}
	after := map[string]any{"lines": rep.Lines, "imported": rep.Imported, "updated": rep.Updated, "errors": len(rep.Errors)}
	if pool {
		after["pool"] = flow.StageCalibration
	}
	return rep, s.store.Audit(ctx, p.ID, actorID, "items.import", "project:"+p.ID, nil, after)
}

// analyzeEvery is how many rows an import writes before the tables it filled are analyzed.
const analyzeEvery = 1000

// analyzeAfter refreshes the planner's statistics of a table a large import filled: until
// then the planner may take a table of a million items for an empty one (autovacuum lags
// behind a bulk load, or is off), and the queue's plans go wrong.
func (s *Service) analyzeAfter(ctx context.Context, rep *ImportReport, table string) error {
	if rep.Imported+rep.Updated < analyzeEvery {
		return nil
	}
	return s.store.Analyze(ctx, table)
}

type rawLine struct {
	n    int
	data []byte
}

// resolveBatch replaces the media paths of each line by the assets of the files they name; a
// line with a path that names no file, or whose files cannot be stored, is reported and left
// out. Lines that are not JSON objects pass through for parseLine to report.
func resolveBatch(ctx context.Context, schema *tasks.Schema, batch []rawLine, files MediaFiles, rep *ImportReport) []rawLine {
	out := batch[:0]
	for _, l := range batch {
		var obj map[string]json.RawMessage
		var inputs map[string]json.RawMessage
		if json.Unmarshal(l.data, &obj) != nil || json.Unmarshal(obj["inputs"], &inputs) != nil {
			out = append(out, l)
			continue
		}
		if err := ResolveMediaPaths(ctx, schema, inputs, files); err != nil {
			rep.fail(l.n, err)
			continue
		}
		obj["inputs"], _ = json.Marshal(inputs)
		l.data, _ = json.Marshal(obj)
		out = append(out, l)
	}
	return out
}

func readBatch(lr *lineReader, rep *ImportReport) ([]rawLine, error) {
	defer lr.drop()
	var batch []rawLine
	for size := 0; len(batch) < importBatch && size < importBatchBytes; {
		b, n, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			rep.Lines = n
			rep.fail(n, err)
			continue
		}
		if err != nil {
			return batch, err
		}
		rep.Lines = n
		if err := tasks.CheckText(b); err != nil {
			rep.fail(n, err)
			continue
		}
		batch = append(batch, rawLine{n, append([]byte(nil), b...)})
		size += len(b)
	}
	return batch, nil
}

// parsed is one good line of a batch: its item, and the ground truth (or a pool item's gold
// answer) it comes with, with its answers encoded.
type parsed struct {
	n       int
	item    *store.Item
	gt      *ImportedTruth
	answers store.JSON
}

// parsedLine is one line of a batch with the checks that need no database done: refused with
// err, or an item (and its ground truth) once the assets it names are found (refs), unless
// late refuses it then.
type parsedLine struct {
	parsed
	refs []assetRef
	err  error
	late error
}

// importBatch checks the assets the parsed lines name and that no external id repeats, then
// stores the batch with multi-row inserts (COPY on PostgreSQL). Only database errors abort the
// import.
func (s *Service) importBatch(ctx context.Context, tx *store.Store, p *workflow.Project, lines []parsedLine, rep *ImportReport, assets map[string]string, pool bool) error {
	var good []parsed
	seen := map[string]int{}
	for _, l := range lines {
		err := l.err
		if err == nil && len(l.refs) > 0 {
			err = s.checkAssets(ctx, tx, p, l.refs, assets)
		}
		if err == nil {
			err = l.late
		}
		if err == nil && seen[l.item.ExternalID] > 0 {
			err = fmt.Errorf("external_id %q repeats line %d", l.item.ExternalID, seen[l.item.ExternalID])
		}
		if err != nil {
			rep.fail(l.n, err)
			continue
		}
		seen[l.item.ExternalID] = l.n
		good = append(good, l.parsed)
	}
	its := make([]*store.Item, len(good))
	for i, g := range good {
		its[i] = g.item
	}
	inserted, err := tx.InsertNewItems(ctx, its)
	if err != nil {
		return err
	}
	rep.Imported += len(inserted)
	var truths, others []parsed
	var otherIDs []string
	for _, g := range good {
		switch {
		case inserted[g.item.ExternalID] && g.gt != nil:
			truths = append(truths, g)
		case !inserted[g.item.ExternalID]:
			others = append(others, g)
			otherIDs = append(otherIDs, g.item.ExternalID)
		}
	}
	if len(others) > 0 {
		existing, err := tx.ItemsByExternalIDs(ctx, p.ID, otherIDs)
		if err != nil {
			return err
		}
		for _, g := range others {
			old, ok := existing[g.item.ExternalID]
			if !ok { // note: another import inserted and removed it meanwhile; nothing to update
				rep.fail(g.n, errors.New("the item changed during the import; import the line again"))
				continue
			}
			if inPool := old.Stage == flow.StageCalibration; inPool != pool {
				rep.fail(g.n, poolMismatch(g.item.ExternalID, inPool))
				continue
			}
			if err := s.updateExisting(ctx, tx, old, g, rep); err != nil {
				return err
			}
		}
	}
	if pool {
		for _, g := range truths {
			if err := tx.PutGold(ctx, g.item.ID, g.answers); err != nil {
				return err
			}
		}
		return nil
	}
	return tx.AddFirstGroundTruths(ctx, groundTruths(truths))
}

// groundTruths are the first revisions of the ground truth of the lines' items, inserted with
// gt_revision 1 (lineItem).
func groundTruths(lines []parsed) []*store.GroundTruth {
	out := make([]*store.GroundTruth, len(lines))
	for i, g := range lines {
		out[i] = &store.GroundTruth{ItemID: g.item.ID, Answers: g.answers, Provenance: g.gt.Provenance}
		if g.gt.Note != "" {
			out[i].Rationale = &g.gt.Note
		}
	}
	return out
}

// updateExisting applies a re-imported line to its item, refusing to change the inputs of an
// item people already work on.
func (s *Service) updateExisting(ctx context.Context, tx *store.Store, old *store.Item, g parsed, rep *ImportReport) error {
	if string(old.Inputs) == string(g.item.Inputs) && string(old.Meta) == string(g.item.Meta) && old.Language == g.item.Language {
		rep.Unchanged++
		return nil
	}
	as, err := tx.ItemAssignments(ctx, old.ID, "")
	if err != nil {
		return err
	}
	if len(as) > 0 {
		rep.fail(g.n, errInWork)
		return nil
	}
	rep.Updated++
	return tx.UpdateItemContent(ctx, old.ID, g.item.Inputs, g.item.Meta, g.item.Language)
}

var errInWork = errors.New("this external_id is already being annotated; its inputs cannot change (import it under a new external_id)")

// poolMismatch refuses a line whose external id is on the other side of the pool boundary.
func poolMismatch(externalID string, inPool bool) error {
	if inPool {
		return fmt.Errorf("external_id %q is an item of the calibration pool; production items need an id of their own", externalID)
	}
	return fmt.Errorf("external_id %q is a production item; pool items need an id of their own", externalID)
}

// parseLine decodes and validates one line, without the database (parsedLine); names are
// newKeyNames of the project's schema.
func parseLine(p *workflow.Project, l rawLine, pool bool, names *keyNames) parsedLine {
	out := parsedLine{parsed: parsed{n: l.n}}
	var line ItemLine
	if len(l.data) > decodeFastBytes || !scanItemLine(l.data, &line, names) {
		if err := decodeLine(l.data, &line); err != nil {
			out.err = lineRefusal(err)
			return out
		}
	}
	if strings.TrimSpace(line.ExternalID) == "" {
		out.err = errors.New("external_id is required")
		return out
	}
	lang, err := p.ItemLanguage(line.Language)
	if err != nil {
		out.err = err
		return out
	}
	line.Language = lang

	item := tasks.Item{ExternalID: line.ExternalID, Inputs: line.Inputs, Meta: line.Meta}
	schema := p.ImportSchema()
	if pool {
		schema = p.Schema // note: pool items are answered with the labeling form
	}
	if out.err = schema.ValidateItem(item); out.err != nil {
		return out
	}
	out.refs = assetRefs(p.Schema, item)
	out.item, out.gt, out.late = lineItem(p, line, item, pool)
	if out.gt != nil {
		out.answers = names.encodeAnswers(out.gt.Answers) // note: as workflow.Encode writes them
	}
	return out
}

// lineItem is the item of a valid line and the ground truth it comes with (a pool item's gold
// answer), or the reason its gold or ground truth is refused.
func lineItem(p *workflow.Project, line ItemLine, item tasks.Item, pool bool) (*store.Item, *ImportedTruth, error) {
	if line.Gold && !pool {
		return goldItem(p, line)
	}
	if pool {
		if err := checkGold(p.Schema, line.GroundTruth); err != nil {
			return nil, nil, err
		}
		it := newItem(p, line)
		it.Stage = flow.StageCalibration
		return it, line.GroundTruth, nil
	}
	truth, err := checkTruth(p.Schema, item, line.GroundTruth)
	if err != nil {
		return nil, nil, err
	}
	it := newItem(p, line)
	switch {
	case truth != nil:
		it.Stage = flow.StageDone
		if p.SpotChecked(line.ExternalID) {
			it.Stage, it.SpotCheck = flow.StageLabel, true
		}
	case it.Stage == flow.StageLabel && len(p.Schema.MissingQuestions(item)) == len(p.Schema.Questions):
		// note: nothing is left for a person to answer, so the system decides the item
		truth = &ImportedTruth{Answers: missingAnswers(p.Schema), Provenance: flow.ProvenanceRule,
			Note: "every question needs an input the item lacks"}
		it.Stage = flow.StageDone
	}
	if truth != nil {
		it.GTRevision = 1 // note: its first ground truth is written with it (groundTruths)
	}
	return it, truth, nil
}

func newItem(p *workflow.Project, line ItemLine) *store.Item {
	it := &store.Item{ProjectID: p.ID, ExternalID: line.ExternalID, Inputs: encodeObject(line.Inputs), Language: line.Language,
		Stage: p.FirstStageOf(tasks.Item{ExternalID: line.ExternalID, Inputs: line.Inputs})}
	if len(line.Meta) > 0 {
		it.Meta = encodeObject(line.Meta)
	}
	return it
}

// goldItem is the item of a gold line: in stage gold with its gold answers, which are never
// ground truth.
func goldItem(p *workflow.Project, line ItemLine) (*store.Item, *ImportedTruth, error) {
	if line.GroundTruth == nil {
		return nil, nil, tasks.Field("gold", "ground_truth_required", "a gold item needs ground_truth with its gold answers")
	}
	if p.Policy.CriteriaStage != nil {
		return nil, nil, tasks.Field("gold", "invalid_value", "gold items are labeled directly; this project writes criteria first")
	}
	if err := tasks.Prefixed(p.Schema.ValidateAnswers(line.GroundTruth.Answers), "ground_truth.answers."); err != nil {
		return nil, nil, err
	}
	it := newItem(p, line)
	it.Stage, it.Gold = flow.StageGold, workflow.Encode(line.GroundTruth.Answers)
	return it, nil, nil
}

// checkTruth validates imported ground truth against the item and returns it completed (the
// questions the item cannot have answered set to "missing"). Constructed truth answers every
// required question; a rule's answers only the questions it decides.
func checkTruth(schema *tasks.Schema, item tasks.Item, gt *ImportedTruth) (*ImportedTruth, error) {
	if gt == nil {
		return nil, nil
	}
	if gt.Provenance != flow.ProvenanceRule && gt.Provenance != flow.ProvenanceConstructed {
		return nil, fmt.Errorf("ground_truth.provenance must be %q or %q", flow.ProvenanceRule, flow.ProvenanceConstructed)
	}
	validate := schema.ValidateItemAnswers
	if gt.Provenance == flow.ProvenanceRule { // note: a rule decides what it decides; nothing else is invented for it
		if len(gt.Answers) == 0 {
			return nil, tasks.Field("ground_truth.answers", tasks.CodeRequired, "a rule gives at least one answer")
		}
		validate = schema.ValidateGivenItemAnswers
	}
	answers, err := validate(item, gt.Answers)
	if err != nil {
		return nil, tasks.Prefixed(err, "ground_truth.answers.")
	}
	out := *gt
	out.Answers = answers
	return &out, nil
}

// missingAnswers answers every question "missing".
func missingAnswers(schema *tasks.Schema) tasks.Answers {
	out := tasks.Answers{}
	for _, q := range schema.Questions {
		out[q.Key] = json.RawMessage(`"` + tasks.AnswerMissing + `"`)
	}
	return out
}

// checkGold validates the gold answer of a pool item: answers of the schema's questions, any of
// which may be left out, and no provenance (gold is never ground truth).
func checkGold(schema *tasks.Schema, gt *ImportedTruth) error {
	if gt == nil {
		return nil
	}
	if gt.Provenance != "" || gt.Note != "" {
		return tasks.Field("ground_truth.provenance", "invalid_value", "the gold answer of a calibration pool item has only answers")
	}
	return tasks.Prefixed(answerErrors(schema, gt.Answers), "ground_truth.answers.")
}
