-- The gold answers of calibration pool items (never ground truth), and the lead's feedback
-- notes on an (item, question) of a closed round.
-- +goose Up
CREATE TABLE calibration_gold (
    item_id    TEXT PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    answers    TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE calibration_notes (
    id         TEXT PRIMARY KEY,
    round_id   TEXT NOT NULL REFERENCES calibration_rounds (id) ON DELETE CASCADE,
    item_id    TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    question   TEXT NOT NULL,
    note       TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX calibration_notes_round_idx ON calibration_notes (round_id, item_id);

-- +goose Down
DROP TABLE calibration_notes;
DROP TABLE calibration_gold;
