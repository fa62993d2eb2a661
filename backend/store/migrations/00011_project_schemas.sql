-- Every version of a project's task schema; annotations keep the version they were made with.
-- +goose Up
CREATE TABLE project_schemas (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    schema     TEXT NOT NULL,
    hash       TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (project_id, version)
);

-- +goose Down
DROP TABLE project_schemas;
