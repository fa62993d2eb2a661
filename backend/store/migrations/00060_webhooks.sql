-- A project's webhooks: where its events are posted, which events, and the secret deliveries
-- are signed with (Standard Webhooks). Each delivery of one event to one webhook is a row of
-- webhook_deliveries, updated at each attempt; its id is the webhook-id header receivers
-- deduplicate on.
-- +goose Up
CREATE TABLE webhooks (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    events     TEXT NOT NULL,
    secret     TEXT NOT NULL,
    enabled    BOOLEAN NOT NULL DEFAULT TRUE,
    created_by TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX webhooks_project ON webhooks (project_id);

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event           TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    response_status INTEGER,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    delivered_at    TIMESTAMP
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
