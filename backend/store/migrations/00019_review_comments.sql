-- Per-question comments of a review, as a JSON object {question_key: text}.
-- +goose Up
ALTER TABLE assignments ADD COLUMN comments TEXT;

-- +goose Down
ALTER TABLE assignments DROP COLUMN comments;
