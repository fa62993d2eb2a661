-- Whether a member may label in production when the policy requires a qualification: set by
-- passing a calibration round of the project, or by a lead.
-- +goose Up
ALTER TABLE project_members ADD COLUMN qualified BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE project_members DROP COLUMN qualified;
