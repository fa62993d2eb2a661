-- Adaptive overlap: the labels an item takes beyond the policy's overlap, one at a time while its
-- answer's posterior stays under the policy's confidence.
-- +goose Up
ALTER TABLE items ADD COLUMN extra_labels INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE items DROP COLUMN extra_labels;
