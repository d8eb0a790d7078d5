#!/bin/bash
# The whole test suite, RUNS times in a row, while two busy loops keep both cores of a 2-core
# machine busy (specs/soak.md section 5). Stops at nothing: every run is logged and summed up.
#   Tests/Soak/loaded-suite.sh [RUNS] [DIRECTORY]      (make test-loaded RUNS=10)
# Builds the tests first (not under load); then each run is `swift test --skip-build`.
# Exit status: 0 if every run passed.
set -u
runs=${1:-10}
out=${2:-.build/loaded}
swift=${SWIFT:-swift}
mkdir -p "$out"
$swift build --build-tests || exit 1
burn() { while :; do :; done; }
burn & b1=$!
burn & b2=$!
trap 'kill $b1 $b2 2>/dev/null' EXIT
summary="$out/summary.txt"
: > "$summary"
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  $swift test --skip-build > "$out/run-$i.log" 2>&1
  rc=$?
  end=$(date +%s)
  result=$(grep -a -E '^(✔|✘|━) Test run' "$out/run-$i.log" | tail -1)
  line="run $i: exit $rc, $((end - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg): ${result:-no result (crashed?)}"
  echo "$line" | tee -a "$summary"
  if [ "$rc" != 0 ]; then
    failed=$((failed + 1))
    grep -a -E '^✘ Test |Program crashed|Fatal error' "$out/run-$i.log" | grep -a -v '^✘ Test run' | cut -c1-300 | tee -a "$summary"
  fi
done
echo "$((runs - failed)) of $runs runs passed" | tee -a "$summary"
[ "$failed" = 0 ]
