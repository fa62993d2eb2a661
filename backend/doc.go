// Package backend is the server: one folder per package, in layers whose imports point down
// (layers_test.go holds the rule, docs/architecture.md the picture). From the bottom: the
// vocabulary (flow), blobs and configuration; the store; accounts and media; the work engine
// (workflow); the areas above it — projects, imports, insight, then calibration and releases;
// the job workers; the HTTP API; the command line.
package backend
