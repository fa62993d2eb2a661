-- One unit of annotation work, as the database sees the least it needs: the three transactions
-- of an annotator's claim, autosave and submit, each committed before it is acknowledged.
-- The same shape as Arbiter's work (three commits, a locked row, a lease, a draft, answers
-- with their revision and the item's count), without any of its rules. Run by `arbiter
-- loadtest` beside submit.sql; its TPS is units of work per second.
--   pgbench -n -c CLIENTS -j THREADS -T SECONDS -f unit.sql 'postgres://...?options=-csearch_path%3Darbiter_bench'
\set item random(1, 100000)
-- claim: lock the first free item from a random place and record the lease
BEGIN;
SELECT id FROM items WHERE id >= :item ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED;
INSERT INTO assignments (item_id, lease_expires_at) VALUES (:item, now() + interval '30 minutes') RETURNING id AS assignment \gset
END;
-- autosave: the draft
UPDATE assignments SET draft = '{"quality": 4, "rationale": "The output follows the prompt closely; colours and composition match, one small artefact at the lower edge."}', version = version + 1 WHERE id = :assignment;
-- submit: the answers, their revision and the item's count, together
BEGIN;
UPDATE assignments SET status = 'submitted', answers = draft, submitted_at = now(), version = version + 1 WHERE id = :assignment;
INSERT INTO labels (item_id, answers) VALUES (:item, '{"quality": 4, "rationale": "The output follows the prompt closely; colours and composition match, one small artefact at the lower edge; lighting and shadows are consistent throughout.", "time_spent_ms": 5210}');
UPDATE items SET labels = labels + 1 WHERE id = :item;
END;
