-- Calibration rounds: fixed items of the project's calibration pool, the participants who
-- label every one of them, and the pass rule (JSON: metric, threshold, questions). number
-- counts a project's rounds from 1. passed and score of a participant are written when the
-- round closes.
-- +goose Up
CREATE TABLE calibration_rounds (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,
    name       TEXT NOT NULL,
    status     TEXT NOT NULL,
    pass_rule  TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    closed_at  TIMESTAMP,
    closed_by  TEXT REFERENCES users (id)
);
CREATE UNIQUE INDEX calibration_rounds_number_key ON calibration_rounds (project_id, number);

CREATE TABLE calibration_round_items (
    round_id TEXT NOT NULL REFERENCES calibration_rounds (id) ON DELETE CASCADE,
    item_id  TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (round_id, item_id)
);

CREATE TABLE calibration_round_people (
    round_id TEXT NOT NULL REFERENCES calibration_rounds (id) ON DELETE CASCADE,
    user_id  TEXT NOT NULL REFERENCES users (id),
    passed   BOOLEAN,
    score    DOUBLE PRECISION,
    PRIMARY KEY (round_id, user_id)
);
CREATE INDEX calibration_round_people_user_idx ON calibration_round_people (user_id);

-- +goose Down
DROP TABLE calibration_round_people;
DROP TABLE calibration_round_items;
DROP TABLE calibration_rounds;
