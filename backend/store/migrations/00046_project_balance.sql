-- A project's balance targets (ratio, spread, the metadata key to count by), as JSON.
-- +goose Up
ALTER TABLE projects ADD COLUMN balance TEXT;

-- +goose Down
ALTER TABLE projects DROP COLUMN balance;
