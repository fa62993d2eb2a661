-- The bytes a release holds in the blob store, which count toward its project's storage quota:
-- what a running release has reserved for the files it is writing, the size of a done
-- release's files, 0 once a failed release's files are removed.
-- +goose Up
ALTER TABLE releases ADD COLUMN bytes_stored BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE releases DROP COLUMN bytes_stored;
