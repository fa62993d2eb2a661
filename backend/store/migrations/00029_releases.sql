-- Releases: immutable exports of a project's ground truth, written by a background job. The row
-- and its job are inserted in one transaction; progress (records read of records_total), the
-- manifest once done and the error once failed are kept here. schema_version is the version the
-- release was asked of, so a schema change while it waits does not change what it writes.
-- status: queued, running, done, failed.
-- +goose Up
CREATE TABLE releases (
    id             TEXT PRIMARY KEY,
    project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    formats        TEXT NOT NULL,
    options        TEXT NOT NULL,
    status         TEXT NOT NULL,
    records_done   BIGINT NOT NULL DEFAULT 0,
    records_total  BIGINT NOT NULL DEFAULT 0,
    manifest       TEXT,
    error          TEXT,
    created_by     TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    finished_at    TIMESTAMP
);
CREATE INDEX releases_project_idx ON releases (project_id, created_at);

-- +goose Down
DROP TABLE releases;
