"""The blank score sheet: every preset's numbers, one page whatever the options, the cache."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from flask_babel import gettext as _
from sheet_support import (
    MINUS,
    TIMES,
    cells,
    clashes,
    fonts,
    info,
    page_size,
    reading,
    save_pngs,
    text,
)

from scorekeeper import sheets
from scorekeeper.rules import PRESETS
from scorekeeper.services import rulesets

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def blank(client: FlaskClient, **params: object) -> bytes:
    response = client.get(f"/sheets/blank.pdf?{urlencode(params, doseq=True)}")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/pdf"
    return response.data


def squeeze(page_text: str) -> str:
    """The text with every run of blanks made one space, and the multiplication sign written "x"."""
    return re.sub(r"[ \t]+", " ", page_text).replace(TIMES, "x")


# What each preset's sheet must say: books and their bonuses, red threes, what going out needs
# in each deal. Written out by hand from RULES.md, not read from the presets.
EXPECTED = {
    "standard": {
        "lines": [
            "Clean books x 500",
            "Dirty books x 300",
            "Wild books x 1500",
            "Red threes laid x 100",
            f"Red threes caught x {MINUS}100",
        ],
        "absent": ["Black-three books", "Drew exactly"],
        "go_out": ["2 clean, 2 dirty and 1 wild book"] * 4,
    },
    "no-wild-books": {
        "lines": ["Clean books x 500", "Dirty books x 300", "Red threes laid x 100"],
        "absent": ["Wild books", "Black-three books"],
        "go_out": ["2 clean and 2 dirty books"] * 4,
    },
    "eleven-card": {
        "lines": ["Clean books x 500", "Dirty books x 300", "Red threes laid x 100"],
        "absent": ["Wild books", "Black-three books"],
        "go_out": ["1 clean and 1 dirty book"] * 4,
    },
    "saskatchewan": {
        "lines": ["Clean books x 500", "Dirty books x 300", "Wild books x 1500"],
        "absent": ["Black-three books"],
        "go_out": ["1 clean, 1 dirty and 1 wild book"] * 4,
    },
    "simpson": {
        "lines": [
            "Clean books x 300",
            "Dirty books x 100",
            f"Red threes caught x {MINUS}500",
            "Drew exactly 22 x 100",
        ],
        "absent": ["Wild books", "Red threes laid", "Black-three books"],
        "go_out": ["1 clean and 1 dirty book"] * 4,
    },
    "brouillette": {
        "lines": [
            "Clean books x 500",
            "Dirty books x 300",
            "Black-three books x 300",
            f"Black 3s melded x {MINUS}5",
            f"Red threes caught x {MINUS}500",
        ],
        "absent": ["Wild books", "Red threes laid"],
        "go_out": ["1 clean and 1 dirty book"] * 3 + ["2 clean and 2 dirty books"],
    },
    "brouillette-low": {
        "lines": ["Clean books x 300", "Dirty books x 100", "Black-three books x 100"],
        "absent": ["Wild books", "Red threes laid"],
        "go_out": ["1 clean and 1 dirty book"] * 3 + ["2 clean and 2 dirty books"],
    },
    "brouillette-partners": {
        "lines": ["Clean books x 500", "Dirty books x 300", "Black-three books x 300"],
        "absent": ["Wild books", "Red threes laid"],
        "go_out": ["2 clean and 2 dirty books"] * 3 + ["4 clean and 4 dirty books"],
    },
}


def test_every_preset_is_checked_here() -> None:
    assert set(EXPECTED) == set(PRESETS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_blank_sheet_of_each_preset_shows_its_numbers(client: FlaskClient, preset: str) -> None:
    pdf = blank(client, ruleset=preset)
    save_pngs(pdf, f"blank-{preset}")
    page = text(pdf)
    flat = squeeze(page)
    deals, _card = flat.split("RULES CARD")
    assert info(pdf)["Pages"] == "1"
    expected = EXPECTED[preset]

    # One block per deal, headed with its opening minimum (Saskatchewan's deal 4: a concealed
    # book instead) and a dealer line.
    rules = PRESETS[preset]
    openings: list[int | str] = [
        "concealed" if rules.deal(n).opening_needs_concealed_book else minimum
        for n, minimum in enumerate((50, 90, 120, 150), start=1)
    ]
    for number, minimum in enumerate(openings, start=1):
        if minimum == "concealed":  # "a concealed book" on the line below
            assert re.search(rf"Deal {number} Opening(?! \d)", flat)
        else:
            assert f"Deal {number} Opening {minimum}" in flat
    assert flat.count("Dealer:") == 4
    for line in expected["lines"]:
        assert line in flat, line
    for line in expected["absent"]:
        assert line not in flat, line
    for line in (
        "Going out +100",
        "Melded cards +",
        f"Cards left {MINUS}",
        "Deal score =",
        "Running total",
    ):
        assert deals.count(line) == 4, line

    # The rules card: card values, bonuses, and what going out needs deal by deal.
    assert "RULES CARD" in page
    assert re.search(r"Jokers\s+50\b", page)
    assert re.search(rf"Black 3s\s+{MINUS}5\b", page)
    assert re.search(rf"Clean book\s+{rules.clean_book_bonus}\b", page)
    assert re.search(rf"Dirty book\s+{rules.dirty_book_bonus}\b", page)
    for number, (minimum, need) in enumerate(
        zip(openings, expected["go_out"], strict=True), start=1
    ):
        assert re.search(rf"^\s*.*\b{number}\s+{minimum}\b.*{re.escape(need)}", page, re.M), (
            number,
            need,
        )


def test_the_concealed_book_deal_says_so(client: FlaskClient) -> None:
    pdf = blank(client, ruleset="saskatchewan")
    deals = squeeze(text(pdf)).split("RULES CARD")[0]
    # Seed 003: deal 4 needs a concealed canasta instead of the points of the other deals,
    # so its heading names no minimum (it said "Opening 150 or a concealed book").
    heading = next(line for line in deals.splitlines() if "Deal 4 Opening" in line)
    below = deals.splitlines()[deals.splitlines().index(heading) + 1]
    assert below.strip().endswith("a concealed book")
    assert "150" not in heading + below
    assert deals.count("concealed") == 1
    card = reading(pdf).split("RULES CARD")[1]
    assert "3 120 1 clean, 1 dirty and 1 wild book 4 concealed 1 clean" in card  # "book" wraps
    assert not re.search(r"\b150\b", card)


def test_red_three_rules_are_on_the_card(client: FlaskClient) -> None:
    standard = reading(blank(client, ruleset="standard"))
    assert f"Red threes: Laid face up at once for +100 each; {MINUS}100 each when caught" in (
        standard
    )
    simpson = reading(blank(client, ruleset="simpson"))
    assert f"Red threes: Discarded at once, never laid; {MINUS}500 each when caught" in simpson


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)], ids=["a4", "letter"])
@pytest.mark.parametrize("teams", [2, 4, 7])
def test_every_sheet_is_one_page_of_the_paper_asked_for(
    client: FlaskClient, paper: str, size: tuple[float, float], teams: int
) -> None:
    pdf = blank(client, ruleset="simpson", teams=teams, paper=paper)
    save_pngs(pdf, f"blank-simpson-{teams}-teams-{paper}")
    assert info(pdf)["Pages"] == "1"
    width, height = page_size(pdf)
    assert width == pytest.approx(size[0], abs=0.01)
    assert height == pytest.approx(size[1], abs=0.01)
    page = text(pdf)
    # One column per team, lettered A, B, …, in every deal block.
    assert len(cells(page, "Deal score")) == 4
    assert all(row == ["="] for row in cells(page, "Deal score"))
    letters = [chr(ord("A") + i) for i in range(teams)]
    heads = [line.split() for line in page.splitlines() if line.split()[-1:] == [letters[-1]]]
    assert any(head[-teams:] == letters for head in heads)


@pytest.mark.parametrize("lang", ["en", "de", "nl", "fr", "da"])
def test_no_words_are_printed_over_each_other_in_any_language(
    app: Flask, client: FlaskClient, lang: str
) -> None:
    # German, Danish and Dutch headings of the deals' table on the rules card once ran into
    # each other ("RundeErste Meldung" with "Zum Ausmachen" on top).
    with app.test_request_context(), force_locale(lang):
        headings = [str(_(text)) for text in ("Deal", "Opening", "To go out")]
    for preset in PRESETS:
        pdf = blank(client, ruleset=preset, teams=2 if preset != "simpson" else 3, lang=lang)
        assert clashes(pdf) == [], (preset, save_pngs(pdf, f"clash-{preset}-{lang}"))
        # ...and made to fit, they are not broken inside a word either ("Rund" "e").
        words = reading(pdf).split()
        assert all(word in words for heading in headings for word in heading.split())


def test_six_deals_of_house_rules_with_seven_players_fit_on_one_page(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        rulesets.create_house_rules(
            "Long evening",
            "standard",
            {
                "deal_count": 6,
                "opening_minimums": [50, 90, 120, 150, 180, 210],
                "special_books": [
                    {"id": "sevens", "name": "Book of sevens", "bonus": 1000, "min_points": 35}
                ],
            },
        )
    for paper in ("a4", "letter"):
        pdf = blank(client, ruleset="long-evening", teams=7, paper=paper)
        save_pngs(pdf, f"blank-house-6-deals-7-teams-{paper}")
        assert info(pdf)["Pages"] == "1"
        flat = squeeze(text(pdf))
        for number, minimum in enumerate((50, 90, 120, 150, 180, 210), start=1):
            assert f"Deal {number} Opening {minimum}" in flat
        assert flat.count("Book of sevens x 1000") == 6
        assert "Long evening" in flat


def test_metadata_headers_and_fonts(client: FlaskClient) -> None:
    response = client.get("/sheets/blank.pdf?ruleset=standard&teams=2&paper=a4")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="scoresheet-standard-2-teams-a4.pdf"'
    )
    meta = info(response.data)
    assert meta["Title"] == "Score sheet: Standard partnership, 2 teams"
    assert meta["Author"] == "Scorekeeper"
    # DejaVu Sans is embedded (a subset), so the sheet looks the same on every printer.
    lines = fonts(response.data)
    assert lines
    assert all("+DejaVu-Sans" in line for line in lines)
    assert all(line.split()[-5] == "yes" for line in lines)  # the "emb" column


def test_the_file_name_follows_the_options(client: FlaskClient) -> None:
    response = client.get("/sheets/blank.pdf?ruleset=simpson&teams=5&paper=LETTER")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="scoresheet-simpson-5-teams-letter.pdf"'
    )


def test_defaults_are_a_two_team_standard_sheet_on_a4(client: FlaskClient) -> None:
    response = client.get("/sheets/blank.pdf")
    assert response.status_code == 200
    assert (
        'filename="scoresheet-standard-2-teams-a4.pdf"' in response.headers["Content-Disposition"]
    )


def test_given_names_head_their_columns_and_the_rest_get_a_line(client: FlaskClient) -> None:
    pdf = blank(client, ruleset="standard", teams=3, names=["Ann & Ben", "Cid & Dot"])
    page = text(pdf)
    assert "Ann & Ben" in page
    assert "Cid & Dot" in page
    assert "Team C" not in page


def test_names_may_come_in_one_list_separated_by_commas(client: FlaskClient) -> None:
    # Issue 5's ``&names=…``: one parameter a team, or one list of them.
    page = text(blank(client, ruleset="standard", teams=3, names="Ann & Ben, Cid & Dot"))
    assert "Ann & Ben" in page
    assert "Cid & Dot" in page
    assert "Ann & Ben, Cid" not in page
    # Given one a team (two parameters here), a comma stays inside its name.
    page = text(blank(client, ruleset="standard", teams=2, names=["Smith, Jones", ""]))
    assert "Smith, Jones" in page
    # More names in the list than the sheet has columns is refused as before.
    response = client.get("/sheets/blank.pdf?ruleset=standard&teams=2&names=A,B,C")
    assert response.status_code == 400
    assert "3 names were given" in response.get_data(as_text=True)


def test_untrusted_names_are_printed_as_text_and_keep_the_page(client: FlaskClient) -> None:
    names = [
        "<script>alert(1)</script>",
        "Анна Петрова",
        "Βασίλης",
        "\U0001f0cf Joker \U0001f600",
        "W" * 80,
        "Ann",
        "Bob",
    ]
    for paper in ("a4", "letter"):
        pdf = blank(client, ruleset="simpson", teams=7, paper=paper, names=names)
        save_pngs(pdf, f"blank-names-{paper}")
        assert info(pdf)["Pages"] == "1"
        page = text(pdf)
        assert "<script>alert(1)</script>" in page
        assert "Анна" in page
        assert "Βασίλης" in page
        assert "Joker" in page
        # The long name wraps (and shrinks) above the first deals: all of its letters are there.
        assert sum(len(run) for run in re.findall(r"W{4,}", page)) >= 80


def test_columns_only_players_alone_can_fill_have_no_partner_on_the_card(
    client: FlaskClient,
) -> None:
    # Five columns under the standard rules are five players alone (RULES.md); three may
    # be three alone or three pairs, so the partner's lines stay, saying when they hold.
    five = " ".join(text(blank(client, ruleset="standard", teams=5)).split())
    assert "your partner" not in five.lower()
    three = " ".join(text(blank(client, ruleset="standard", teams=3)).split())
    assert "In partnerships, ask your partner" in three
    # Brouillette's partner version seats pairs only: its partners need no "In partnerships".
    pairs = " ".join(text(blank(client, ruleset="brouillette-partners", teams=2)).split())
    assert "Ask your partner" in pairs and "In partnerships" not in pairs


def test_partnership_rules_print_up_to_four_team_columns(client: FlaskClient) -> None:
    response = client.get("/sheets/blank.pdf?ruleset=standard&teams=4&paper=a4")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    # Leading zeros read as a count, however many: 0002 is 2, as 002 is.
    for typed in ("002", "0002", "00000002"):
        response = client.get(f"/sheets/blank.pdf?ruleset=standard&teams={typed}")
        assert (response.status_code, response.mimetype) == (200, "application/pdf"), typed


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("ruleset=standard&teams=abc", "teams must be a whole number"),
        (
            "ruleset=standard&teams=1",
            "or 7 columns (one per team, or per player playing alone), not 1.",
        ),
        (
            "ruleset=brouillette-partners&teams=6",
            "A sheet for these rules has 2, 3 or 4 columns",
        ),
        (
            "ruleset=simpson&teams=8",
            "has 2, 3, 4, 5, 6 or 7 columns (one per team, or per player playing alone), not 8.",
        ),
        ("ruleset=simpson&teams=-2", "teams must be a whole number"),
        # A number no sheet has says which ones do; a very long one is said shortened.
        ("ruleset=simpson&teams=99999", "6 or 7 columns (one per team, or per player"),
        ("ruleset=simpson&teams=99999", "not 99999."),
        ("ruleset=simpson&teams=0009", "not 0009."),
        ("ruleset=simpson&teams=" + "9" * 30, "not " + "9" * 23 + "\u2026."),
        ("ruleset=standard&paper=a5", "Paper must be a4 or letter"),
        ("ruleset=../../etc/passwd", "ruleset must be the id"),
        ("ruleset=standard&teams=2&names=A&names=B&names=C", "3 names were given"),
        ("ruleset=standard&names=" + "x" * 81, "at most 80 characters"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(
    client: FlaskClient, query: str, message: str
) -> None:
    response = client.get(f"/sheets/blank.pdf?{query}")
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert message in response.get_data(as_text=True)


@pytest.mark.parametrize("ruleset", ["no-such-rules", "12345", "99999999999999999999999"])
def test_unknown_rules_are_not_found(client: FlaskClient, ruleset: str) -> None:
    response = client.get(f"/sheets/blank.pdf?ruleset={ruleset}")
    assert response.status_code == 404
    assert "There are no rules called" in response.get_data(as_text=True)


def test_house_rules_by_number_and_by_slug(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        house = rulesets.create_house_rules("Our table", "standard", {"going_out_bonus": 250})
        house_id = house.id
    by_slug = squeeze(text(blank(client, ruleset="our-table")))
    by_number = squeeze(text(blank(client, ruleset=str(house_id))))
    assert "Going out +250" in by_slug
    assert "Going out +250" in by_number


def test_a_blank_sheet_is_cached_until_its_rules_change(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders: list[str] = []
    real = sheets._render_pdf

    def counting(template: str, *args: object, **kwargs: object) -> bytes:
        renders.append(template)
        return real(template, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sheets, "_render_pdf", counting)
    with app.app_context():
        rulesets.create_house_rules("Friday", "standard", {"clean_book_bonus": 600})

    first = blank(client, ruleset="friday")
    assert len(renders) == 1
    again = blank(client, ruleset="friday")
    assert len(renders) == 1
    assert again == first
    # Other options are another sheet.
    blank(client, ruleset="friday", paper="letter")
    blank(client, ruleset="friday", names=["Ann"])
    assert len(renders) == 3

    # Editing the house rules makes a new sheet with the new numbers.
    with app.app_context():
        rulesets.update_house_rules("friday", "Friday", {"clean_book_bonus": 700})
    edited = blank(client, ruleset="friday")
    assert len(renders) == 4
    assert "Clean books x 700" in squeeze(text(edited))
    assert "Clean books x 600" in squeeze(text(first))


def test_the_cache_keeps_only_the_most_recent_sheets() -> None:
    cache = sheets._Cache(size=2)
    cache.put(("a",), b"A")
    cache.put(("b",), b"B")
    assert cache.get(("a",)) == b"A"  # now the most recently used
    cache.put(("c",), b"C")
    assert cache.get(("b",)) is None
    assert cache.get(("a",)) == b"A"
    assert cache.get(("c",)) == b"C"
    assert len(cache) == 2
