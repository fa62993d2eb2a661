-- Gold items: the gold answer of an item imported with "gold": true (stage gold), kept apart
-- from ground truth, and whether a label on a gold item matched it.
-- +goose Up
ALTER TABLE items ADD COLUMN gold TEXT;
ALTER TABLE assignments ADD COLUMN gold_correct BOOLEAN;
CREATE INDEX assignments_gold_idx ON assignments (project_id, user_id, submitted_at) WHERE gold_correct IS NOT NULL;

-- +goose Down
DROP INDEX assignments_gold_idx;
ALTER TABLE assignments DROP COLUMN gold_correct;
ALTER TABLE items DROP COLUMN gold;
