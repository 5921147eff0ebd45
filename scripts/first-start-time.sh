#!/usr/bin/env bash
# Issue 25 item 8: how long a fresh clone's `npm start` takes until both services answer /health.
# Run in a clone after `npm ci`; each run deletes what a fresh clone does not have (data/, the
# service bundles and the web app's build) and starts with NODE_ENV unset, as a newcomer does.
#   scripts/first-start-time.sh [runs=3] [accounting port=3600]
# Prints one line per run (both /health answering, then / serving the web app) and the median of the
# first, in seconds.
set -u
runs=${1:-3}
port=${2:-3600}
times=()
for i in $(seq 1 "$runs"); do
  rm -rf data services/*/dist apps/accounting-web/dist
  log=$(mktemp)
  start=$(date +%s.%N)
  env -u NODE_ENV ACCOUNTING_PORT="$port" REMITTANCE_PORT="$((port + 1))" LOG_LEVEL=warn \
    node --import tsx scripts/start-all.ts >"$log" 2>&1 &
  pid=$!
  ok=0
  for _ in $(seq 1 3000); do
    if curl -sf -o /dev/null "http://127.0.0.1:$port/health" &&
      curl -sf -o /dev/null "http://127.0.0.1:$((port + 1))/api/health"; then
      ok=1
      break
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  end=$(date +%s.%N)
  # Then the web app at / (built while the services start, so it may come later).
  web=""
  if [ "$ok" = 1 ]; then
    for _ in $(seq 1 1500); do
      if curl -sf -o /dev/null -H 'accept: text/html' "http://127.0.0.1:$port/"; then
        web=$(echo "$(date +%s.%N) - $start" | bc)
        break
      fi
      sleep 0.1
    done
  fi
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if [ "$ok" = 1 ]; then
    t=$(echo "$end - $start" | bc)
    times+=("$t")
    printf 'run %d: both listening after %.1f s, web app at / after %.1f s (load average %s)\n' "$i" "$t" "${web:-0}" "$(cut -d' ' -f1 /proc/loadavg)"
  else
    echo "run $i: did not answer; output:" && cat "$log"
  fi
  grep '^\[start\]' "$log" | sed 's/^/    /'
  rm -f "$log"
done
if [ "${#times[@]}" -gt 0 ]; then
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
  printf 'median of %d: %.1f s\n' "${#times[@]}" "$median"
fi
