-- Scopes of personal access tokens, a JSON array of "read", "annotate", "manage", "admin".
-- Tokens made before scopes existed keep what they could do, except administration, which a
-- token has only when its owner asks for it.
-- +goose Up
ALTER TABLE personal_access_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT '["read","annotate","manage"]';

-- +goose Down
ALTER TABLE personal_access_tokens DROP COLUMN scopes;
