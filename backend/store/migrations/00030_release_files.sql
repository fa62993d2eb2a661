-- The files of a done release, with the size and sha256 the manifest gives them. Rows are
-- written in the transaction that marks the release done, so a failed release lists none.
-- +goose Up
CREATE TABLE release_files (
    release_id   TEXT NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
    path         TEXT NOT NULL,
    format       TEXT NOT NULL,
    bytes        BIGINT NOT NULL,
    sha256       TEXT NOT NULL,
    records      BIGINT NOT NULL,
    content_type TEXT NOT NULL,
    blob_key     TEXT NOT NULL,
    PRIMARY KEY (release_id, path)
);

-- +goose Down
DROP TABLE release_files;
