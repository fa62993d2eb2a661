-- Failed login attempts per account and per client address, shared by every replica.
-- +goose Up
CREATE TABLE login_throttle (
    key          TEXT PRIMARY KEY,
    failures     INTEGER NOT NULL,
    window_start TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE login_throttle;
