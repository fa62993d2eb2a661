-- Units to label. stage is where the item is in the workflow:
-- criteria, label, review, adjudicate, done, dropped. Ground truth lives in
-- ground_truth_revisions; gt_revision is the newest one (0: none).
-- +goose Up
CREATE TABLE items (
    id             TEXT PRIMARY KEY,
    project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    external_id    TEXT NOT NULL,
    parent_id      TEXT,
    inputs         TEXT NOT NULL,
    meta           TEXT,
    stage          TEXT NOT NULL,
    flag           TEXT,
    drop_reason    TEXT,
    spot_check     BOOLEAN NOT NULL DEFAULT FALSE,
    gt_revision    INTEGER NOT NULL DEFAULT 0,
    version        INTEGER NOT NULL DEFAULT 1,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX items_project_external_key ON items (project_id, external_id);
CREATE INDEX items_queue_idx ON items (project_id, stage, id);

-- +goose Down
DROP TABLE items;
