-- A project's agreement figures per stage, computed by a background job. The key is the schema
-- version and the newest label or review submit time (stamp) they were computed from;
-- requested_at is when a job was last queued.
-- +goose Up
CREATE TABLE agreement_results (
    project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    stage          TEXT NOT NULL,
    schema_version INTEGER NOT NULL DEFAULT 0,
    stamp          TIMESTAMP,
    labels         BIGINT NOT NULL DEFAULT 0,
    result         TEXT,
    computed_at    TIMESTAMP,
    requested_at   TIMESTAMP,
    PRIMARY KEY (project_id, stage)
);

-- +goose Down
DROP TABLE agreement_results;
