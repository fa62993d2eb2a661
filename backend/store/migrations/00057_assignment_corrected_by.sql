-- A label a reviewer corrected records who corrected it, so that the corrected answers and text
-- are credited to the reviewer. Labels corrected before are filled in from their review.
-- +goose Up
ALTER TABLE assignments ADD COLUMN corrected_by TEXT;
UPDATE assignments SET corrected_by = (
    SELECT r.user_id FROM assignments r
    WHERE r.stage = 'review' AND r.target_id = assignments.id AND r.status = 'submitted' AND r.verdict = 'correct'
    ORDER BY r.submitted_at, r.id LIMIT 1)
WHERE stage = 'label' AND review_status = 'corrected';

-- +goose Down
ALTER TABLE assignments DROP COLUMN corrected_by;
