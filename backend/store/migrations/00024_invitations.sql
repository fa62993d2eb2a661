-- Creating projects is a permission administrators grant (users who already created projects
-- keep it). A lead who is not an administrator adds people by invitation: the invited person
-- accepts or declines, and the lead learns nothing about whether an email has an account.
-- +goose Up
ALTER TABLE users ADD COLUMN can_create_projects BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE users SET can_create_projects = TRUE WHERE id IN (SELECT created_by FROM projects);
CREATE TABLE project_invitations (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    roles      TEXT NOT NULL,
    invited_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX project_invitations_email_key ON project_invitations (project_id, email);
CREATE INDEX project_invitations_invitee_idx ON project_invitations (email);

-- +goose Down
DROP TABLE project_invitations;
ALTER TABLE users DROP COLUMN can_create_projects;
