#!/usr/bin/env bash
# leboncoin.fr.sh <email> <absolute cookie path>
#
# Daily scraper for leboncoin.fr cookies: lists the free items ("dons") offered around the user's
# GPS position (scraper_leboncoin.py, next to this script) and adds the list, as a dated JSON file,
# to the Documents folder of the user's drive.
#
# Exit codes: 0 done, 1 failure (including a missing GPS position), 2 cookie rejected by the site
# (the user must upload a fresh cookie export), 64 bad usage.
#
# Environment: STATION_CLI (required: the command running the station CLI, split on spaces),
# DATA_ROOT, TMP_DIR, PYTHON (default python3), and the LEBONCOIN_* variables of scraper_leboncoin.py.
set -euo pipefail

log() { printf '%s leboncoin.fr: %s\n' "$(date '+%Y-%m-%dT%H:%M:%S')" "$*"; }
fail() {
  log "ERROR: $1" >&2
  exit "${2:-1}"
}

[[ $# -eq 2 ]] || fail "usage: leboncoin.fr.sh <email> <absolute cookie path>" 64
email="${1,,}"
cookie="$2"
[[ "$cookie" == /* && -f "$cookie" && -r "$cookie" ]] || fail "cookie file is not a readable absolute path" 64

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
helper="$here/scraper_leboncoin.py"
[[ -f "$helper" ]] || fail "scraper_leboncoin.py is missing next to $0"
python="${PYTHON:-python3}"
command -v "$python" >/dev/null || fail "python3 not found (set PYTHON to its path)"
read -r -a station_cli <<<"${STATION_CLI:-}"
((${#station_cli[@]} > 0)) || fail "STATION_CLI is not set (the command running the station CLI)"

tmp_dir="${TMP_DIR:-$HOME/.zen/tmp}"
mkdir -p "$tmp_dir"
work="$(mktemp -d "$tmp_dir/leboncoin.fr.XXXXXXXX")"
trap 'rm -rf -- "$work"' EXIT
output="$work/leboncoin_dons_$(date +%F).json"

# The helper validates the e-mail itself (it builds the GPS path from it) and exits 2 on 401/403.
status=0
"$python" "$helper" --email "$email" --cookie "$cookie" --output "$output" || status=$?
((status == 0)) || exit "$status"

"${station_cli[@]}" drive add --user "$email" "$output" || fail "adding the list to the drive of $email failed"
log "$email: free items list added to the drive"
