package store

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// AuditEvent is one append-only record of a state change.
type AuditEvent struct {
	ID        string `gorm:"primaryKey"`
	ProjectID *string
	ActorID   *string
	Action    string
	Target    string
	Before    JSON
	After     JSON
	CreatedAt time.Time
}

// Audit appends an event. before and after are marshalled to JSON (nil stays NULL).
func (s *Store) Audit(ctx context.Context, projectID, actorID, action, target string, before, after any) error {
	e, err := auditEvent(projectID, actorID, action, target, before, after)
	if err != nil {
		return err
	}
	return translate(s.db.WithContext(ctx).Create(e).Error)
}

// AuditEvents lists a project's events, newest first, at most limit.
func (s *Store) AuditEvents(ctx context.Context, projectID string, limit int) ([]AuditEvent, error) {
	var es []AuditEvent
	err := s.db.WithContext(ctx).Where("project_id = ?", projectID).
		Order("created_at DESC, id DESC").Limit(limit).Find(&es).Error
	return es, translate(err)
}

func marshalOrNil(v any) (JSON, error) {
	if v == nil {
		return nil, nil
	}
	if name, ok := modelName(v); ok {
		// note: a model would write every column, hashes and hidden fields included, into a
		// trail that leads read; the owning package audits its view of the row instead.
		return nil, fmt.Errorf("audit: store.%s is a model, not a record of a change: audit a view of it", name)
	}
	b, err := json.Marshal(v)
	return JSON(b), err
}

// modelName names the store struct v is (or points to), if it is one.
func modelName(v any) (string, bool) {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t.Name(), t.Kind() == reflect.Struct && t.PkgPath() == reflect.TypeFor[Store]().PkgPath()
}
