-- A form may come in passes answered in order by one person: the assignment records which pass
-- it is in (0 for the first, and for every form without passes), and each kept revision made
-- in a pass records that pass and the inputs it showed.
-- +goose Up
ALTER TABLE assignments ADD COLUMN pass INTEGER NOT NULL DEFAULT 0;
ALTER TABLE assignment_revisions ADD COLUMN pass TEXT;
ALTER TABLE assignment_revisions ADD COLUMN inputs TEXT;

-- +goose Down
ALTER TABLE assignment_revisions DROP COLUMN inputs;
ALTER TABLE assignment_revisions DROP COLUMN pass;
ALTER TABLE assignments DROP COLUMN pass;
