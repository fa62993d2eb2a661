#!/bin/sh
# Interleaved load test of two builds: round after round, `arbiter loadtest` runs one round
# (annotation, then pgbench's submit.sql and unit.sql at the same client count) against build A's
# server, then one against build B's, so that each build's ratio to unit.sql is measured against
# a yardstick taken in the same minutes, and both builds meet the same load from the machine.
# Each server has a database of its own; the first round creates the project, the next reuse it.
#
#   deploy/bench/interleave.sh ROUNDS NAME_A URL_A DB_A NAME_B URL_B DB_B [loadtest flags...]
#   e.g. deploy/bench/interleave.sh 3 main http://127.0.0.1:18711 'postgres://…/arbiter_a?sslmode=disable' \
#          branch http://127.0.0.1:18712 'postgres://…/arbiter_b?sslmode=disable' --clients 16 --items 100000 --duration 30s
#
# ARBITER (default: arbiter on the PATH) runs the load test; ARBITER_ADMIN_EMAIL and
# ARBITER_ADMIN_PASSWORD (or ARBITER_TOKEN) are the servers' administrator. Prints one line per
# round and build, then min / median / max per build.
set -eu
rounds=$1 na=$2 ua=$3 da=$4 nb=$5 ub=$6 db=$7
shift 7
flags="$*" # note: the load test's flags, none with spaces in its value
arbiter=${ARBITER:-arbiter}
out=$(mktemp -d)
pa="" pb=""
for r in $(seq 1 "$rounds"); do
	for side in a b; do
		if [ $side = a ]; then n=$na u=$ua d=$da p=$pa; else n=$nb u=$ub d=$db p=$pb; fi
		f="$out/$n.$r"
		load=$(cut -d' ' -f1-3 /proc/loadavg)
		# shellcheck disable=SC2086 # the flags are split on purpose
		"$arbiter" loadtest --server "$u" --database-url "$d" ${p:+--project "$p"} --rounds 1 --progress 0 $flags >"$f" 2>&1 || { cat "$f"; exit 1; }
		grep -q 'each acknowledged submit stored exactly once' "$f" || { cat "$f"; exit 1; }
		[ -n "$p" ] || p=$(sed -n 's/^project \([^:]*\):.*/\1/p' "$f")
		if [ $side = a ]; then pa=$p; else pb=$p; fi
		sps=$(sed -n 's/.*submits [0-9]* (\([0-9.]*\)\/s).*/\1/p' "$f" | head -1)
		tps=$(sed -n 's/.*unit\.sql [0-9]* clients [^:]*: \([0-9]*\) tps.*/\1/p' "$f")
		ratio=$(sed -n 's/.*unit\.sql.*submits\/s ÷ tps = \([0-9.]*\).*/\1/p' "$f")
		p99=$(sed -n 's/.*claim p50 [^ ]* p95 [^ ]* p99 \([^ ]*\).*/\1/p' "$f" | head -1)
		echo "round $r $n: submits/s $sps, unit.sql $tps tps, ratio $ratio, claim p99 $p99, load $load" | tee -a "$out/summary"
	done
done
for n in "$na" "$nb"; do
	for k in submits/s ratio; do
		grep " $n: " "$out/summary" | sed -n "s|.*$k \([0-9.]*\).*|\1|p" | sort -n |
			awk -v n="$n" -v k="$k" '{v[NR]=$1} END {printf "%s %s min / median / max: %s / %s / %s\n", n, k, v[1], v[int((NR+1)/2)], v[NR]}'
	done
done
echo "logs in $out"
