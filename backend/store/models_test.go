package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// models are the structs the store reads and writes with gorm: its tables, the rows its
// queries scan into, and the values that carry them. None of them is a wire shape: a response
// names its fields in a view of the package that owns the data, so a new column stays private
// until a view names it.
var models = []any{
	// tables
	store.User{}, store.RefreshToken{}, store.PersonalAccessToken{}, store.PasswordReset{},
	store.Project{}, store.Member{}, store.SchemaVersion{}, store.Invitation{}, store.Asset{},
	store.AuditEvent{}, store.Item{}, store.Assignment{}, store.Revision{}, store.GroundTruth{},
	store.Prediction{}, store.Criterion{}, store.Import{}, store.Release{}, store.ReleaseFile{},
	store.Round{}, store.RoundNote{}, store.AgreementResult{}, store.FiguresResult{},
	// rows of queries
	store.MemberView{}, store.InvitationView{}, store.SchemaVersionUse{}, store.StageCount{},
	store.Throughput{}, store.Progress{}, store.LabelRow{}, store.RoundItem{}, store.RoundPerson{},
	store.RoundCandidate{}, store.CriteriaCount{}, store.TruthRow{}, store.TruthGroup{},
	store.DecidedTruth{}, store.PredictionAnswers{}, store.CountRow{}, store.FamilyRow{},
	store.StageWork{}, store.VerdictCount{}, store.DropReasonCount{}, store.GoldAnswer{}, store.GoldLabel{},
	store.LanguageStuck{}, store.ItemTruth{}, store.ItemMeta{}, store.LoginFailures{},
	// values that carry models
	store.LockedForSubmit{}, store.Submitted{}, store.NewClaim{}, store.Event{}, store.Rejection{},
}

// notModels are the package's other exported structs: no column, no row.
var notModels = []string{"Allowed", "ItemFilter", "Maintained", "NotFoundError", "Pool", "StorageUse", "Store", "Write"}

// TestModelsCarryNoJSONTags fails on a json tag anywhere in a model, naming the field.
func TestModelsCarryNoJSONTags(t *testing.T) {
	for _, m := range models {
		for _, field := range jsonTagged(reflect.TypeOf(m), map[reflect.Type]bool{}) {
			t.Errorf("%s has a json tag: store models are not wire shapes; name the field in a view of the package that owns the data", field)
		}
	}
}

// jsonTagged lists the fields with a json tag of a store struct and of the store structs it
// holds, as "store.Type.Field `tag`".
func jsonTagged(t reflect.Type, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.PkgPath() != reflect.TypeFor[store.Store]().PkgPath() || seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("json"); ok {
			out = append(out, "store."+t.Name()+"."+f.Name+" `"+string(f.Tag)+"`")
		}
		out = append(out, jsonTagged(f.Type, seen)...)
	}
	return out
}

// TestModelsListed keeps the list whole: every exported struct of the package is a model or
// named as none, so a new one is checked from the start.
func TestModelsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, m := range models {
		listed[reflect.TypeOf(m).Name()] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var structs []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.IsExported() {
				if _, ok := ts.Type.(*ast.StructType); ok {
					structs = append(structs, ts.Name.Name)
				}
			}
			return true
		})
	}
	if len(structs) < len(models) {
		t.Fatalf("found %d exported structs in the package source, fewer than the %d models", len(structs), len(models))
	}
	for _, name := range structs {
		if !listed[name] && !slices.Contains(notModels, name) {
			t.Errorf("store.%s is neither in models nor in notModels: list it", name)
		}
	}
}

// TestAuditRefusesModels: the audit trail, which leads read, takes views and plain values;
// a model, which would write every column of its row, is refused and nothing is recorded.
func TestAuditRefusesModels(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("auditor")
		p := f.project(lead)
		for _, state := range []any{lead, *p, []store.Item{{ID: "x"}}} {
			err := f.s.Audit(f.ctx, p.ID, lead.ID, "model.audit", "project:"+p.ID, nil, state)
			if name := reflect.TypeOf(state).String(); err == nil || !strings.Contains(err.Error(), "is a model") {
				t.Errorf("auditing a %s: %v", name, err)
			}
		}
		if n := f.countRows("audit_events", "action = "+f.ph(1), "model.audit"); n != 0 {
			t.Fatalf("%d events recorded from models", n)
		}
		must(t, f.s.Audit(f.ctx, p.ID, lead.ID, "model.audit", "project:"+p.ID, store.RoleSet{store.RoleLead}, map[string]string{"name": p.Name}))
	})
}
