// Package bench holds the pgbench transaction that `arbiter loadtest` runs beside the
// application, so that submits per second can be read against what the same PostgreSQL server
// does with a comparable write: setup.sql creates its tables (in the schema arbiter_bench),
// submit.sql is one label: an INSERT of a ~200-byte JSON row and one counter UPDATE in a
// transaction.
package bench

import _ "embed"

// Setup creates and fills the tables of the pgbench script; it may run again.
//
//go:embed setup.sql
var Setup string

// Submit is the pgbench script of one label.
//
//go:embed submit.sql
var Submit string

// Schema is where the pgbench tables live.
const Schema = "arbiter_bench"
