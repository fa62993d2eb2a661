-- An item's language as a canonical BCP 47 tag ('' when it has none).
-- +goose Up
ALTER TABLE items ADD COLUMN language TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE items DROP COLUMN language;
