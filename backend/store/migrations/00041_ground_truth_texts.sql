-- The free-text answers kept with a ground-truth revision: per text question, every accepted
-- label's answer (and the adjudicator's first when adjudicated), as
-- {"question": [{"author", "role", "text"}]}. Consensus decides the scores; the evidence and
-- rationales behind them are kept here instead of being dropped.
-- +goose Up
ALTER TABLE ground_truth_revisions ADD COLUMN texts TEXT;

-- +goose Down
ALTER TABLE ground_truth_revisions DROP COLUMN texts;
