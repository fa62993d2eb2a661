-- With several authors per item, criteria repeat across authors: the reviewer marks a repeat as
-- a duplicate of another criterion of the same item (status duplicate), which then makes no
-- child item of its own.
-- +goose Up
ALTER TABLE criteria ADD COLUMN duplicate_of TEXT;

-- +goose Down
ALTER TABLE criteria DROP COLUMN duplicate_of;
