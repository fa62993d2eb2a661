-- A project's predictions in creation order: the newest one in one index lookup, and the
-- judge figures' scan.
-- +goose Up
CREATE INDEX predictions_project_idx ON predictions (project_id, created_at);

-- +goose Down
DROP INDEX predictions_project_idx;
