-- A project's storage quota in bytes, set by an administrator; NULL is unlimited.
-- +goose Up
ALTER TABLE projects ADD COLUMN storage_quota BIGINT;

-- +goose Down
ALTER TABLE projects DROP COLUMN storage_quota;
