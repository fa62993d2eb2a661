package projects

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// SetupCheck is the verdict on a project setup: valid with the policy's defaults filled, or
// the problems by field path. A setup that breaks a rule is an answer, not a failed request.
type SetupCheck struct {
	Valid    bool             `json:"valid"`
	Workflow *workflow.Policy `json:"workflow,omitempty"`
	Errors   []SetupProblem   `json:"errors,omitempty"`
}

// SetupProblem is one problem of a setup at its field path ("schema.questions[2].anchors").
type SetupProblem struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// SetupDraft is a project setup being edited: the body of a project creation whose schema and
// forms are read here, not by the request decoder, so that a schema that is not one yet (an
// unknown key, a list where an object belongs) is a problem at its path like any other.
type SetupDraft struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Template    string           `json:"template"`
	Schema      json.RawMessage  `json:"schema"`
	Forms       json.RawMessage  `json:"forms"`
	Workflow    *workflow.Policy `json:"workflow"`
	Guidelines  string           `json:"guidelines"`
}

// CheckSetup validates a template or schema, its forms and a policy exactly as CreateProject
// would, without writing anything, so that a setup form can show each problem at its path
// while it is typed. The name is not checked.
func (s *Service) CheckSetup(draft SetupDraft) (*SetupCheck, error) {
	spec := ProjectSpec{Name: draft.Name, Description: draft.Description, Template: draft.Template,
		Workflow: draft.Workflow, Guidelines: draft.Guidelines}
	if strings.TrimSpace(spec.Name) == "" {
		spec.Name = "unnamed"
	}
	fe := tasks.FieldErrors{}
	if !isNull(draft.Schema) {
		spec.Schema = &tasks.Schema{}
		decodeStrict(fe, "schema", draft.Schema, spec.Schema)
	}
	if !isNull(draft.Forms) {
		decodeStrict(fe, "forms", draft.Forms, &spec.Forms)
	}
	err := fe.Err()
	if err == nil {
		var pol workflow.Policy
		if _, pol, err = spec.resolve(); err == nil {
			return &SetupCheck{Valid: true, Workflow: &pol}, nil
		}
	}
	var problems tasks.FieldErrors
	if !errors.As(err, &problems) {
		return nil, err
	}
	return &SetupCheck{Valid: false, Errors: setupProblems(problems)}, nil
}

// setupProblems lists field errors in field order.
func setupProblems(fe tasks.FieldErrors) []SetupProblem {
	out := make([]SetupProblem, 0, len(fe))
	for field, e := range fe {
		out = append(out, SetupProblem{Field: field, Code: e.Code, Message: e.Message})
	}
	slices.SortFunc(out, func(a, b SetupProblem) int { return strings.Compare(a.Field, b.Field) })
	return out
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// decodeStrict reads raw into dst refusing unknown keys; a value that does not fit is recorded
// at its path under prefix.
func decodeStrict(fe tasks.FieldErrors, prefix string, raw json.RawMessage, dst any) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return
	}
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typ):
		path := prefix
		if typ.Field != "" {
			path += "." + typ.Field
		}
		fe.Add(path, tasks.CodeInvalidType, "must be %s, not %s", jsonKind(typ.Type), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// note: encoding/json has no typed error for unknown fields; this is its documented text
		fe.Add(prefix, "unknown_field", "unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	default:
		// note: other decode errors (a media reference of the wrong shape) carry their own text
		fe.Add(prefix, tasks.CodeInvalidValue, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
}

// jsonKind names the JSON value a Go type is read from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return t.String()
}

// SchemaVersions lists a project's schema versions with how much work each was used for.
func (s *Service) SchemaVersions(ctx context.Context, projectID string) ([]SchemaVersionView, error) {
	vs, err := s.store.SchemaVersions(ctx, projectID)
	return schemaVersionViews(vs), err
}

// Archive archives a project (it leaves the project list and hands out no work) or restores it.
func (s *Service) Archive(ctx context.Context, actorID string, p *store.Project, archived bool) (*ProjectView, error) {
	out := *p
	out.ArchivedAt = nil
	if archived {
		t := s.now()
		out.ArchivedAt = &t
	}
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.SetProjectArchived(ctx, p.ID, out.ArchivedAt); err != nil {
			return err
		}
		action := map[bool]string{true: "project.archive", false: "project.restore"}[archived]
		return tx.Audit(ctx, p.ID, actorID, action, "project:"+p.ID, p.ArchivedAt, out.ArchivedAt)
	})
	if err != nil {
		return nil, err
	}
	return projectView(&out), nil
}

// DeleteProject deletes a project and everything in it, once the caller confirms by typing
// its name; the audit trail keeps the deletion. The project's files (media and release files)
// are removed afterwards.
func (s *Service) DeleteProject(ctx context.Context, actorID string, p *store.Project, confirm string) error {
	if confirm != p.Name {
		return tasks.Field("confirm", "mismatch", "type the project's name to confirm its deletion")
	}
	keys, err := s.store.AssetKeys(ctx, p.ID)
	if err != nil {
		return err
	}
	releaseKeys, err := s.store.ReleaseKeys(ctx, p.ID)
	if err != nil {
		return err
	}
	keys = append(keys, releaseKeys...)
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.DeleteProject(ctx, p.ID); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, actorID, "project.delete", "project:"+p.ID, map[string]any{"name": p.Name}, nil)
	})
	if err != nil || s.blobs == nil {
		return err
	}
	for _, k := range keys {
		s.blobs.Delete(context.WithoutCancel(ctx), k) // note: a leftover file is harmless; the rows are gone
	}
	return nil
}

// StuckStage is the waiting work of one stage that no current member can be given.
type StuckStage struct {
	Stage  flow.Stage `json:"stage"`
	Count  int64      `json:"count"`
	Capped bool       `json:"count_capped"`
	Reason string     `json:"reason"`
	// Language, when set, says the work is stuck because no member with the stage's role reads
	// this language.
	Language string `json:"language,omitempty"`
	// IDs are the first waiting items (for reviews, the labels waiting for a reviewer).
	IDs []string `json:"ids"`
}

// stuckReason says who a stage's stuck work needs: a person with the stage's role whom the rules
// of who may work an item allow (their language is reported on its own).
func stuckReason(stage flow.Stage) string {
	var says []string
	for _, r := range store.WorkRules {
		if r != store.RuleLanguage {
			says = append(says, r.Says(stage))
		}
	}
	return "needs " + article(string(stage.Role())) + " who " + strings.Join(says, " and ")
}

// Stuck lists, per stage of the policy, the waiting work that no current member can ever be
// given, with the reason; empty when nothing is stuck. A lead fixes it by adding someone with
// the role (or giving it to a member who has not touched those items).
func (s *Service) Stuck(ctx context.Context, p *workflow.Project) ([]StuckStage, error) {
	out := []StuckStage{}
	for _, stage := range flow.WorkStages {
		if !p.HasStage(stage) {
			continue
		}
		n, ids, err := s.store.StuckWork(ctx, p.ID, stage, string(stage.Role()), workflow.AvailableCap, p.Allowed())
		if err != nil {
			return nil, err
		}
		if n > 0 {
			out = append(out, StuckStage{Stage: stage, Count: n, Capped: n >= workflow.AvailableCap, Reason: stuckReason(stage), IDs: ids})
		}
		byLang, err := s.stuckLanguages(ctx, p, stage)
		if err != nil {
			return nil, err
		}
		out = append(out, byLang...)
	}
	return out, nil
}

// stuckLanguages lists a stage's waiting work in each language that no member with the stage's
// role reads.
func (s *Service) stuckLanguages(ctx context.Context, p *workflow.Project, stage flow.Stage) ([]StuckStage, error) {
	role := stage.Role()
	langs, err := s.store.StuckLanguages(ctx, p.ID, stage, string(role), workflow.AvailableCap)
	if err != nil {
		return nil, err
	}
	out := make([]StuckStage, 0, len(langs))
	for _, l := range langs {
		ids, err := s.store.StuckIDs(ctx, p.ID, stage, string(role), l.Language)
		if err != nil {
			return nil, err
		}
		out = append(out, StuckStage{Stage: stage, Count: l.Count, Capped: l.Count >= workflow.AvailableCap, Language: l.Language,
			Reason: fmt.Sprintf("needs %s who reads %s; no member with the role does", article(string(role)), l.Language), IDs: ids})
	}
	return out, nil
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
