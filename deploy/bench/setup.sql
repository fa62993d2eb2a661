-- Tables of the pgbench transaction of `arbiter loadtest` (see submit.sql). Safe to run again.
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
INSERT INTO arbiter_bench.items (id) SELECT g FROM generate_series(1, 100000) g ON CONFLICT DO NOTHING;
