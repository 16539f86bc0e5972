#!/usr/bin/env python3
"""Fetch the free items ("dons") offered on leboncoin.fr around a user's position.

Usage: scraper_leboncoin.py --email <email> --cookie <cookie file> --output <file.json>

Reads the user's Netscape cookie export and `DATA_ROOT/nostr/<email>/GPS`, posts one search to the
site's finder API (the request the web site itself makes) and writes a compact JSON document.
Standard library only, so it runs on any station with Python 3.

Exit codes: 0 written, 1 failure, 2 cookie rejected (HTTP 401/403), 64 bad usage.
Environment: DATA_ROOT (default ~/.zen/game), LEBONCOIN_API (default the real finder endpoint),
LEBONCOIN_API_KEY, LEBONCOIN_RADIUS_KM (default 10), LEBONCOIN_LIMIT (default 35).
Cookie values are never printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime
from http.cookiejar import Cookie, CookieJar
from pathlib import Path

DEFAULT_API = "https://api.leboncoin.fr/finder/search"
# Cookies are chosen for the real API host even when LEBONCOIN_API points elsewhere (a proxy, a test
# server): the export belongs to leboncoin.fr and must never be matched against another site's rules.
COOKIE_SITE_URL = "https://api.leboncoin.fr/finder/search"
# The public key the web site sends with every finder request (visible in its scripts, not a secret).
DEFAULT_API_KEY = "ba0c2dad52b3ec"
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
EMAIL_FORBIDDEN = re.compile(r'[/\\:*?"<>|\s\x00-\x1f\x7f]')
EXIT_REJECTED = 2
EXIT_USAGE = 64


class ScraperError(Exception):
    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def log(message: str) -> None:
    stamp = datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    print(f"{stamp} leboncoin.fr: {message}", file=sys.stderr, flush=True)


def safe_email(value: str) -> str:
    email = value.strip().lower()
    if not 3 <= len(email) <= 254 or ".." in email or EMAIL_FORBIDDEN.search(email):
        raise ScraperError("refusing unsafe or invalid e-mail address", EXIT_USAGE)
    local, _, domain = email.partition("@")
    if not local or "@" in domain or not re.fullmatch(r"[\w-]+(\.[\w-]+)+", domain):
        raise ScraperError("refusing unsafe or invalid e-mail address", EXIT_USAGE)
    return email


def load_cookies(path: Path) -> CookieJar:
    """Netscape export as cookie intake accepts it: optional header, BOM, CRLF, `#HttpOnly_` lines."""
    jar = CookieJar()
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    for raw in text.split("\n"):
        line = raw.strip("\r")
        http_only = line.startswith("#HttpOnly_")
        if http_only:
            line = line[len("#HttpOnly_") :]
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 7:
            continue
        domain, flag, cookie_path, secure, expires, name, value = fields
        expiry = int(expires) if expires.strip().isdigit() and int(expires) > 0 else None
        cookie = Cookie(
            version=0, name=name, value=value, port=None, port_specified=False,
            domain=domain.lower(), domain_specified=flag.upper() == "TRUE",
            domain_initial_dot=domain.startswith("."), path=cookie_path or "/", path_specified=True,
            secure=secure.upper() == "TRUE", expires=expiry, discard=expiry is None,
            comment=None, comment_url=None, rest={"HttpOnly": ""} if http_only else {},
        )
        jar.set_cookie(cookie)
    jar.clear_expired_cookies()
    return jar


def cookie_header(jar: CookieJar) -> str | None:
    probe = urllib.request.Request(COOKIE_SITE_URL)
    jar.add_cookie_header(probe)
    return probe.get_header("Cookie")


def read_gps(data_root: Path, email: str) -> tuple[float, float]:
    gps_file = data_root / "nostr" / email / "GPS"
    try:
        text = gps_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScraperError(
            f"no GPS position for {email}: the user must register coordinates (GPS file missing)"
        ) from None
    lat = re.search(r"LAT=\s*([+-]?\d+(?:\.\d+)?)\s*;", text)
    lon = re.search(r"LON=\s*([+-]?\d+(?:\.\d+)?)\s*;", text)
    if not lat or not lon or abs(float(lat[1])) > 90 or abs(float(lon[1])) > 180:
        raise ScraperError(f"the GPS file of {email} is not 'LAT=<lat>; LON=<lon>;'")
    return float(lat[1]), float(lon[1])


def positive_env(name: str, default: int, upper: int) -> int:
    raw = os.environ.get(name, str(default))
    if not raw.isdigit() or not 0 < int(raw) <= upper:
        raise ScraperError(f"{name} must be an integer between 1 and {upper}", EXIT_USAGE)
    return int(raw)


def search_payload(lat: float, lon: float, radius_km: int, limit: int) -> dict:
    # Same shape as the web site's own search: offers only, the "Dons" (donation) filter, a circle
    # around the user's position, newest first.
    return {
        "filters": {
            "enums": {"ad_type": ["offer"], "donation": ["1"]},
            "location": {"area": {"lat": lat, "lng": lon, "radius": radius_km * 1000}},
        },
        "limit": limit,
        "limit_alu": 0,
        "offset": 0,
        "sort_by": "time",
        "sort_order": "desc",
    }


def post_search(api: str, payload: dict, cookies: str | None) -> dict:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "User-Agent": USER_AGENT,
        "Origin": "https://www.leboncoin.fr",
        "Referer": "https://www.leboncoin.fr/",
        "api_key": os.environ.get("LEBONCOIN_API_KEY", DEFAULT_API_KEY),
    }
    if cookies:
        headers["Cookie"] = cookies
    request = urllib.request.Request(
        api, data=json.dumps(payload).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read(MAX_RESPONSE_BYTES + 1)
    except urllib.error.HTTPError as error:
        # The body is not echoed: an anti-bot page is noise, and nothing from the request is repeated.
        if error.code in (401, 403):
            raise ScraperError(
                f"leboncoin.fr rejected the cookie (HTTP {error.code}): "
                "a fresh leboncoin.fr cookie export must be uploaded",
                EXIT_REJECTED,
            ) from None
        raise ScraperError(f"search API answered HTTP {error.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ScraperError(f"search API unreachable: {reason}") from None
    if len(body) > MAX_RESPONSE_BYTES:
        raise ScraperError("search API answer is unreasonably large")
    try:
        data = json.loads(body)
    except ValueError:
        raise ScraperError("search API answer is not JSON") from None
    if not isinstance(data, dict):
        raise ScraperError("search API answer is not a JSON object")
    return data


def compact_ad(ad: dict) -> dict:
    location = ad.get("location") if isinstance(ad.get("location"), dict) else {}
    images = ad.get("images") if isinstance(ad.get("images"), dict) else {}
    urls = images.get("urls") or images.get("urls_large") or []
    return {
        "id": ad.get("list_id"),
        "title": ad.get("subject"),
        "url": ad.get("url"),
        "category": ad.get("category_name"),
        "published": ad.get("first_publication_date"),
        "city": location.get("city"),
        "zipcode": location.get("zipcode"),
        "lat": location.get("lat"),
        "lng": location.get("lng"),
        "image": urls[0] if isinstance(urls, list) and urls else None,
        "description": (ad.get("body") or "")[:500],
    }


def run(args: argparse.Namespace) -> int:
    email = safe_email(args.email)
    cookie_path = Path(args.cookie)
    if not cookie_path.is_file():
        raise ScraperError("cookie file is not a readable file", EXIT_USAGE)
    data_root = Path(os.environ.get("DATA_ROOT") or Path.home() / ".zen" / "game")
    radius_km = positive_env("LEBONCOIN_RADIUS_KM", 10, 200)
    limit = positive_env("LEBONCOIN_LIMIT", 35, 100)
    api = os.environ.get("LEBONCOIN_API") or DEFAULT_API
    if not re.match(r"https?://", api):
        raise ScraperError("LEBONCOIN_API must be an http(s) URL", EXIT_USAGE)

    lat, lon = read_gps(data_root, email)
    cookies = cookie_header(load_cookies(cookie_path))
    if not cookies:
        log(f"{email}: no unexpired leboncoin.fr cookie in the file; searching without one")
    log(f"{email}: searching free items within {radius_km} km of {lat:.2f}, {lon:.2f}")
    data = post_search(api, search_payload(lat, lon, radius_km, limit), cookies)
    ads = [compact_ad(ad) for ad in data.get("ads") or [] if isinstance(ad, dict)]
    document = {
        "source": "leboncoin.fr",
        "search": {"filter": "donation", "lat": lat, "lon": lon, "radius_km": radius_km},
        "fetched_at": datetime.now().strftime("%Y-%m-%dT%H:%M:%S"),
        "total": data.get("total", len(ads)),
        "count": len(ads),
        "ads": ads,
    }
    output = Path(args.output)
    partial = output.with_name(f".{output.name}.{os.getpid()}.{time.time_ns()}")
    partial.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    partial.replace(output)
    log(f"{email}: {len(ads)} free items written")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--email", required=True)
    parser.add_argument("--cookie", required=True)
    parser.add_argument("--output", required=True)
    try:
        args = parser.parse_args()
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code else 0
    try:
        return run(args)
    except ScraperError as error:
        log(f"ERROR: {error}")
        return error.code


if __name__ == "__main__":
    sys.exit(main())
