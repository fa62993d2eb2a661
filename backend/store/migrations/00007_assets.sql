-- Media uploaded to a project; the bytes live in the blob store under blob_key.
-- +goose Up
CREATE TABLE assets (
    id           TEXT PRIMARY KEY,
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    blob_key     TEXT NOT NULL,
    filename     TEXT NOT NULL DEFAULT '',
    content_type TEXT NOT NULL,
    bytes        BIGINT NOT NULL,
    sha256       TEXT NOT NULL,
    created_by   TEXT NOT NULL REFERENCES users (id),
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX assets_project_sha_idx ON assets (project_id, sha256);

-- +goose Down
DROP TABLE assets;
