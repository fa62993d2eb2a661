-- Guidelines shown to everyone who works on the project, and archiving: an archived project
-- keeps its data but leaves the project list and hands out no work.
-- +goose Up
ALTER TABLE projects ADD COLUMN guidelines TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN archived_at TIMESTAMP;

-- +goose Down
ALTER TABLE projects DROP COLUMN archived_at;
ALTER TABLE projects DROP COLUMN guidelines;
