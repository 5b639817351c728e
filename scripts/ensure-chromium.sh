#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium (the browser the Playwright suite drives;
# npm cannot download browser builds on these machines). Installs it with apt-get when running as
# root; otherwise explains what to run.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) found at $CHROMIUM"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $CHROMIUM is missing and this is not root." >&2
  echo "ensure-chromium: run as root:  apt-get update && apt-get install -y chromium" >&2
  exit 1
fi

echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
