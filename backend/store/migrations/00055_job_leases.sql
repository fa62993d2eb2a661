-- The lease of a running background job: the replica working it renews beat_at every few
-- seconds, and a job whose lease has not been renewed for the lease's bound is rescued (its
-- replica died or stopped). attempt is the queue's attempt number, so a lease taken by a later
-- attempt of the same job is never renewed by an earlier one.
-- +goose Up
CREATE TABLE job_leases (
    job_id  BIGINT PRIMARY KEY,
    attempt INTEGER NOT NULL,
    beat_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE job_leases;
