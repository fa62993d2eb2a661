-- The newest submit of a project's stage is an index lookup (the agreement figures' key).
-- +goose Up
CREATE INDEX assignments_submitted_idx ON assignments (project_id, stage, submitted_at);

-- +goose Down
DROP INDEX assignments_submitted_idx;
