#!/usr/bin/env bash
# get_cookie.sh <email> <domain>
#
# Prints the absolute path of the user's cookie file for <domain>
# (DATA_ROOT/nostr/<email>/.<domain>.cookie), falling back to parent domains
# (notebooklm.google.com -> google.com), because cookie intake stores the
# registrable domain while callers often know only a host name.
#
# Exit codes: 0 found, 1 no cookie file, 64 bad usage or unsafe input.
# Environment: DATA_ROOT (default ~/.zen/game, as the service).
set -euo pipefail

usage() {
  echo "usage: get_cookie.sh <email> <domain>" >&2
  exit 64
}

[[ $# -eq 2 ]] || usage

# The e-mail names a directory and the domain a file name: both are checked with the
# service's rules before they get anywhere near a path.
email="${1,,}"
domain="${2,,}"
domain="${domain#.}"

FORBIDDEN='[/\\:*?"<>|[:space:][:cntrl:]]'
EMAIL_SHAPE='^[^@]+@[[:alnum:]-]+(\.[[:alnum:]-]+)+$'
LABEL='[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?'
DOMAIN_SHAPE="^$LABEL(\\.$LABEL)*\$"

safe_email() {
  local value="$1"
  ((${#value} >= 3 && ${#value} <= 254)) || return 1
  [[ "$value" != *..* && ! "$value" =~ $FORBIDDEN ]] || return 1
  [[ "$value" =~ $EMAIL_SHAPE ]] || return 1
  [[ "$value" != .* && "${value%@*}" != *. ]]
}

safe_domain() {
  local value="$1"
  ((${#value} >= 1 && ${#value} <= 253)) || return 1
  [[ "$value" =~ $DOMAIN_SHAPE ]]
}

if ! safe_email "$email"; then
  echo "get_cookie.sh: refusing unsafe or invalid e-mail address" >&2
  exit 64
fi
if ! safe_domain "$domain"; then
  echo "get_cookie.sh: refusing unsafe or invalid domain" >&2
  exit 64
fi

data_root="${DATA_ROOT:-$HOME/.zen/game}"
if [[ "$data_root" != /* ]]; then
  echo "get_cookie.sh: DATA_ROOT must be an absolute path" >&2
  exit 64
fi
user_dir="${data_root%/}/nostr/$email"

candidate="$domain"
while :; do
  path="$user_dir/.$candidate.cookie"
  # A symbolic link is not something cookie intake ever writes: do not follow one out of the user directory.
  if [[ -f "$path" && ! -L "$path" ]]; then
    printf '%s\n' "$path"
    exit 0
  fi
  # Stop before the bare top-level label: "com" is never a cookie domain.
  [[ "${candidate#*.}" == *.* ]] || break
  candidate="${candidate#*.}"
done

echo "get_cookie.sh: no cookie file for $domain (or a parent domain) for $email" >&2
exit 1
