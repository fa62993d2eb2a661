package store

import "gorm.io/gorm/clause"

// lockingUpdate is SELECT ... FOR UPDATE.
func lockingUpdate() clause.Locking { return clause.Locking{Strength: "UPDATE"} }

// onConflictUpdate is INSERT ... ON CONFLICT (cols) DO UPDATE SET the given columns.
func onConflictUpdate(cols []string, update ...string) clause.OnConflict {
	cs := make([]clause.Column, len(cols))
	for i, c := range cols {
		cs[i] = clause.Column{Name: c}
	}
	return clause.OnConflict{Columns: cs, DoUpdates: clause.AssignmentColumns(update)}
}
