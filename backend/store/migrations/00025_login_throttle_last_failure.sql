-- Failed logins are remembered until their key has been quiet for a window: the time of the
-- last failure decides, so a steady attacker never sees the count reset.
-- +goose Up
ALTER TABLE login_throttle ADD COLUMN last_failure_at TIMESTAMP;
UPDATE login_throttle SET last_failure_at = window_start;

-- +goose Down
ALTER TABLE login_throttle DROP COLUMN last_failure_at;
