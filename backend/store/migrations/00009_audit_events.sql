-- Append-only record of state changes: who did what, when, with the state before and after.
-- +goose Up
CREATE TABLE audit_events (
    id         TEXT PRIMARY KEY,
    project_id TEXT,
    actor_id   TEXT,
    action     TEXT NOT NULL,
    target     TEXT NOT NULL,
    before     TEXT,
    after      TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX audit_events_project_idx ON audit_events (project_id, created_at);

-- +goose Down
DROP TABLE audit_events;
