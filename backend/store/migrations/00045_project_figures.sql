-- A project's derived figures (balance, dataset report, judge leaderboard), computed by a
-- background job. kind names the figures; key is the fingerprint of the data they were computed
-- from (schema version and the newest item change, prediction, submit and criterion);
-- requested_at is when a job was last queued.
-- +goose Up
CREATE TABLE project_figures (
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    data_key     TEXT NOT NULL DEFAULT '',
    result       TEXT,
    computed_at  TIMESTAMP,
    requested_at TIMESTAMP,
    PRIMARY KEY (project_id, kind)
);

-- +goose Down
DROP TABLE project_figures;
