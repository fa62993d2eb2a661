-- The generation of a user's sessions: access tokens carry the generation they were signed in,
-- and a password change, a reset or disabling the account bumps it, ending them all at once.
-- +goose Up
ALTER TABLE users ADD COLUMN session_generation INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN session_generation;
