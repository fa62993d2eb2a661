-- The author of a unit's criterion is kept from working the unit by the rule of who may work an
-- item (store/eligible.go), which reads the criteria, no longer by an item_people row written
-- for them on the unit when it was made: a project may let authors label their own criteria's
-- units (criteria_stage.authors_label), and such a row would refuse their claim. The index is
-- the rule's one probe per candidate unit.
-- +goose Up
DELETE FROM item_people WHERE stage = 'criteria' AND item_id IN (SELECT id FROM items WHERE parent_id IS NOT NULL);
CREATE INDEX criteria_child_item_idx ON criteria (child_item_id);

-- +goose Down
DROP INDEX criteria_child_item_idx;
INSERT INTO item_people (item_id, user_id, stage, created_at)
SELECT c.child_item_id, c.author_id, 'criteria', c.updated_at FROM criteria c
WHERE c.child_item_id IS NOT NULL
ON CONFLICT (item_id, user_id) DO NOTHING;
