-- Work of a calibration round is an assignment of stage 'calibration' that names its round.
-- A pool item may be in several rounds, so the once-per-stage rule of calibration work is once
-- per round: (round, item, user).
-- +goose Up
ALTER TABLE assignments ADD COLUMN round_id TEXT REFERENCES calibration_rounds (id) ON DELETE CASCADE;
DROP INDEX assignments_once_per_stage_key;
CREATE UNIQUE INDEX assignments_once_per_stage_key ON assignments (item_id, user_id, stage) WHERE stage <> 'review' AND stage <> 'calibration';
CREATE UNIQUE INDEX assignments_once_per_round_key ON assignments (round_id, item_id, user_id) WHERE stage = 'calibration';

-- +goose Down
DROP INDEX assignments_once_per_round_key;
DROP INDEX assignments_once_per_stage_key;
CREATE UNIQUE INDEX assignments_once_per_stage_key ON assignments (item_id, user_id, stage) WHERE stage <> 'review';
ALTER TABLE assignments DROP COLUMN round_id;
