package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// JSON is a JSON document kept in a TEXT column, the same on SQLite and PostgreSQL.
type JSON json.RawMessage

// Value writes the document as text; an empty document is NULL.
func (j JSON) Value() (driver.Value, error) {
	if len(j) == 0 {
		return nil, nil
	}
	return string(j), nil
}

// Scan reads the document from text.
func (j *JSON) Scan(v any) error {
	switch x := v.(type) {
	case nil:
		*j = nil
	case string:
		*j = JSON(x)
	case []byte:
		*j = append(JSON(nil), x...)
	default:
		return fmt.Errorf("store.JSON: cannot scan %T", v)
	}
	return nil
}

// MarshalJSON writes the document itself (null when empty).
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}

// UnmarshalJSON keeps the raw document.
func (j *JSON) UnmarshalJSON(b []byte) error {
	*j = append((*j)[:0], b...)
	return nil
}
