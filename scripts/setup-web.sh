#!/usr/bin/env bash
# Installs what the web client and its browser tests need, idempotently and non-interactively:
#   - Debian's chromium (the e2e tests drive /usr/bin/chromium with playwright-core; no browser downloads)
#   - the npm packages of web/ (npm ci from package-lock.json), then builds web/dist
# Called by scripts/setup.sh. SKIP_APT=1 skips the apt part.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_APT:-0}" != 1 ]; then
  pkgs=()
  command -v chromium >/dev/null 2>&1 || pkgs+=(chromium)
  command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
  command -v npm >/dev/null 2>&1 || pkgs+=(npm)
  if [ ${#pkgs[@]} -gt 0 ]; then
    echo "setup-web: installing ${pkgs[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${pkgs[@]}" >/dev/null
  fi
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  echo "setup-web: npm ci in web/"
  # PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: playwright-core never downloads browsers, but be explicit.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm --prefix web ci --no-audit --no-fund --loglevel=error
fi
npm --prefix web run build --silent
echo "setup-web: web client built in web/dist"
