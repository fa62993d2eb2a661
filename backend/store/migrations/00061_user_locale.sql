-- The language of a user's interface: 'en', 'zh-CN', or '' when the user has not chosen one
-- (the browser's language applies then).
-- +goose Up
ALTER TABLE users ADD COLUMN locale TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN locale;
