package store

import (
	"context"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store/rowcache"
)

// DefaultCacheTTL is how long a row read for authentication may be served from memory. It is
// a safety net only: every change made through a store clears the caches of every replica at
// once (see package rowcache).
const DefaultCacheTTL = rowcache.DefaultTTL

// CachedUser is User, served from the cache of rows read for authentication.
func (s *Store) CachedUser(ctx context.Context, id string) (*User, error) {
	return rowcache.Read(s.cache, "user\x00"+id, func() (*User, error) { return s.User(ctx, id) })
}

// CachedProject is Project, served from the cache of rows read for authorization.
func (s *Store) CachedProject(ctx context.Context, id string) (*Project, error) {
	return rowcache.Read(s.cache, "project\x00"+id, func() (*Project, error) { return s.Project(ctx, id) })
}

// CachedMember is Member, served from the cache of rows read for authorization.
func (s *Store) CachedMember(ctx context.Context, projectID, userID string) (*Member, error) {
	return rowcache.Read(s.cache, "member\x00"+projectID+"\x00"+userID, func() (*Member, error) { return s.Member(ctx, projectID, userID) })
}

// CachedAccessToken is AccessTokenByHash, served from the cache of rows read for
// authentication.
func (s *Store) CachedAccessToken(ctx context.Context, hash string) (*PersonalAccessToken, error) {
	return rowcache.Read(s.cache, "pat\x00"+hash, func() (*PersonalAccessToken, error) { return s.AccessTokenByHash(ctx, hash) })
}

// UseCache sets how long rows read for authentication may be served from memory; 0 turns the
// cache off.
func (s *Store) UseCache(ttl time.Duration) { s.cache.SetTTL(ttl) }

// currentSchema is the schema the store's tables are in (the first of its search_path).
func (s *Store) currentSchema(ctx context.Context) (string, error) {
	var schema string
	err := s.sqlDB.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema)
	return schema, err
}
