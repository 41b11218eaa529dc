"""Helpers of the sheet tests: read PDFs back with poppler, and keep PNGs for a person to see."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from xml.etree import ElementTree

# Git-ignored; `make clean` removes it.
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "sheets"
MINUS = "\u2212"
TIMES = "\u00d7"


def _with_file(pdf: bytes, *command: str) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        done = subprocess.run(
            [*command, file.name, *(["-"] if command[0] == "pdftotext" else [])],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    return done.stdout


def text(pdf: bytes) -> str:
    """The PDF's text as laid out on the page (``pdftotext -layout``)."""
    return _with_file(pdf, "pdftotext", "-layout", "-enc", "UTF-8")


def reading(pdf: bytes) -> str:
    """The PDF's text in reading order, column by column, as one line of words."""
    return " ".join(_with_file(pdf, "pdftotext", "-enc", "UTF-8").split())


def info(pdf: bytes) -> dict[str, str]:
    """``pdfinfo`` as a mapping: Title, Author, Pages, Page size, …"""
    lines = _with_file(pdf, "pdfinfo", "-enc", "UTF-8").splitlines()
    return {key.strip(): value.strip() for key, _, value in (ln.partition(":") for ln in lines)}


def page_size(pdf: bytes) -> tuple[float, float]:
    match = re.match(r"([\d.]+) x ([\d.]+) pts", info(pdf)["Page size"])
    assert match, info(pdf)
    return float(match.group(1)), float(match.group(2))


def fonts(pdf: bytes) -> list[str]:
    """The font lines of ``pdffonts`` (name, type, encoding, emb, sub, uni, object)."""
    return _with_file(pdf, "pdffonts").splitlines()[2:]


Box = tuple[float, float, float, float, str]


def _pages(pdf: bytes) -> list[tuple[float, float, list[Box]]]:
    """Each page's width and height, and its words with their boxes in points (left, top,
    right, bottom, word), as ``pdftotext -bbox`` measures them."""
    xhtml = _with_file(pdf, "pdftotext", "-bbox", "-enc", "UTF-8")
    root = ElementTree.fromstring(re.sub(r' xmlns="[^"]*"|<!DOCTYPE[^>]*>', "", xhtml))
    return [
        (
            float(page.get("width", 0)),
            float(page.get("height", 0)),
            [
                (
                    *(float(word.get(k, 0)) for k in ("xMin", "yMin", "xMax", "yMax")),
                    word.text or "",
                )
                for word in page.iter("word")
            ],
        )
        for page in root.iter("page")
    ]


def boxes(pdf: bytes) -> list[Box]:
    """The first page's words with their boxes (see _pages)."""
    return _pages(pdf)[0][2]


def clashes(pdf: bytes) -> list[str]:
    """Words printed over each other, or past the page's edge (``pdftotext -bbox``).

    Each word's box is as poppler measures it, from the font's ascent to its descent: the
    lines of a tightly set heading touch. Boxes overlapping by more than half a point across
    and by more than 40% of the lower one's height are words printed on top of each other.
    """
    found = []
    for width, height, words in _pages(pdf):
        for i, (left, top, right, bottom, word) in enumerate(words):
            if left < -0.5 or top < -0.5 or right > width + 0.5 or bottom > height + 0.5:
                found.append(f"{word!r} past the edge")
            for left2, top2, right2, bottom2, word2 in words[i + 1 :]:
                across = min(right, right2) - max(left, left2)
                down = min(bottom, bottom2) - max(top, top2)
                if across > 0.5 and down > 0.4 * min(bottom - top, bottom2 - top2):
                    found.append(f"{word!r} over {word2!r}")
    return found


def save_pngs(pdf: bytes, name: str) -> list[Path]:
    """Render every page to ``test-artifacts/sheets/<name>-<page>.png`` at 60 dpi."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    target = ARTIFACTS / f"{name}.pdf"
    target.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(target), str(ARTIFACTS / name)],
        check=True,
        timeout=60,
    )
    return sorted(ARTIFACTS.glob(f"{name}-*.png"))


def cells(page_text: str, label: str) -> list[list[str]]:
    """The entries after ``label`` on each printed line that has it, one list per deal block.

    Blocks side by side share a line, so the line "Deal score = 3855 615 Deal score = 1560
    4040" gives [["=", "3855", "615"], ["=", "1560", "4040"]]: the deals left to right, the
    teams in column order.
    """
    found: list[list[str]] = []
    for line in page_text.splitlines():
        if not line.strip().startswith(label):
            continue
        for part in line.split(label)[1:]:
            found.append(part.replace("\u2020", " \u2020").split())
    return found
