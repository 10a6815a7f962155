#!/usr/bin/env bash
# Lighthouse on the sign-in page, a night, the sheet of a long game and its live view,
# the night's payout page and its live view:
# see README.md.
#   benchmarks/lighthouse/run.sh            # install Lighthouse if needed, seed, serve, audit
#   benchmarks/lighthouse/run.sh --keep     # keep the /tmp instance (database, gunicorn log)
# Needs Node >= 18.16 with npm, Chromium at /usr/bin/chromium (or CHROME_PATH) and the
# project's .venv (scripts/test makes it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROME_PATH:-}" ]; then
  echo "Installing Chromium (Debian package)"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
if [ ! -x "$here/node_modules/.bin/lighthouse" ]; then
  echo "Installing Lighthouse into $here/node_modules"
  (cd "$here" && npm install --no-audit --no-fund --loglevel=error)
fi
[ -x "$root/.venv/bin/gunicorn" ] || "$root/.venv/bin/python" -m pip install -q -e "$root[test]"

export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
exec "$root/.venv/bin/python" "$here/run.py" "$@"
