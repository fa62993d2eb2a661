package rowcache

import (
	"database/sql"
	"testing"

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
	if err := Watch(db, func(*gorm.DB) { seen++ }); err != nil {
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
