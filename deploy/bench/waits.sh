#!/bin/sh
# Where a database's active time goes: samples pg_stat_activity every 20 ms for SECONDS (one
# connection, the statistics snapshot cleared before each sample) and prints the share of the
# samples of active backends per wait event (CPU: running, no wait) and per statement, the
# commits that wait on the WAL and the row-lock waits summed. Run it while `arbiter loadtest`
# annotates (not during its pgbench rounds, whose statements it would count).
#
#   deploy/bench/waits.sh DATABASE SECONDS [psql connection options...]
#   e.g. deploy/bench/waits.sh arbiter_lm 20 -h 127.0.0.1 -U postgres
set -eu
db=$1 secs=$2
shift 2
psql "$@" -d "$db" -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE samples (event text, query text);
DO \$\$
BEGIN
  FOR i IN 1..($secs * 50) LOOP
    PERFORM pg_stat_clear_snapshot();
    INSERT INTO samples
      SELECT COALESCE(wait_event_type || ':' || wait_event, 'CPU'), left(regexp_replace(query, '\s+', ' ', 'g'), 50)
      FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid();
    PERFORM pg_sleep(0.02);
  END LOOP;
END
\$\$;
\pset footer off
SELECT count(*) AS samples FROM samples;
SELECT 'commits waiting on the WAL' AS what, round(100.0 * count(*) FILTER (WHERE query ILIKE 'commit%' AND event LIKE ANY (ARRAY['LWLock:WAL%', 'IO:WAL%'])) / count(*), 1) AS "%" FROM samples
UNION ALL
SELECT 'row-lock waits', round(100.0 * count(*) FILTER (WHERE event IN ('Lock:transactionid', 'Lock:tuple')) / count(*), 1) FROM samples;
SELECT event, round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS "%" FROM samples GROUP BY event ORDER BY count(*) DESC LIMIT 8;
SELECT event, query, round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS "%" FROM samples GROUP BY event, query ORDER BY count(*) DESC LIMIT 10;
SQL
