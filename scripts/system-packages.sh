#!/usr/bin/env bash
# The one list of Debian packages this project needs: `system-packages.sh` for running the
# app, `system-packages.sh test` adds what the test suite needs (a real Chromium, PDF tools).
# Silent when everything is present; installs what is missing as root; otherwise explains.
set -euo pipefail

# WeasyPrint renders the PDF sheets with Pango; DejaVu is the embedded font. Names in Chinese
# or Japanese and emoji print with Droid Sans Fallback and Symbola (3 MB together), which
# fontconfig finds for the letters DejaVu lacks; without them they print as empty boxes.
PACKAGES="libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core"
PACKAGES="$PACKAGES fonts-droid-fallback fonts-symbola"
if [[ "${1:-}" == "test" ]]; then
    # pdftotext/pdftoppm read the sheets back; Chromium runs the browser suite; the
    # PostgreSQL server runs the suite's second pass (scripts/test-postgres.sh).
    PACKAGES="$PACKAGES poppler-utils chromium chromium-driver postgresql"
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "warning: dpkg-query not found (not Debian?); make sure these are installed:" \
        "$PACKAGES" >&2
    exit 0
fi

missing=()
for pkg in $PACKAGES; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if [[ "$(id -u)" -eq 0 ]]; then
    echo "Installing missing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    echo "Missing system packages: ${missing[*]}" >&2
    echo "Install them as root with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
