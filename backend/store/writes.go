package store

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/arbiter-annotation/arbiter/backend/store/rawscan"
)

// Write is one INSERT or UPDATE with its arguments (placeholders written as ?).
type Write struct {
	SQL  string
	Args []any
}

// apply runs writes and then one query into dest (nil: none). On PostgreSQL they travel as one
// statement, the writes as data-modifying WITH queries; on SQLite one after the other.
//
// note: on PostgreSQL the query reads the snapshot the statement started with, so it does not
// see the writes; callers must not depend on seeing them (on SQLite it would).
func (s *Store) apply(ctx context.Context, writes []Write, query string, args []any, dest any) error {
	db := s.db.WithContext(ctx)
	if s.dialect == Postgres {
		var b strings.Builder
		var all []any
		for i, w := range writes {
			b.WriteString(map[bool]string{true: "WITH ", false: ", "}[i == 0])
			fmt.Fprintf(&b, "w%d AS (%s)", i, w.SQL)
			all = append(all, w.Args...)
		}
		if query == "" {
			query = "SELECT 1"
		}
		b.WriteString("\n" + query)
		return translate(rawscan.Into(db.Raw(b.String(), append(all, args...)...), dest))
	}
	for _, w := range writes {
		if err := db.Exec(w.SQL, w.Args...).Error; err != nil {
			return translate(err)
		}
	}
	if query == "" {
		return nil
	}
	return translate(rawscan.Into(db.Raw(query, args...), dest))
}

// row is one model's columns and values, in the order of its fields.
type row struct {
	table string
	cols  []string
	vals  []any
	types []string // SQL types, for values selected rather than inserted with VALUES
}

// rowOf reads a model's columns and values as gorm would write them.
func (s *Store) rowOf(ctx context.Context, model any) (row, error) {
	st := &gorm.Statement{DB: s.db}
	if err := st.Parse(model); err != nil {
		return row{}, err
	}
	rv := reflect.ValueOf(model)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	r := row{table: st.Schema.Table}
	for _, f := range st.Schema.Fields {
		if f.DBName == "" || !f.Creatable {
			continue
		}
		// note: gorm would leave out a zero field with a default, fill a zero automatic
		// timestamp and skip a field it may not update; rows here write every field as it is,
		// so a model that needs any of that is refused rather than written differently.
		v, zero := f.ValueOf(ctx, rv)
		switch {
		case f.DefaultValue != "" || f.DefaultValueInterface != nil:
			return row{}, fmt.Errorf("%s.%s has a default: write it with gorm", st.Schema.Table, f.DBName)
		case (f.AutoCreateTime != 0 || f.AutoUpdateTime != 0) && zero:
			return row{}, fmt.Errorf("%s.%s is an automatic timestamp left zero: set it", st.Schema.Table, f.DBName)
		case !f.Updatable || f.DataType == schema.Float:
			return row{}, fmt.Errorf("%s.%s cannot be written as a plain column", st.Schema.Table, f.DBName)
		}
		if p := reflect.ValueOf(v); p.Kind() == reflect.Pointer && p.IsNil() {
			v = nil
		}
		r.cols, r.vals, r.types = append(r.cols, f.DBName), append(r.vals, v), append(r.types, sqlType(f))
	}
	return r, nil
}

// sqlType is the portable column type of a field, for a cast of a selected placeholder (whose
// type PostgreSQL cannot infer from a target column).
func sqlType(f *schema.Field) string {
	t := f.IndirectFieldType
	switch {
	case t == reflect.TypeOf(time.Time{}):
		return "TIMESTAMP"
	case t.Kind() == reflect.Bool:
		return "BOOLEAN"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return "BIGINT"
	}
	return "TEXT"
}

// insert is INSERT … VALUES of the row.
func (r row) insert() Write {
	return Write{SQL: "INSERT INTO " + r.table + " (" + strings.Join(r.cols, ", ") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?, ", len(r.cols)), ", ") + ")", Args: r.vals}
}

// insertFrom is INSERT … SELECT of the row from a WITH query or table (from, with its
// condition), with columns set to expressions of it instead of values.
func (r row) insertFrom(from string, exprs map[string]string) Write {
	sel := make([]string, len(r.cols))
	var args []any
	for i, c := range r.cols {
		if e, ok := exprs[c]; ok {
			sel[i] = e
			continue
		}
		sel[i] = "CAST(? AS " + r.types[i] + ")"
		args = append(args, r.vals[i])
	}
	return Write{SQL: "INSERT INTO " + r.table + " (" + strings.Join(r.cols, ", ") + ") SELECT " +
		strings.Join(sel, ", ") + " FROM " + from, Args: args}
}

// update is UPDATE of every column of the row but its key.
func (r row) update(key string) Write {
	var sets []string
	var args []any
	var id any
	for i, c := range r.cols {
		if c == key {
			id = r.vals[i]
			continue
		}
		sets = append(sets, c+" = ?")
		args = append(args, r.vals[i])
	}
	return Write{SQL: "UPDATE " + r.table + " SET " + strings.Join(sets, ", ") + " WHERE " + key + " = ?", Args: append(args, id)}
}

// auditEvent builds an audit event; before and after are marshalled to JSON (nil stays NULL).
func auditEvent(projectID, actorID, action, target string, before, after any) (*AuditEvent, error) {
	e := &AuditEvent{ID: newID(), Action: action, Target: target, CreatedAt: now()}
	if projectID != "" {
		e.ProjectID = &projectID
	}
	if actorID != "" {
		e.ActorID = &actorID
	}
	var err error
	if e.Before, err = marshalOrNil(before); err != nil {
		return nil, err
	}
	e.After, err = marshalOrNil(after)
	return e, err
}

// Event is an audit event to be written with other writes (see Audit).
type Event struct {
	ProjectID, ActorID, Action, Target string
	Before, After                      any
}

// EventWrite is the insert of an audit event, to be written with other writes.
func (s *Store) EventWrite(ctx context.Context, ev Event) (Write, error) {
	er, err := s.eventRow(ctx, ev)
	return er.insert(), err
}

func (s *Store) eventRow(ctx context.Context, ev Event) (row, error) {
	e, err := auditEvent(ev.ProjectID, ev.ActorID, ev.Action, ev.Target, ev.Before, ev.After)
	if err != nil {
		return row{}, err
	}
	return s.rowOf(ctx, e)
}
