-- Model judges' answers for items, used for drafts and judge evaluation.
-- +goose Up
CREATE TABLE predictions (
    item_id    TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    model      TEXT NOT NULL,
    project_id TEXT NOT NULL,
    answers    TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (item_id, model)
);

-- +goose Down
DROP TABLE predictions;
