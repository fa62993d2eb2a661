-- Tables of the pgbench scripts of `arbiter loadtest` (see submit.sql and unit.sql). Safe to run again.
CREATE SCHEMA IF NOT EXISTS arbiter_bench;
CREATE TABLE IF NOT EXISTS arbiter_bench.items (
    id     BIGINT PRIMARY KEY,
    labels INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS arbiter_bench.labels (
    id         BIGSERIAL PRIMARY KEY,
    item_id    BIGINT NOT NULL,
    answers    JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS arbiter_bench.assignments (
    id               BIGSERIAL PRIMARY KEY,
    item_id          BIGINT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'open',
    lease_expires_at TIMESTAMPTZ NOT NULL,
    draft            JSONB,
    answers          JSONB,
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    submitted_at     TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS assignments_item_idx ON arbiter_bench.assignments (item_id);
INSERT INTO arbiter_bench.items (id) SELECT g FROM generate_series(1, 100000) g ON CONFLICT DO NOTHING;
