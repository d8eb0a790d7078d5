#!/usr/bin/env bash
# Runs the libFuzzer targets of Fuzz/ (built by `make fuzz-build` into .build-fuzz) and prints
# one line per target: executions, coverage (edges), corpus size, findings.
#
#   Fuzz/fuzz.sh runs N     [TARGET...]   each target for N executions (make fuzz: 1000000), or
#                                         FUZZ_MAX_SECONDS (default 1200) if that comes first
#   Fuzz/fuzz.sh seconds S  [TARGET...]   each target for S seconds (make fuzz-smoke: a few)
#
# Every run first replays Fuzz/Regressions/<target>/* (inputs that once crashed, hung or leaked:
# they must pass now), then fuzzes starting from the committed seeds (Fuzz/Corpus/<target>) and
# the corpus grown by earlier runs (.build-fuzz/corpus/<target>, not committed). A finding is
# written to .build-fuzz/findings/<target>/ (crash-*, timeout-*, leak-*, oom-*) and fails the run.
# FUZZ_SEED: libFuzzer's seed (0, the default: a new one each run; make fuzz-smoke uses 1, so a
# CI run is reproducible).
set -uo pipefail
cd "$(dirname "$0")/.."

mode=${1:?usage: fuzz.sh runs N | seconds S [TARGET...]}
amount=${2:?usage: fuzz.sh runs N | seconds S [TARGET...]}
shift 2
scratch=${FUZZ_SCRATCH:-.build-fuzz}
bin=$(swift build --package-path Fuzz --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address --show-bin-path 2>/dev/null)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(ls Fuzz/Sources | grep '^Fuzz' | grep -v -E 'Common$|Support$'))
fi
case "$mode" in
  runs) limit=(-runs="$amount" -max_total_time="${FUZZ_MAX_SECONDS:-1200}") ;;
  seconds) limit=(-max_total_time="$amount") ;;
  *) echo "fuzz.sh: unknown mode $mode (runs or seconds)" >&2; exit 2 ;;
esac

# The Swift runtime's backtracer and ASan both handle fatal signals; let ASan report.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0}

status=0
printf '%-20s %12s %8s %8s %10s  %s\n' target executions edges features corpus findings
for target in "${targets[@]}"; do
  exe="$bin/$target"
  if [ ! -x "$exe" ]; then echo "$target: not built ($exe); run make fuzz-build" >&2; status=1; continue; fi
  if [ ! -d Fuzz/Corpus/"$target" ]; then echo "$target: no seed corpus Fuzz/Corpus/$target; run make fuzz-seeds and commit it" >&2; status=1; continue; fi
  corpus="$scratch/corpus/$target"
  findings="$scratch/findings/$target"
  log="$scratch/logs/$target.log"
  rm -rf "$findings"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  # 1. Regressions: each committed input once.
  if ls Fuzz/Regressions/"$target"/* >/dev/null 2>&1; then
    if ! "$exe" -timeout=10 Fuzz/Regressions/"$target"/* > "$log.regressions" 2>&1; then
      echo "$target: a regression input fails again; see $log.regressions" >&2
      tail -30 "$log.regressions" >&2
      status=1
    fi
  fi
  # 2. Fuzzing.
  "$exe" "${limit[@]}" -seed="${FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" Fuzz/Corpus/"$target" > "$log" 2>&1
  result=$?
  executions=$(grep -a -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  line=$(grep -a -E '^#[0-9]+' "$log" | grep -a 'cov:' | tail -1)
  edges=$(echo "$line" | grep -o 'cov: [0-9]*' | awk '{print $2}')
  features=$(echo "$line" | grep -o 'ft: [0-9]*' | awk '{print $2}')
  units=$(ls "$corpus" | wc -l)
  found=$(ls "$findings" | wc -l)
  printf '%-20s %12s %8s %8s %10s  %s\n' "$target" "${executions:-?}" "${edges:-?}" "${features:-?}" "$units" "$found"
  if [ $result -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "$target: FINDING (exit $result); inputs in $findings, log $log:" >&2
    grep -a -E 'ERROR|Fatal error|invariant failed|SUMMARY|timeout|leak' "$log" | head -20 >&2
    status=1
  fi
done
exit $status
