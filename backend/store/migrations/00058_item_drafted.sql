-- An item whose checklist was refined before labeling keeps the checklist as drafted, so that a
-- release can say which entries were kept, reworded, dropped or added.
-- +goose Up
ALTER TABLE items ADD COLUMN drafted TEXT;

-- +goose Down
ALTER TABLE items DROP COLUMN drafted;
