"""Helpers of the sheet tests: read PDFs back with poppler, and keep PNGs for a person to see."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

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
