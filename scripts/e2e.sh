#!/usr/bin/env bash
# Browser tests: Debian's Chromium, the built web app, the Playwright suite in e2e/ against a real
# server (started by e2e/global-setup.ts on a free port with a fresh PGlite folder).
# Extra arguments go to Playwright, e.g. `bash scripts/e2e.sh specs/smoke.spec.ts --headed`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "e2e: checking Chromium"
bash scripts/ensure-chromium.sh

echo "e2e: building the web app"
npm run build -w @tandem/web

echo "e2e: bundle budget (login page first load)"
node scripts/bundle-report.mjs | tail -1

echo "e2e: running Playwright"
exec npx playwright test -c e2e/playwright.config.ts "$@"
