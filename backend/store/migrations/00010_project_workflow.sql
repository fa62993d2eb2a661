-- A project's task schema (versioned) and workflow policy.
-- +goose Up
ALTER TABLE projects ADD COLUMN template TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN workflow TEXT NOT NULL DEFAULT '{}';
ALTER TABLE projects ADD COLUMN schema_version INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE projects DROP COLUMN schema_version;
ALTER TABLE projects DROP COLUMN workflow;
ALTER TABLE projects DROP COLUMN template;
