package store

import "github.com/arbiter-annotation/arbiter/backend/store/jobleases"

// JobLeases is the table of the running background jobs' leases.
func (s *Store) JobLeases() jobleases.Table { return jobleases.New(s.db) }
