#!/usr/bin/env bash
# youtube.com.sh <email> <absolute cookie path>
#
# Daily scraper for youtube.com cookies: copies the user's most recent liked videos
# (playlist LL) into the Videos folder of their drive, a bounded number per day.
#
# Exit codes: 0 done (possibly nothing new), 1 failure, 2 cookie rejected by YouTube
# (the user must upload a fresh cookie export), 64 bad usage.
#
# Environment (all optional except STATION_CLI):
#   STATION_CLI            command running the station CLI (split on spaces), used for `drive add`
#   DATA_ROOT, TMP_DIR     as the service (defaults ~/.zen/game and ~/.zen/tmp)
#   YTDLP                  yt-dlp executable (default yt-dlp)
#   YOUTUBE_URL            site base URL (default https://www.youtube.com)
#   YOUTUBE_DAILY_MAX      videos added per user per day (default 3)
#   YOUTUBE_SCAN_MAX       most recent likes examined per run (default 50)
#   YOUTUBE_FORMAT         yt-dlp format (default: single-file, at most 720p)
#   YOUTUBE_MAX_FILESIZE   larger videos are skipped (default 500M)
set -euo pipefail

PROG="youtube.com"
log() { printf '%s %s: %s\n' "$(date '+%Y-%m-%dT%H:%M:%S')" "$PROG" "$*"; }
fail() {
  log "ERROR: $1" >&2
  exit "${2:-1}"
}

[[ $# -eq 2 ]] || fail "usage: youtube.com.sh <email> <absolute cookie path>" 64
email="${1,,}"
cookie="$2"

FORBIDDEN='[/\\:*?"<>|[:space:][:cntrl:]]'
EMAIL_SHAPE='^[^@]+@[[:alnum:]-]+(\.[[:alnum:]-]+)+$'
if ((${#email} > 254)) || [[ "$email" == *..* || "$email" =~ $FORBIDDEN || ! "$email" =~ $EMAIL_SHAPE ]]; then
  fail "refusing unsafe or invalid e-mail address" 64
fi
[[ "$cookie" == /* && -f "$cookie" && -r "$cookie" ]] || fail "cookie file is not a readable absolute path" 64

positive_int() {
  if [[ ! "$2" =~ ^[0-9]{1,6}$ ]] || ((10#$2 == 0)); then fail "$1 must be a positive integer" 64; fi
  printf '%d' "$((10#$2))"
}
YTDLP="${YTDLP:-yt-dlp}"
YOUTUBE_URL="${YOUTUBE_URL:-https://www.youtube.com}"
YOUTUBE_URL="${YOUTUBE_URL%/}"
DAILY_MAX="$(positive_int YOUTUBE_DAILY_MAX "${YOUTUBE_DAILY_MAX:-3}")"
SCAN_MAX="$(positive_int YOUTUBE_SCAN_MAX "${YOUTUBE_SCAN_MAX:-50}")"
FORMAT="${YOUTUBE_FORMAT:-b[height<=720]/b}"
MAX_FILESIZE="${YOUTUBE_MAX_FILESIZE:-500M}"
data_root="${DATA_ROOT:-$HOME/.zen/game}"
tmp_dir="${TMP_DIR:-$HOME/.zen/tmp}"

# STATION_CLI is operator configuration, never user input: split on spaces, never evaluated.
read -r -a station_cli <<<"${STATION_CLI:-}"
((${#station_cli[@]} > 0)) || fail "STATION_CLI is not set (the command running the station CLI)"
command -v "$YTDLP" >/dev/null || fail "yt-dlp not found (set YTDLP to its path)"

user_dir="$data_root/nostr/$email"
[[ -d "$user_dir" ]] || fail "no user directory for $email"
state="$user_dir/.youtube.com_synced"
today="$(date +%F)"

# yt-dlp writes its cookie jar back to the --cookies file on exit: it gets a private copy so the
# user's upload stays byte-identical, and the copy disappears with the work directory.
mkdir -p "$tmp_dir"
work="$(mktemp -d "$tmp_dir/youtube.com.XXXXXXXX")"
trap 'rm -rf -- "$work"' EXIT
(umask 077 && cp -- "$cookie" "$work/cookies.txt")

REJECTED_ALWAYS='Sign in to confirm|cookies are no longer valid|HTTP Error 401'
# On the likes listing, any refusal means the account session is gone. On a single video, a 403 is
# usually a media-URL or format problem unrelated to the cookie, so it only fails that video.
REJECTED_LISTING="$REJECTED_ALWAYS|HTTP Error 403|--cookies for the authentication"
UNAVAILABLE='Video unavailable|Private video|This video has been removed|This video is not available'

matches() { grep -Eqi -- "$1" "$2"; }

# --- 1. recent likes -------------------------------------------------------------------------------
status=0
"$YTDLP" --cookies "$work/cookies.txt" --flat-playlist --print id --playlist-end "$SCAN_MAX" \
  -- "$YOUTUBE_URL/playlist?list=LL" >"$work/likes" 2>"$work/likes.err" || status=$?
cat "$work/likes.err" >&2
if matches "$REJECTED_LISTING" "$work/likes.err"; then
  fail "YouTube rejected the cookie of $email: a fresh youtube.com cookie export must be uploaded" 2
fi
((status == 0)) || fail "listing liked videos failed (yt-dlp exit $status)"
mapfile -t likes < <(grep -E '^[A-Za-z0-9_-]{11}$' "$work/likes" || true)
log "$email: ${#likes[@]} recent liked videos"

# --- 2. what is already done -----------------------------------------------------------------------
# State lines: <video id> TAB <date> TAB added|unavailable|skipped. Only "added" counts toward the
# daily bound, so a second run the same day (operator re-run) cannot exceed it.
declare -A known=()
added_today=0
if [[ -f "$state" ]]; then
  while IFS=$'\t' read -r id day outcome; do
    [[ -n "$id" ]] || continue
    known["$id"]=1
    if [[ "$day" == "$today" && "$outcome" == added ]]; then added_today=$((added_today + 1)); fi
  done <"$state"
fi
allowance=$((DAILY_MAX - added_today))
if ((allowance <= 0)); then
  log "$email: daily bound of $DAILY_MAX videos already reached"
  exit 0
fi

record() { (umask 077 && printf '%s\t%s\t%s\n' "$1" "$today" "$2" >>"$state"); }

# --- 3. download and add, newest first -------------------------------------------------------------
added=0 failed=0 attempts=0
for id in "${likes[@]}"; do
  ((added < allowance && attempts < 2 * allowance)) || break
  [[ -z "${known[$id]:-}" ]] || continue
  known["$id"]=1
  attempts=$((attempts + 1))
  dir="$work/$id"
  mkdir "$dir"
  log "$email: downloading $id"
  status=0
  "$YTDLP" --cookies "$work/cookies.txt" --no-playlist --no-progress -f "$FORMAT" \
    --max-filesize "$MAX_FILESIZE" --match-filter '!is_live' \
    -o "$dir/%(title).120B [%(id)s].%(ext)s" -- "$YOUTUBE_URL/watch?v=$id" 2>"$dir.err" || status=$?
  cat "$dir.err" >&2
  if ((status != 0)); then
    if matches "$REJECTED_ALWAYS" "$dir.err"; then
      fail "YouTube rejected the cookie of $email: a fresh youtube.com cookie export must be uploaded" 2
    fi
    if matches "$UNAVAILABLE" "$dir.err"; then
      log "$email: $id is unavailable, not retried"
      record "$id" unavailable
    else
      log "$email: $id failed (yt-dlp exit $status), retried next run"
      failed=$((failed + 1))
    fi
    continue
  fi
  file=""
  for candidate in "$dir"/*; do
    if [[ -f "$candidate" && "$candidate" != *.part && "$candidate" != *.ytdl ]]; then
      file="$candidate"
      break
    fi
  done
  if [[ -z "$file" ]]; then
    log "$email: $id produced no file (too large or live), skipped"
    record "$id" skipped
    continue
  fi
  "${station_cli[@]}" drive add --user "$email" "$file" ||
    fail "adding $id to the drive of $email failed"
  record "$id" added
  added=$((added + 1))
  rm -rf -- "$dir"
done

log "$email: $added added, $failed failed, $((added_today + added))/$DAILY_MAX today"
((failed == 0 || added > 0)) || exit 1
exit 0
