package releases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Codes of the checks made before a release starts, next to those of exports.ParseSpec.
const (
	CodeNothingDone = "nothing_done"
	CodeNoMatch     = "no_match"
)

// maxName bounds a release's name.
const maxName = 100

// scanPage is the number of items read per query when metadata is checked before a release.
const scanPage = 5000

// check validates a request against the project: the name, the formats and options
// (exports.ParseSpec), then what only the items can tell.
func (s *Service) check(ctx context.Context, p *workflow.Project, req Request) (string, *exports.Spec, error) {
	fe := tasks.FieldErrors{}
	name := strings.TrimSpace(req.Name)
	switch {
	case name == "":
		fe["name"] = tasks.FieldError{Code: tasks.CodeRequired, Message: "give the release a name, e.g. \"v1\""}
	case utf8.RuneCountInString(name) > maxName:
		fe["name"] = tasks.FieldError{Code: tasks.CodeTooLong, Message: fmt.Sprintf("a release name has at most %d characters", maxName)}
	}
	spec, err := parseSpec(p.Schema, req.Formats, req.Options)
	var specErrs tasks.FieldErrors
	if errors.As(err, &specErrs) {
		maps.Copy(fe, specErrs)
	} else if err != nil {
		return "", nil, err
	}
	if err := fe.Err(); err != nil {
		return "", nil, err
	}
	if err := s.checkMedia(ctx, p.ID, spec); err != nil {
		return "", nil, err
	}
	return name, spec, s.checkItems(ctx, p, spec, req.Options)
}

// rowGroupRows is the parquet row group size of a release that does not ask for one: a
// quarter of exports' default, since the hf writer holds a row group of every split in memory
// and a release job shares its server with the people annotating.
const rowGroupRows = 2500

// parseSpec is exports.ParseSpec with the release's own defaults: the row group size, and media
// copied (defaultMedia).
func parseSpec(schema *tasks.Schema, formats []string, options map[string]any) (*exports.Spec, error) {
	spec, err := exports.ParseSpec(schema, formats, options)
	if _, asked := options["row_group_rows"]; err == nil && !asked {
		spec.RowGroupRows = rowGroupRows
	}
	if err == nil {
		defaultMedia(spec, options)
	}
	return spec, err
}

// stagesOf lists the item stages a release reads, whatever its options: every item except the
// parents split into child units (those are released instead), gold items (their answers are a
// test of annotators, never ground truth) and the calibration pool, which is never released.
// Dropped and unresolved items are read even when the release leaves them out, so that the
// release's one tally counts them with their reasons (exports.Tally).
func stagesOf(*exports.Spec) []flow.Stage {
	return slices.DeleteFunc(slices.Clone(flow.ItemStages), func(s flow.Stage) bool {
		return s == flow.StageSplit || s == flow.StageGold || s == flow.StageCalibration
	})
}

// releasedStages lists the stages of the items a release holds: done items, and with
// include_dropped every item it reads.
func releasedStages(spec *exports.Spec) []flow.Stage {
	if !spec.IncludeDropped {
		return []flow.Stage{flow.StageDone}
	}
	return stagesOf(spec)
}

// checkItems refuses a project with nothing done, and, when the options read metadata (a
// split key, a cluster key, a filter), scans the items' metadata once: a key missing on some
// items, or a filter that keeps nothing, is reported before any job starts.
func (s *Service) checkItems(ctx context.Context, p *workflow.Project, spec *exports.Spec, options map[string]any) error {
	done, err := s.store.CountItemsInStages(ctx, p.ID, []flow.Stage{flow.StageDone})
	if err != nil {
		return err
	}
	if done == 0 {
		return tasks.Field("project", CodeNothingDone,
			"no item of this project is done yet; a release exports ground truth, so finish some items first")
	}
	if spec.Split.Key == "" && spec.Split.ClusterKey == "" && len(spec.Filter) == 0 {
		return nil
	}
	scan, err := s.scanMeta(ctx, p.ID, spec)
	if err != nil {
		return err
	}
	if scan.missing > 0 {
		field := "options.split_key"
		if spec.Split.Key == "" {
			field = "options.cluster_key"
		}
		return tasks.Field(field, scan.first.Code, "%d of the %d items to release cannot be placed in a split; the first is %q: %s",
			scan.missing, scan.matched, scan.first.ExternalID, scan.first.Message)
	}
	if scan.matched == 0 {
		return tasks.Field(filterOption(options), CodeNoMatch, "the metadata filter keeps none of the project's items")
	}
	return nil
}

// metaScan is what a scan of the items' metadata found.
type metaScan struct {
	matched, missing int
	first            *exports.RecordError
}

// scanMeta applies the spec's filter and split checks to every item a release would hold.
func (s *Service) scanMeta(ctx context.Context, projectID string, spec *exports.Spec) (*metaScan, error) {
	out := &metaScan{}
	after := ""
	for {
		page, err := s.store.ItemMetas(ctx, projectID, releasedStages(spec), after, scanPage)
		if err != nil || len(page) == 0 {
			return out, err
		}
		for _, it := range page {
			meta := map[string]json.RawMessage{}
			json.Unmarshal(it.Meta, &meta)
			if !spec.Matches(meta) {
				continue
			}
			out.matched++
			var re *exports.RecordError
			if err := spec.CheckMeta(it.ID, it.ExternalID, meta); errors.As(err, &re) {
				out.missing++
				if out.first == nil {
					out.first = re
				}
			}
		}
		after = page[len(page)-1].ID
	}
}

// filterOption names the option that set the metadata filter.
func filterOption(options map[string]any) string {
	for _, k := range slices.Sorted(maps.Keys(options)) {
		if k == "filter" || strings.HasPrefix(k, "filter.") {
			return "options." + k
		}
	}
	return "options.filter"
}

// itemStatus is an item's release status by its stage.
func itemStatus(it *store.Item) exports.Status {
	switch it.Stage {
	case flow.StageDone:
		return exports.StatusDone
	case flow.StageDropped:
		return exports.StatusDropped
	}
	return exports.StatusUnresolved
}
