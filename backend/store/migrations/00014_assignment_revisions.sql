-- Every save of an assignment's answers, drafts and submits alike: nothing is overwritten.
-- +goose Up
CREATE TABLE assignment_revisions (
    assignment_id TEXT NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    version       INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    answers       TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (assignment_id, version)
);

-- +goose Down
DROP TABLE assignment_revisions;
