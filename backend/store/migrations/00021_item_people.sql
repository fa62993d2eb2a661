-- Who has worked on an item, and in which stage they first did: the database's own record of
-- the rule that nobody works an item in two roles. The primary key makes two claims of the same
-- person on the same item (say a label and a review, at the same moment) meet in one row, so
-- only one stage can win; releasing an assignment keeps the row, so a reviewer who read a label
-- never labels that item afterwards.
-- A reviewer may review every label of an item (one review per label), so the once-per-stage
-- rule counts reviews per label rather than per item.
-- +goose Up
CREATE TABLE item_people (
    item_id    TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id),
    stage      TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (item_id, user_id)
);
INSERT INTO item_people (item_id, user_id, stage, created_at)
SELECT item_id, user_id, MIN(stage), MIN(created_at) FROM assignments GROUP BY item_id, user_id;
DROP INDEX assignments_once_per_stage_key;
CREATE UNIQUE INDEX assignments_once_per_stage_key ON assignments (item_id, user_id, stage) WHERE stage <> 'review';
CREATE UNIQUE INDEX assignments_one_review_per_label_key ON assignments (target_id, user_id) WHERE stage = 'review';

-- +goose Down
DROP INDEX assignments_one_review_per_label_key;
DROP INDEX assignments_once_per_stage_key;
CREATE UNIQUE INDEX assignments_once_per_stage_key ON assignments (item_id, user_id, stage);
DROP TABLE item_people;
