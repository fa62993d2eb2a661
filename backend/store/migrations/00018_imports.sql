-- Background imports: the uploaded file waits in the blob store while a worker on any replica
-- reads it; progress and the final report are kept here.
-- status: queued, running, done, failed.
-- +goose Up
CREATE TABLE imports (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    status      TEXT NOT NULL,
    blob_key    TEXT NOT NULL,
    bytes_total BIGINT NOT NULL,
    bytes_done  BIGINT NOT NULL DEFAULT 0,
    lines_done  BIGINT NOT NULL DEFAULT 0,
    report      TEXT,
    error       TEXT,
    created_by  TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE INDEX imports_project_idx ON imports (project_id, created_at);

-- +goose Down
DROP TABLE imports;
