-- One label, as the database sees the least a submit must do: store a ~200-byte JSON answer
-- and advance its item's counter, in one transaction. Run by `arbiter loadtest` with
--   pgbench -n -c CLIENTS -j THREADS -T SECONDS -f submit.sql 'postgres://...?options=-csearch_path%3Darbiter_bench'
\set item random(1, 100000)
BEGIN;
INSERT INTO labels (item_id, answers) VALUES (:item, '{"quality": 4, "rationale": "The output follows the prompt closely; colours and composition match, one small artefact at the lower edge; lighting and shadows are consistent throughout.", "time_spent_ms": 5210}');
UPDATE items SET labels = labels + 1 WHERE id = :item;
END;
