package store

import (
	"context"

	"gorm.io/gorm/clause"
)

// Setting returns the value stored under key, creating it with initial() if it is absent.
// Replicas racing on a fresh database all end up with the one value that was stored first.
func (s *Store) Setting(ctx context.Context, key string, initial func() (string, error)) (string, error) {
	var v string
	err := s.db.WithContext(ctx).Table("settings").Select("value").Where("key = ?", key).Scan(&v).Error
	if err != nil || v != "" {
		return v, translate(err)
	}
	fresh, err := initial()
	if err != nil {
		return "", err
	}
	err = s.db.WithContext(ctx).Table("settings").Clauses(clause.OnConflict{DoNothing: true}).
		Create(map[string]any{"key": key, "value": fresh, "created_at": now()}).Error
	if err != nil {
		return "", translate(err)
	}
	err = s.db.WithContext(ctx).Table("settings").Select("value").Where("key = ?", key).Scan(&v).Error
	return v, translate(err)
}
