-- Free-form criteria written by annotators for an item (Omni-Reward). A lead or reviewer marks
-- each one valid, too_vague or too_specific; a valid one becomes a child item (item × criterion).
-- +goose Up
CREATE TABLE criteria (
    id            TEXT PRIMARY KEY,
    project_id    TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    item_id       TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    assignment_id TEXT NOT NULL,
    author_id     TEXT NOT NULL,
    text          TEXT NOT NULL,
    status        TEXT NOT NULL,
    reviewed_by   TEXT,
    child_item_id TEXT,
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL
);
CREATE INDEX criteria_project_status_idx ON criteria (project_id, status);

-- +goose Down
DROP TABLE criteria;
