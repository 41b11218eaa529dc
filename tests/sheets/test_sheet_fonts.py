"""Names in any script print as letters on the sheet, not as empty boxes."""

from __future__ import annotations

import subprocess

from flask import Flask
from flask.testing import FlaskClient
from sheet_support import fonts, reading, save_pngs

from scorekeeper.services import games
from scorekeeper.services.games import TeamSpec

# Chinese and Japanese (kanji, kana) and an emoji: DejaVu, the sheet's own font, has none of
# them. (Korean takes a font of its own, several megabytes: see the README.)
NAMES = ["山田太郎", "東京", "やまだ", "Lucky 🎉"]


def covered(char: str) -> bool:
    """Some font on this machine has ``char`` (fontconfig, as WeasyPrint looks them up)."""
    found = subprocess.run(
        ["fc-list", f":charset={ord(char):x}", "family"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return bool(found.stdout.strip())


def test_every_script_a_name_may_use_has_a_font() -> None:
    # scripts/system-packages.sh installs them with DejaVu: without, these printed as boxes.
    missing = [char for name in NAMES for char in name if not char.isascii() and not covered(char)]
    assert missing == []


def test_a_sheet_embeds_a_font_for_the_letters_dejavu_lacks(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        game_id = games.start_game(
            "standard", [TeamSpec(NAMES[3], NAMES[:2]), TeamSpec("", [NAMES[2], "Ann"])]
        ).id
    pdf = client.get(f"/games/{game_id}/sheet.pdf").data
    save_pngs(pdf, "names-in-any-script")
    words = reading(pdf)
    assert all(name in words for name in NAMES)
    embedded = [line.split()[0] for line in fonts(pdf)]
    assert any("DejaVu" in font for font in embedded)
    assert any("DejaVu" not in font for font in embedded), embedded
