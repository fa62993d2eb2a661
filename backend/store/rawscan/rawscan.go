// Package rawscan runs a gorm statement and scans its rows as gorm's Scan does, without the
// cost Scan adds to every statement.
package rawscan

import "gorm.io/gorm"

// Into runs tx's statement (a Raw query, usually) and scans its rows into dest as
// tx.Scan(dest) would: the first row into a struct or a value, every row into a slice; dest
// is left as it was when there are none, and nil dest only runs the statement.
//
// note: Scan swaps the logger for a recorder of the statement, and the recorder has gorm
// write out every statement with its values inlined (the dialector's Explain, a regular
// expression over the SQL) whether or not anything logs: 8 % of the server's CPU under the
// annotation load test, on the claim, autosave and submit.
func Into(tx *gorm.DB, dest any) error {
	rows, err := tx.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	if dest != nil && rows.Next() {
		if err := tx.ScanRows(rows, dest); err != nil {
			return err
		}
	}
	for rows.Next() { // note: nil dest, or a struct: the rest of the rows go unread
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}
