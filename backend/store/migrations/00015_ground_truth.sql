-- Ground truth of an item, one row per revision; provenance is unanimous, majority, single,
-- adjudicated, rule or constructed.
-- +goose Up
CREATE TABLE ground_truth_revisions (
    item_id     TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    answers     TEXT NOT NULL,
    provenance  TEXT NOT NULL,
    decided_by  TEXT,
    rationale   TEXT,
    details     TEXT,
    created_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (item_id, revision)
);

-- +goose Down
DROP TABLE ground_truth_revisions;
