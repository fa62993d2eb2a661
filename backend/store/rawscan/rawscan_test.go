package rawscan_test

import (
	"path/filepath"
	"testing"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/arbiter-annotation/arbiter/backend/store/rawscan"
)

// explaining is the SQLite dialector counting the statements gorm writes out with their values.
type explaining struct {
	*sqlite.Dialector
	n *int
}

func (d explaining) Explain(sql string, vars ...any) string {
	*d.n++
	return d.Dialector.Explain(sql, vars...)
}

func TestInto(t *testing.T) {
	var explained int
	d := sqlite.Open(filepath.Join(t.TempDir(), "t.db")).(*sqlite.Dialector)
	db, err := gorm.Open(explaining{d, &explained}, &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)").Error)
	type row struct {
		ID   int
		Name string
	}

	must(rawscan.Into(db.Raw("INSERT INTO t (id, name) VALUES (?, ?), (?, ?), (?, ?)", 1, "a", 2, "b", 3, "c"), nil))
	var all []row
	must(rawscan.Into(db.Raw("SELECT id, name FROM t ORDER BY id"), &all))
	if len(all) != 3 || all[0] != (row{1, "a"}) || all[2] != (row{3, "c"}) {
		t.Fatalf("every row into a slice: %+v", all)
	}
	var first row
	must(rawscan.Into(db.Raw("SELECT id, name FROM t WHERE id >= ? ORDER BY id", 2), &first))
	if first != (row{2, "b"}) {
		t.Fatalf("the first row into a struct: %+v", first)
	}
	n := int64(-1)
	must(rawscan.Into(db.Raw("SELECT COUNT(*) FROM t WHERE name <> ?", "b"), &n))
	if n != 2 {
		t.Fatalf("a value: %d", n)
	}
	none := row{9, "kept"}
	must(rawscan.Into(db.Raw("SELECT id, name FROM t WHERE id > 10"), &none))
	if none != (row{9, "kept"}) {
		t.Fatalf("no rows changed the struct: %+v", none)
	}
	if err := rawscan.Into(db.Raw("INSERT INTO t (id, name) VALUES (?, ?)", 1, "again"), nil); err == nil {
		t.Fatal("a failed statement gave no error")
	}
	if err := rawscan.Into(db.Raw("SELECT nope FROM t"), &all); err == nil {
		t.Fatal("a bad query gave no error")
	}
	if explained != 0 {
		t.Fatalf("Into had gorm write out %d statements with their values", explained)
	}
	must(db.Raw("SELECT id, name FROM t").Scan(&all).Error)
	if explained != 1 {
		t.Fatalf("gorm's Scan wrote out %d statements with their values: the cost Into avoids is gone, and so is the reason for Into", explained)
	}
}
