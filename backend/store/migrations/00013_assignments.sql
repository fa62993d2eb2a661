-- One person's work on one item in one stage: a lease while active, then the submitted answers.
-- status: active, submitted, expired, skipped, flagged, rejected (a label a reviewer rejected).
-- review_status of a label: none, pending, claimed, approved, corrected, rejected.
-- +goose Up
CREATE TABLE assignments (
    id               TEXT PRIMARY KEY,
    project_id       TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    item_id          TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id),
    stage            TEXT NOT NULL,
    status           TEXT NOT NULL,
    schema_version   INTEGER NOT NULL,
    seed             BIGINT NOT NULL,
    shuffle          TEXT,
    lease_expires_at TIMESTAMP NOT NULL,
    draft            TEXT,
    draft_source     TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    answers          TEXT,
    target_id        TEXT,
    verdict          TEXT,
    comment          TEXT,
    rationale        TEXT,
    confidence       INTEGER,
    error_category   TEXT,
    review_status    TEXT NOT NULL DEFAULT 'none',
    effective        TEXT,
    submit_key       TEXT,
    skip_reason      TEXT,
    time_spent_ms    BIGINT NOT NULL DEFAULT 0,
    created_at       TIMESTAMP NOT NULL,
    submitted_at     TIMESTAMP
);
CREATE UNIQUE INDEX assignments_once_per_stage_key ON assignments (item_id, user_id, stage);
CREATE INDEX assignments_item_idx ON assignments (item_id, stage, status);
CREATE INDEX assignments_user_idx ON assignments (project_id, user_id, stage, status);
CREATE INDEX assignments_review_idx ON assignments (project_id, review_status);

-- +goose Down
DROP TABLE assignments;
