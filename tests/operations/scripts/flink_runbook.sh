#!/usr/bin/env bash
# An upgrade runbook written against Flink's command line, as it is run against `flink`:
# every command's exit code is checked, and the job id and savepoint paths are read from the
# lines Flink's CLI prints. $FLINK is the command (`flink`, or `pyflink-compat`).
#
# Usage: FLINK=<command> flink_runbook.sh <job.py> <input dir> <output dir> <savepoint dir>
# It prints one line per step, `step: <what> <value>`, and exits 0 when every step went as with
# Flink, else with the code of the step that did not (or 99 when a line could not be parsed).
set -u
FLINK=${FLINK:-flink}
JOB=$1 IN=$2 OUT=$3 SAVEPOINTS=$4

fail() { echo "failed: $1" >&2; exit "${2:-99}"; }

# deploy, detached: Flink prints `Job has been submitted with JobID <32 hex digits>`
out=$($FLINK run -d -py "$JOB" "$IN" "$OUT" orders) || fail "run -d" $?
JOB_ID=$(printf '%s\n' "$out" | sed -n 's/^Job has been submitted with JobID \([0-9a-f]\{32\}\)$/\1/p')
[ -n "$JOB_ID" ] || fail "no JobID line in: $out"
echo "step: submitted $JOB_ID"

# the job is listed as running: `<dd.MM.yyyy HH:mm:ss> : <job id> : <name> (RUNNING)`
out=$($FLINK list -r) || fail "list -r" $?
printf '%s\n' "$out" | grep -Eq "^[0-9]{2}\.[0-9]{2}\.[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} : $JOB_ID : orders \(RUNNING\)$" \
    || fail "job not listed as running in: $out"
echo "step: listed RUNNING"

# a savepoint: `Savepoint completed. Path: file:/...`
out=$($FLINK savepoint "$JOB_ID" "$SAVEPOINTS") || fail "savepoint" $?
SAVEPOINT=$(printf '%s\n' "$out" | sed -n 's/^Savepoint completed\. Path: \(file:.*\)$/\1/p')
[ -n "$SAVEPOINT" ] || fail "no savepoint path in: $out"
echo "step: savepoint $SAVEPOINT"

# stop with a savepoint: the same line
out=$($FLINK stop --savepointPath "$SAVEPOINTS" "$JOB_ID") || fail "stop" $?
STOPPED=$(printf '%s\n' "$out" | sed -n 's/^Savepoint completed\. Path: \(file:.*\)$/\1/p')
[ -n "$STOPPED" ] || fail "no stop savepoint path in: $out"
echo "step: stopped $STOPPED"

# a request to a job that no longer runs fails with exit code 1
$FLINK cancel "$JOB_ID" >/dev/null 2>&1
code=$?
[ "$code" -eq 1 ] || fail "cancel of a stopped job exited $code, not 1" 99
echo "step: cancel of the stopped job exited 1"

# resume from the stop's savepoint, exactly as Flink printed its path
out=$($FLINK run -d -s "$STOPPED" -py "$JOB" "$IN" "$OUT" orders) || fail "run -d -s" $?
RESUMED=$(printf '%s\n' "$out" | sed -n 's/^Job has been submitted with JobID \([0-9a-f]\{32\}\)$/\1/p')
[ -n "$RESUMED" ] && [ "$RESUMED" != "$JOB_ID" ] || fail "no new JobID line in: $out"
echo "step: resumed $RESUMED"

out=$($FLINK cancel "$RESUMED") || fail "cancel" $?
printf '%s\n' "$out" | grep -qx "Cancelled job $RESUMED\." || fail "no cancel line in: $out"
echo "step: cancelled $RESUMED"

# a configuration directory that does not exist: exit code 31
FLINK_CONF_DIR="$SAVEPOINTS/no-such-conf" $FLINK list >/dev/null 2>&1
code=$?
[ "$code" -eq 31 ] || fail "list with a missing FLINK_CONF_DIR exited $code, not 31" 99
echo "step: missing FLINK_CONF_DIR exited 31"
