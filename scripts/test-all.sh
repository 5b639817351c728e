#!/usr/bin/env bash
# `npm test`: every test, fail fast. Stages: unit (Vitest), api (Vitest, server in-process on PGlite),
# e2e (Playwright in Debian's Chromium against the built app and a real server).
# Prints one summary line per stage and a closing "total: N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."

reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

total_passed=0
total_failed=0
total_skipped=0
summaries=()

# counts <vitest|playwright> <json report> -> "passed failed skipped" (empty when there is no report)
counts() {
  node -e '
    const fs = require("fs");
    const [kind, file] = process.argv.slice(1);
    if (!fs.existsSync(file)) process.exit(0);
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    if (kind === "vitest") {
      const failed = r.numFailedTests + (r.testResults || []).filter((f) => f.status === "failed" && !(f.assertionResults || []).length).length;
      console.log(r.numPassedTests, failed, (r.numPendingTests || 0) + (r.numTodoTests || 0));
    } else {
      const s = r.stats || {};
      console.log((s.expected || 0) + (s.flaky || 0), s.unexpected || 0, s.skipped || 0);
    }
  ' "$1" "$2"
}

finish() {
  echo
  echo "==> summary"
  for line in "${summaries[@]}"; do echo "  $line"; done
  echo "total: $total_passed passed, $total_failed failed, $total_skipped skipped"
}

# stage <name> <vitest|playwright> <report file> <command...>
stage() {
  local name=$1 kind=$2 report=$3
  shift 3
  echo
  echo "==> [$name] $*"
  local start=$SECONDS
  "$@"
  local rc=$?
  local took=$((SECONDS - start))
  local p=0 f=0 s=0
  read -r p f s < <(counts "$kind" "$report") || true
  p=${p:-0} f=${f:-0} s=${s:-0}
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi # failed before or outside any test
  total_passed=$((total_passed + p))
  total_failed=$((total_failed + f))
  total_skipped=$((total_skipped + s))
  if [ "$rc" -eq 0 ]; then
    summaries+=("$name: ok ($p passed, $s skipped) in ${took}s")
  else
    summaries+=("$name: FAILED (exit $rc; $p passed, $f failed) in ${took}s")
    finish
    exit 1
  fi
}

stage unit vitest "$reports/unit.json" \
  npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$reports/unit.json"
stage api vitest "$reports/api.json" \
  env -u DATABASE_URL npx vitest run --project api --reporter=default --reporter=json --outputFile.json="$reports/api.json"
stage e2e playwright "$reports/e2e.json" \
  env TANDEM_E2E_REPORT="$reports/e2e.json" bash scripts/e2e.sh

finish
