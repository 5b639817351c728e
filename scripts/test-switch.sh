#!/usr/bin/env bash
# `npm run test:switch`: the reference Kamailio configuration (switch/kamailio/) against a real
# Tandem server on PostgreSQL, with sipp as customer and vendors on loopback addresses
# (switch/test/). Installs Debian's kamailio and sip-tester when missing and running as root;
# otherwise stops with the command to run. DATABASE_URL names the PostgreSQL server and a
# maintenance database (default postgres://postgres@127.0.0.1:5432/test); the test makes a fresh
# database there and drops it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS="kamailio kamailio-utils-modules kamailio-json-modules kamailio-extra-modules sip-tester"
if ! command -v kamailio >/dev/null || ! command -v sipp >/dev/null ||
  [ ! -f /usr/lib/x86_64-linux-gnu/kamailio/modules/http_client.so ] ||
  [ ! -f /usr/lib/x86_64-linux-gnu/kamailio/modules/jansson.so ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "test:switch: installing $PKGS"
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $PKGS >/dev/null
  else
    echo "test:switch needs Kamailio and sipp; as root run: apt-get install -y $PKGS" >&2
    exit 1
  fi
fi
# Debian starts a kamailio service on install; the test runs its own.
if command -v systemctl >/dev/null && systemctl is-active --quiet kamailio 2>/dev/null; then
  systemctl stop kamailio || true
fi

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
exec npx vitest run --project switch "$@"
