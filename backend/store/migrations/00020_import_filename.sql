-- The name of the file a background import came from, for the lead's list.
-- +goose Up
ALTER TABLE imports ADD COLUMN filename TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE imports DROP COLUMN filename;
