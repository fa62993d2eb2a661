// Package bench holds the pgbench scripts that `arbiter loadtest` runs beside the
// application, so that submits per second can be read against what the same PostgreSQL server
// does with comparable writes: setup.sql creates their tables (in the schema arbiter_bench);
// submit.sql is one label: an INSERT of a ~200-byte JSON row and one counter UPDATE in a
// transaction; unit.sql is one unit of annotation work in the shape Arbiter's has: claim,
// autosave and submit, three transactions.
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

// Unit is the pgbench script of one unit of annotation work (claim, autosave, submit).
//
//go:embed unit.sql
var Unit string

// Schema is where the pgbench tables live.
const Schema = "arbiter_bench"
