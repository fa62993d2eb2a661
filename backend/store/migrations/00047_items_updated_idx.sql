-- The newest item change of a project in one index lookup (the key of the derived figures).
-- +goose Up
CREATE INDEX items_updated_idx ON items (project_id, updated_at);

-- +goose Down
DROP INDEX items_updated_idx;
