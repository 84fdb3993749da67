#!/usr/bin/env bash
# Run every task in tasks/ as one ccode batch (two at a time), then print one line per task —
# task, status, exit code and the last output line of its failing step — and act on the exit codes.
#   ./run-batch.sh                 # uses `ccode` from PATH; CCODE=/path/to/ccode to choose another
# Needs jq. The event stream (--json) is kept in a temp file and parsed after the batch.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ccode="${CCODE:-ccode}"
command -v jq >/dev/null || { echo "run-batch.sh needs jq (apt-get install jq)" >&2; exit 2; }

events="$(mktemp)"
trap 'rm -f "$events"' EXIT

# --non-interactive: nobody answers prompts; a step that needs a person pauses its run (exit 3)
"$ccode" run "$here"/tasks/*.yaml --jobs 2 --non-interactive --json >"$events"
batch=$?

# one row per run: task, status, exit code, "step: last line of its output" for the step that failed
rows="$(jq -r -s '
  (map(select(.type == "step.finished" and .status != "ok"))
    | map({key: .run, value: "\(.step // "?"): \(if (.output // "") != "" then .output else (.error.message // "") end
        | rtrimstr("\n") | split("\n") | last // "")"})
    | from_entries) as $failed
  | map(select(.type == "run.finished"))
  | sort_by(.task)[]
  | [.task, .status, (.exit_code | tostring), ($failed[.run] // ""), .run]
  | join("\u001f")' "$events")"

printf '%-10s %-10s %-4s %s\n' TASK STATUS EXIT "FAILING STEP: LAST LINE"
# fields are separated by the unit separator: a tab would merge empty fields
while IFS=$'\x1f' read -r task status code failing run; do
  printf '%-10s %-10s %-4s %s\n' "$task" "$status" "$code" "$failing"
done <<<"$rows"
echo

# act on each run's exit code (ccode's codes: 0 ok, 1 failed, 3 paused, 4 stopped, 5 denied)
while IFS=$'\x1f' read -r task status code failing run; do
  case "$code" in
    0) ;;
    1) echo "$task failed: full output with  ccode runs logs $run" ;;
    3) echo "$task waits for a person: ccode runs show $run, then ccode approve $run --all && ccode resume $run" ;;
    4) echo "$task was stopped by a guard: ccode resume $run once the cause is fixed" ;;
    5) echo "$task was denied by the policy: change the task (or the policy), then run it again" ;;
    *) echo "$task ended with exit $code" ;;
  esac
done <<<"$rows"

# the batch's own code is the most urgent of its runs' (2 > 1 > 5 > 4 > 3 > 130 > 0)
case "$batch" in
  0) echo "all tasks completed" ;;
  1) echo "batch failed (exit 1)" ;;
  2) echo "a task or policy is invalid: nothing ran (exit 2)" ;;
  *) echo "batch needs attention (exit $batch)" ;;
esac
exit "$batch"
