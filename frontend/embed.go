//go:build !no_ui

// Package frontend holds the Arbiter web UI. The compiled single-page app in
// dist/ (produced by `npm run build`) is embedded into the binary.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built UI rooted at dist/ and true. Builds with the no_ui
// tag return nil and false instead.
func Dist() (fs.FS, bool) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, false
	}
	return sub, true
}
