-- Personal access tokens for scripts and the command line, stored as sha256 hashes.
-- +goose Up
CREATE TABLE personal_access_tokens (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    token_hash   TEXT NOT NULL,
    expires_at   TIMESTAMP,
    last_used_at TIMESTAMP,
    revoked_at   TIMESTAMP,
    created_at   TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX personal_access_tokens_hash_key ON personal_access_tokens (token_hash);
CREATE INDEX personal_access_tokens_user_idx ON personal_access_tokens (user_id);

-- +goose Down
DROP TABLE personal_access_tokens;
