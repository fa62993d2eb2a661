// Package backend_test holds the rule of the backend's layers: every import points down.
package backend_test

import (
	"go/build"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/arbiter-annotation/arbiter/"

// layers are the module's packages from the bottom up; a package may import packages of lower
// layers only, never one of its own layer or above. docs/architecture.md draws this picture.
var layers = [][]string{
	{"tasks", "agreement"}, // pure: no I/O of their own, never the backend
	{"exports"},
	{"backend/flow", "backend/blob", "backend/config", "backend/store/migrations", "backend/store/rowcache", "backend/store/rawscan", "backend/store/bulk", "backend/store/jobleases", "backend/store/hooks"},
	{"backend/store"},
	{"backend/auth", "backend/media", "backend/testenv", "backend/webhooks"},
	{"backend/workflow"},
	{"backend/insight", "backend/imports", "backend/projects"},
	{"backend/calibration", "backend/releases"},
	{"backend/jobs"},
	{"backend/api"},
	{"backend/cli"},
	{"backend/cmd/arbiter"},
}

// outside are module packages with no place in the layers (imported by the CLI only).
var outside = []string{"deploy/bench", "frontend", "tasks/internal/mediagen"}

func layerOf(pkg string) int {
	for i, l := range layers {
		if slices.Contains(l, pkg) {
			return i
		}
	}
	return -1
}

// TestImportsPointDown: no package imports one of its own layer or above it, and every
// backend package has a layer (a new package must be placed in the picture).
func TestImportsPointDown(t *testing.T) {
	for i, l := range layers {
		for _, pkg := range l {
			p, err := build.ImportDir(filepath.Join("..", pkg), 0)
			if err != nil {
				t.Fatalf("%s: %v", pkg, err)
			}
			for _, imp := range p.Imports {
				dep, ok := strings.CutPrefix(imp, module)
				if !ok || slices.Contains(outside, dep) || dep == pkg {
					continue
				}
				switch j := layerOf(dep); {
				case j < 0:
					t.Errorf("%s imports %s, which has no layer", pkg, dep)
				case j >= i:
					t.Errorf("%s (layer %d) imports %s (layer %d): imports point down only", pkg, i, dep, j)
				}
			}
		}
	}
	for _, pkg := range backendPackages(t) {
		if layerOf(pkg) < 0 {
			t.Errorf("%s has no layer: place it in the layers of this test and in docs/architecture.md", pkg)
		}
	}
}

// backendPackages lists the folders under backend/ that hold a package's non-test Go files.
func backendPackages(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), "testdata") {
			return filepath.SkipDir
		}
		files, _ := os.ReadDir(p)
		for _, f := range files {
			if strings.HasSuffix(f.Name(), ".go") && !strings.HasSuffix(f.Name(), "_test.go") {
				if p != "." { // note: the folder itself holds only the package doc
					out = append(out, path.Join("backend", filepath.ToSlash(p)))
				}
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
