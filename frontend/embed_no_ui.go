//go:build no_ui

// Package frontend holds the Arbiter web UI. This build was made with the
// no_ui tag, so no UI is embedded.
package frontend

import "io/fs"

// Dist reports that no UI is embedded in this build.
func Dist() (fs.FS, bool) {
	return nil, false
}
