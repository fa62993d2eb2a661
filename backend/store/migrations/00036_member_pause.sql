-- A member paused after failing gold until a lead lifts it; gold_since starts the sliding gold
-- window over when a pause is lifted.
-- +goose Up
ALTER TABLE project_members ADD COLUMN paused BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE project_members ADD COLUMN gold_since TIMESTAMP;

-- +goose Down
ALTER TABLE project_members DROP COLUMN gold_since;
ALTER TABLE project_members DROP COLUMN paused;
