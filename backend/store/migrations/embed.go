// Package migrations holds the versioned SQL migrations, one change per file, shared by SQLite
// and PostgreSQL.
package migrations

import "embed"

// FS holds the numbered migration files.
//
//go:embed *.sql
var FS embed.FS
