package migrations

import (
	"context"
	"database/sql"

	"github.com/pressly/goose/v3"
)

// SeedExpr is the seed id (metadata seed_id) of an item as migration 00052 indexes it. The
// engines share no JSON expression (PostgreSQL's ->> needs a json value, which SQLite's cast
// cannot make), so each has its own; a query must use exactly this expression for the index to
// serve it.
func SeedExpr(postgres bool) string {
	if postgres {
		return "(meta::jsonb ->> 'seed_id')"
	}
	return "json_extract(meta, '$.seed_id')"
}

// Go returns the migrations written in Go because their SQL differs between the engines.
//
//	00052: a seed family's items (metadata seed_id) in one index range, in external id order.
func Go(postgres bool) []*goose.Migration {
	return []*goose.Migration{
		goose.NewGoMigration(52,
			&goose.GoFunc{RunTx: execTx("CREATE INDEX items_seed_idx ON items (project_id, " + SeedExpr(postgres) + ", external_id)")},
			&goose.GoFunc{RunTx: execTx("DROP INDEX items_seed_idx")}),
	}
}

func execTx(stmt string) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, stmt)
		return err
	}
}
