package store

import (
	"context"
	"encoding/json"
	"time"
)

// AuditEvent is one append-only record of a state change.
type AuditEvent struct {
	ID        string    `gorm:"primaryKey" json:"id"`
	ProjectID *string   `json:"project_id"`
	ActorID   *string   `json:"actor_id"`
	Action    string    `json:"action"`
	Target    string    `json:"target"`
	Before    JSON      `json:"before"`
	After     JSON      `json:"after"`
	CreatedAt time.Time `json:"created_at"`
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
	b, err := json.Marshal(v)
	return JSON(b), err
}
