#!/usr/bin/env bash
# Installs the Debian tools that the ceilings tests and bench/ceilings.sh
# compare against or render with, when they are missing: iperf3 (gobench
# net's interop tests) and chromium (the suite report's headless-browser
# test). Idempotent; needs root (apt-get), as the test machines are.
set -euo pipefail
need=()
command -v iperf3 >/dev/null 2>&1 || need+=(iperf3)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -eq 0 ]; then
	exit 0
fi
echo "testenv/tools.sh: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
