package rowcache

import (
	"database/sql"
	"errors"
	"regexp"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// Tables are the tables whose rows every request reads to authenticate and authorize.
var Tables = []string{"users", "personal_access_tokens", "projects", "project_members"}

// Neutral is the gorm setting that marks a write changing nothing a cached row is used for
// (the time a token was last used): db.Set(rowcache.Neutral, true).
const Neutral = "arbiter:cache_neutral"

// rawWrite finds the table a raw INSERT, UPDATE or DELETE writes.
var rawWrite = regexp.MustCompile(`(?is)^\s*(?:insert\s+into|update|delete\s+from)\s+["` + "`" + `]?(\w+)`)

// Notifier is how a write tells the other replicas: through the database's pool, or the
// write's own transaction, on the deployment's schema. SQLite has none (its process is alone).
type Notifier struct {
	Pool   Querier
	Schema string
}

// Watch registers gorm callbacks for every statement that writes rows of a cached table: the
// cache is cleared at the write and again when it commits, and with a notifier every replica is
// told and acknowledges before the write is answered.
func (c *Cache) Watch(db *gorm.DB, n *Notifier) error {
	return watch(db, func(db *gorm.DB) { c.wrote(db, n) })
}

// wrote handles one write to a cached table.
func (c *Cache) wrote(db *gorm.DB, n *Notifier) {
	c.Clear()
	ctx := db.Statement.Context
	tx, inTx := db.Statement.ConnPool.(*sql.Tx)
	if inTx && c.noted(tx) {
		return
	}
	var ch change
	if n != nil {
		q := n.Pool
		if inTx {
			q = tx
		}
		var err error
		if ch, err = c.notify(ctx, q, n.Schema); err != nil {
			db.AddError(err)
			return
		}
	}
	if inTx {
		c.changed(tx, ch)
		return
	}
	c.Clear()
	c.await(ctx, ch)
}

// watch registers gorm callbacks that call changed for every statement that wrote rows of a
// cached table, through gorm's builders or as raw SQL.
func watch(db *gorm.DB, changed func(*gorm.DB)) error {
	after := func(db *gorm.DB) {
		if db.Error == nil && db.RowsAffected > 0 && writesCached(db) {
			changed(db)
		}
	}
	cb := db.Callback()
	return errors.Join(
		cb.Create().After("gorm:create").Register("arbiter:cache", after),
		cb.Update().After("gorm:update").Register("arbiter:cache", after),
		cb.Delete().After("gorm:delete").Register("arbiter:cache", after),
		cb.Raw().After("gorm:raw").Register("arbiter:cache", after),
	)
}

// writesCached reports whether the statement db ran wrote a cached table.
func writesCached(db *gorm.DB) bool {
	if neutral, _ := db.Get(Neutral); neutral == true {
		return false
	}
	table := db.Statement.Table
	if db.Statement.SQL.Len() > 0 && (table == "" || db.Statement.Schema == nil) {
		if m := rawWrite.FindStringSubmatch(db.Statement.SQL.String()); m != nil {
			table = m[1]
		}
	}
	if i := strings.IndexAny(table, " \t"); i > 0 {
		table = table[:i]
	}
	return slices.Contains(Tables, table)
}
