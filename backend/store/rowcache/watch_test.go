package rowcache

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// newTx returns a distinct transaction handle, for the bookkeeping of changes by transaction.
func newTx() *sql.Tx { return new(sql.Tx) }

type User struct {
	ID   string `gorm:"primaryKey"`
	Name string
}

type Item struct {
	ID   string `gorm:"primaryKey"`
	Name string
}

func TestWatchSeesWritesToCachedTables(t *testing.T) {
	db, err := gorm.Open(sqlite.Open(t.TempDir()+"/w.db"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&User{}, &Item{}); err != nil {
		t.Fatal(err)
	}
	var seen int
	if err := watch(db, func(*gorm.DB) { seen++ }); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		write func() error
		seen  bool
	}{
		{"create a user", func() error { return db.Create(&User{ID: "u1", Name: "ada"}).Error }, true},
		{"create an item", func() error { return db.Create(&Item{ID: "i1"}).Error }, false},
		{"update a user", func() error { return db.Model(&User{ID: "u1"}).Update("name", "grace").Error }, true},
		{"update no user", func() error { return db.Model(&User{ID: "nobody"}).Update("name", "x").Error }, false},
		{"a neutral update", func() error { return db.Set(Neutral, true).Model(&User{ID: "u1"}).Update("name", "x").Error }, false},
		{"raw update of users", func() error { return db.Exec(`UPDATE "users" SET name = 'y' WHERE id = 'u1'`).Error }, true},
		{"raw update of items", func() error { return db.Exec(`UPDATE items SET name = 'y'`).Error }, false},
		{"raw insert into users", func() error { return db.Exec(`INSERT INTO users (id, name) VALUES ('u2', 'z')`).Error }, true},
		{"delete a user", func() error { return db.Delete(&User{ID: "u2"}).Error }, true},
		{"a failed write", func() error { db.Exec(`INSERT INTO users (id) VALUES ('u1')`); return nil }, false},
	}
	for _, tc := range cases {
		before := seen
		if err := tc.write(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := seen > before; got != tc.seen {
			t.Errorf("%s: seen %v, want %v", tc.name, got, tc.seen)
		}
	}
}

// TestWatchClearsTheCache: a write to a cached table clears the cache at once; inside a
// transaction it is noted for Committed, which clears the cache again once it commits.
func TestWatchClearsTheCache(t *testing.T) {
	db, err := gorm.Open(sqlite.Open(t.TempDir()+"/c.db"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&User{}); err != nil {
		t.Fatal(err)
	}
	c, _ := newTestCache(time.Minute, true)
	if err := c.Watch(db, nil); err != nil {
		t.Fatal(err)
	}
	r := &reader{row: row{"ada"}}
	Read(c, "k", r.read)
	if err := db.Create(&User{ID: "u1"}).Error; err != nil {
		t.Fatal(err)
	}
	if Read(c, "k", r.read); r.reads != 2 {
		t.Fatalf("%d reads: a write to users left the cache as it was", r.reads)
	}
	var tx *sql.Tx
	err = db.Transaction(func(g *gorm.DB) error {
		if err := g.Create(&User{ID: "u2"}).Error; err != nil {
			return err
		}
		tx = g.Statement.ConnPool.(*sql.Tx)
		if !c.noted(tx) {
			t.Error("a write in a transaction was not noted for its commit")
		}
		Read(c, "k", r.read) // note: a read during the transaction fills the cache again
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c.Committed(context.Background(), tx, nil)
	if Read(c, "k", r.read); r.reads != 4 {
		t.Fatalf("%d reads: the commit did not clear what was read during the transaction", r.reads)
	}
}
