-- A form in passes with pass_mode own_queue labels an item's passes in order, each by other
-- people: the item records the pass whose labels it is collecting (0 for the first, and for every
-- item of every other project).
-- +goose Up
ALTER TABLE items ADD COLUMN pass INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE items DROP COLUMN pass;
