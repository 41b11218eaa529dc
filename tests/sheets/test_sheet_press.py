"""The press: the sheet stylesheet parsed once, one font configuration, GC paused while rendering.

Its sheets must be the very PDFs WeasyPrint made when every sheet linked its stylesheet and
got a font configuration of its own, and it must stay right with threads.
"""

from __future__ import annotations

import gc
import os
import re
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sheet_support import fonts, page_size, reading, text

from scorekeeper import sheets
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games, players
from scorekeeper.services.games import TeamSpec

STYLESHEET_LINK = '<link rel="stylesheet" href="/static/css/sheet.css">'
A4 = (595.28, 841.89)
MM = 72 / 25.4
BLUE, RED = (0, 0, 255), (255, 0, 0)
# The page's background in sheet.css (the rule for html), and the same turned red.
PAGE_WHITE = "color: #000;\n  background: #fff;"
PAGE_RED = "color: #000;\n  background: #f00;"


@pytest.fixture
def press(monkeypatch: pytest.MonkeyPatch) -> sheets._Press:
    """A new press for the test: nothing parsed yet, whatever other tests rendered."""
    fresh = sheets._Press()
    monkeypatch.setattr(sheets, "press", fresh)
    return fresh


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch, press: sheets._Press) -> list[tuple[str, str]]:
    """Every (HTML, base URL) the press is given, in order."""
    seen: list[tuple[str, str]] = []
    render = press.render

    def spy(html: str, base_url: str, url_fetcher: Any, stylesheet: str) -> Any:
        seen.append((html, base_url))
        return render(html, base_url, url_fetcher, stylesheet)

    monkeypatch.setattr(press, "render", spy)
    return seen


@pytest.fixture
def gc_on() -> Iterator[None]:
    # Whatever a test does to the collector, the next test starts with it on.
    assert gc.isenabled()
    yield
    gc.enable()


def deal_won() -> TeamTally:
    return TeamTally(
        clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=600), went_out=True
    )


def deal_lost() -> TeamTally:
    return TeamTally(clean_books=1, melded=Cards(points=200), left=Cards(points=50))


def played_game(app: Flask) -> int:
    won, lost = deal_won(), deal_lost()
    with app.app_context():
        game = games.start_game(
            "standard",
            [TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dot"])],
            played_on=date(2026, 11, 28),
        )
        for _deal in range(2):
            games.record_deal(game.id, [won, lost])
        return game.id


def get_pdf(client: FlaskClient, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.data.startswith(b"%PDF-")
    return response.data


def linked_render(app: Flask, html: str, base_url: str) -> bytes:
    """The sheet as it was made before the press: the stylesheet linked, nothing kept."""
    from weasyprint import HTML

    assert html.count("<style>") == 1 and "sheet.css" not in html
    # The link stood just before the template's own <style>.
    linked = html.replace("<style>", STYLESHEET_LINK + "\n  <style>")
    with app.test_request_context(base_url):
        fetcher = sheets._static_fetcher()
    document = HTML(string=linked, base_url=base_url, url_fetcher=fetcher).render()
    for page in document.pages:
        page.bookmarks = [mark for mark in page.bookmarks if mark[1] != sheets.END_MARK]
    pdf: bytes = document.write_pdf()
    return pdf


def pressed(app: Flask, press: sheets._Press, html: str, stylesheet: Path) -> bytes:
    """``html`` through ``press`` with the stylesheet at ``stylesheet``."""
    with app.test_request_context("/"):
        fetcher = sheets._static_fetcher()
    document = press.render(html, "http://localhost/", fetcher, stylesheet.as_posix())
    return press.write(document)


def pixels(pdf: bytes, dpi: int = 30) -> tuple[int, int, bytes]:
    """The first page as RGB pixels (``pdftoppm``): width, height, three bytes a pixel."""
    # The PDF from stdin ("-") and no output root: the picture goes to stdout.
    done = subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-singlefile", "-"],
        input=pdf,
        capture_output=True,
        check=True,
        timeout=60,
    )
    # A binary PPM: "P6", width, height, 255, one whitespace, then the pixels.
    magic, width, height, depth, data = done.stdout.split(maxsplit=4)
    assert (magic, depth) == (b"P6", b"255")
    return int(width), int(height), data


def count_colour(pdf: bytes, colour: tuple[int, int, int]) -> int:
    _width, _height, data = pixels(pdf)
    wanted = bytes(colour)
    return sum(1 for i in range(0, len(data), 3) if data[i : i + 3] == wanted)


def left_edge_pt(pdf: bytes) -> float:
    """Where the leftmost word of the first page starts (``pdftotext -bbox``), in points."""
    done = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", "-", "-"],
        input=pdf,
        capture_output=True,
        check=True,
        timeout=60,
    )
    page = done.stdout.decode()
    starts = [
        float(part.split('"')[1])
        for line in page.splitlines()
        if line.lstrip().startswith("<word")
        for part in line.split()
        if part.startswith("xMin=")
    ]
    assert starts, page[:500]
    return min(starts)


# ---------------------------------------------------------------------------
# The same sheets


def test_the_press_prints_what_a_fresh_linked_render_printed(
    app: Flask, client: FlaskClient, pages: list[tuple[str, str]]
) -> None:
    game_id = played_game(app)
    urls = [
        "/sheets/blank.pdf?ruleset=standard&teams=2",
        "/sheets/blank.pdf?ruleset=standard&teams=5&paper=letter&lang=de",
        f"/games/{game_id}/sheet.pdf",
    ]
    for url in urls:
        pdf = get_pdf(client, url)
        html, base_url = pages[-1]  # the last attempt is the one printed
        fresh = linked_render(app, html, base_url)
        assert text(pdf) == text(fresh), url
        # Not only the same words in the same places: the same file, byte for byte.
        assert pdf == fresh, url


def test_the_standings_sheet_is_the_same_too(app: Flask, pages: list[tuple[str, str]]) -> None:
    rows = [{"rank": 1, "name": "Ann", "games": 4, "wins": 2.5, "points": 15_230}]
    chart = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><text>R</text></svg>'
    with app.test_request_context("/seasons/1/standings.pdf"):
        pdf = sheets.render_standings_pdf("Spring 2026", rows, rows, chart_svg=chart)
    html, base_url = pages[-1]
    assert pdf == linked_render(app, html, base_url)


# ---------------------------------------------------------------------------
# Parsed once


def test_the_stylesheet_is_parsed_once_across_renders(
    client: FlaskClient, press: sheets._Press, monkeypatch: pytest.MonkeyPatch
) -> None:
    import weasyprint

    made: list[str] = []
    real_css = weasyprint.CSS

    def counting_css(*args: Any, **kwargs: Any) -> Any:
        # The press hands WeasyPrint the file's bytes, with the file as their base URL.
        made.append(str(kwargs.get("filename") or kwargs.get("base_url") or args[:1]))
        return real_css(*args, **kwargs)

    monkeypatch.setattr(weasyprint, "CSS", counting_css)
    fetched: list[str] = []
    real_fetcher = sheets._static_fetcher

    def counting_fetcher() -> Any:
        fetcher = real_fetcher()
        fetch = fetcher.fetch

        def counted(url: str, headers: Any = None) -> Any:
            fetched.append(url)
            return fetch(url, headers)

        fetcher.fetch = counted
        return fetcher

    monkeypatch.setattr(sheets, "_static_fetcher", counting_fetcher)

    for teams in (2, 3, 4):
        get_pdf(client, f"/sheets/blank.pdf?ruleset=standard&teams={teams}")
    assert made == [str(Path(client.application.static_folder or "") / "css" / "sheet.css")]
    assert press.css_parses == 1
    # Nor does WeasyPrint fetch it through the page any more.
    assert fetched == []


def edit_with_a_new_time(stylesheet: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the file, which gets a new modification time."""
    stylesheet.write_text(stylesheet.read_text().replace(old, new))
    later = time.time() + 5  # a change time no file system rounds away
    os.utime(stylesheet, (later, later))


def edit_keeping_its_times(stylesheet: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` (as long) in the file, and set its times back as they were.

    An edit within one tick of a coarse clock, or a copy that keeps the file's time, looks
    just like this: the same size, the same modification time.
    """
    assert len(old) == len(new)
    before = stylesheet.stat()
    content = stylesheet.read_text()
    assert content.count(old) == 1
    stylesheet.write_text(content.replace(old, new))
    os.utime(stylesheet, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = stylesheet.stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)


@pytest.mark.parametrize("edit", [edit_with_a_new_time, edit_keeping_its_times])
def test_an_edited_stylesheet_is_parsed_again(
    app: Flask, press: sheets._Press, tmp_path: Path, edit: Callable[[Path, str, str], None]
) -> None:
    stylesheet = tmp_path / "sheet.css"
    stylesheet.write_text("div { height: 30mm; background: #00f; }")
    blue = pressed(app, press, "<div></div>", stylesheet)
    pressed(app, press, "<div></div>", stylesheet)
    assert press.css_parses == 1
    edit(stylesheet, "#00f", "#f00")
    red = pressed(app, press, "<div></div>", stylesheet)
    assert press.css_parses == 2
    assert count_colour(blue, BLUE) > 0 and count_colour(blue, RED) == 0
    assert count_colour(red, RED) > 0 and count_colour(red, BLUE) == 0


@pytest.fixture
def own_stylesheet(app: Flask, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The app's sheet.css copied into a static folder of the test's own, free to edit."""
    static = tmp_path / "static"
    (static / "css").mkdir(parents=True)
    stylesheet = static / "css" / "sheet.css"
    stylesheet.write_bytes((Path(app.static_folder or "") / "css" / "sheet.css").read_bytes())
    monkeypatch.setattr(app, "static_folder", str(static))
    return stylesheet


def test_a_cached_blank_sheet_follows_an_edited_stylesheet(
    app: Flask, press: sheets._Press, pages: list[tuple[str, str]], own_stylesheet: Path
) -> None:
    client = app.test_client()
    url = "/sheets/blank.pdf?ruleset=standard&teams=2"
    white = get_pdf(client, url)
    assert len(pages) == 1 and count_colour(white, RED) == 0

    # The page's background turns red; the file keeps its size and its modification time.
    edit_keeping_its_times(own_stylesheet, PAGE_WHITE, PAGE_RED)
    red = get_pdf(client, url)
    assert len(pages) == 2, "the sheet printed with the old stylesheet was served"
    assert press.css_parses == 2
    assert count_colour(red, RED) > 0.5 * count_colour(white, (255, 255, 255))
    assert text(red) == text(white)  # the same sheet, only its colour changed

    # Back as it was: the sheet printed then is still in the cache.
    edit_keeping_its_times(own_stylesheet, PAGE_RED, PAGE_WHITE)
    assert get_pdf(client, url) == white
    assert len(pages) == 2


def test_an_unchanged_stylesheet_serves_blank_sheets_from_the_cache(
    app: Flask, press: sheets._Press, pages: list[tuple[str, str]], own_stylesheet: Path
) -> None:
    client = app.test_client()
    url = "/sheets/blank.pdf?ruleset=standard&teams=3"
    first = get_pdf(client, url)
    assert get_pdf(client, url) == first
    # Only touched, or written again with the same bytes: the content is what counts.
    later = time.time() + 5
    os.utime(own_stylesheet, (later, later))
    assert get_pdf(client, url) == first
    own_stylesheet.write_bytes(own_stylesheet.read_bytes())
    assert get_pdf(client, url) == first
    assert len(pages) == 1
    assert press.css_parses == 1


def test_a_game_sheet_printed_again_comes_from_the_cache(
    app: Flask, press: sheets._Press, pages: list[tuple[str, str]]
) -> None:
    client = app.test_client()
    url = f"/games/{played_game(app)}/sheet.pdf"
    first = get_pdf(client, url)
    assert get_pdf(client, url) == first
    assert get_pdf(app.test_client(), url) == first  # another tablet
    assert len(pages) == 1
    # Other paper, another language: other sheets, each printed once.
    letter = get_pdf(client, url + "?paper=letter")
    german = get_pdf(client, url + "?lang=de")
    assert get_pdf(client, url + "?lang=de") == german
    assert len(pages) == 3
    assert page_size(letter) != page_size(first)
    assert "Runde 1" in text(german) and "Runde 1" not in text(first)


def test_a_game_sheet_changed_since_it_was_printed_is_printed_anew(
    app: Flask, press: sheets._Press, pages: list[tuple[str, str]]
) -> None:
    """The cache knows nothing of games: whatever changes the page changes its key."""
    client = app.test_client()
    game_id = played_game(app)
    url = f"/games/{game_id}/sheet.pdf"
    before = text(get_pdf(client, url))
    assert not re.search(r"\bEve\b", before) and "Cards left" in before

    # A deal corrected: Team B had 120 in cards left, not 50.
    with app.app_context():
        deal = games.load_game(game_id).deals[0]
        won, lost = (result.tally() for result in deal.results)
        games.correct_deal(game_id, 1, deal.version, [won, replace(lost, left=Cards(points=120))])
    corrected = text(get_pdf(client, url))
    assert len(pages) == 2
    assert corrected != before
    assert "\u2212120" in corrected or "-120" in corrected

    # A player renamed: the sheet names her by her new name.
    with app.app_context():
        ann = next(p for p in players.all_players() if p.name == "Ann")
        players.rename_player(ann.id, "Eve")
    renamed = text(get_pdf(client, url))
    assert len(pages) == 3
    assert re.search(r"\bEve\b", renamed)

    # Another deal entered.
    with app.app_context():
        games.record_deal(game_id, [deal_won(), deal_lost()])
    assert text(get_pdf(client, url)) != renamed
    assert len(pages) == 4
    # And nothing changed since: from the cache.
    get_pdf(client, url)
    assert len(pages) == 4


def test_a_cached_game_sheet_follows_an_edited_stylesheet(
    app: Flask, press: sheets._Press, pages: list[tuple[str, str]], own_stylesheet: Path
) -> None:
    client = app.test_client()
    url = f"/games/{played_game(app)}/sheet.pdf"
    white = get_pdf(client, url)
    edit_keeping_its_times(own_stylesheet, PAGE_WHITE, PAGE_RED)
    red = get_pdf(client, url)
    assert len(pages) == 2, "the sheet printed with the old stylesheet was served"
    assert count_colour(red, RED) > 0 and count_colour(white, RED) == 0
    assert text(red) == text(white)


# ---------------------------------------------------------------------------
# The styles still apply


def test_the_template_links_no_stylesheet_but_the_sheet_keeps_its_styles(
    app: Flask, client: FlaskClient, pages: list[tuple[str, str]]
) -> None:
    pdf = get_pdf(client, "/sheets/blank.pdf?ruleset=standard&teams=2")
    html, base_url = pages[-1]
    assert "<link" not in html and "sheet.css" not in html

    # The same page with no stylesheet at all: each check below tells the two apart.
    from weasyprint import HTML

    unstyled = HTML(string=html, base_url=base_url).write_pdf()

    # From sheet.css: DejaVu Sans, the kicker in capitals, 8 mm margins, grey deal headings.
    assert all("DejaVu-Sans" in line for line in fonts(pdf)), fonts(pdf)
    assert not all("DejaVu-Sans" in line for line in fonts(unstyled))
    assert "HAND AND FOOT · SCORE SHEET" in reading(pdf)
    assert "HAND AND FOOT" not in reading(unstyled)
    assert 7.5 * MM < left_edge_pt(pdf) < 10 * MM
    assert left_edge_pt(unstyled) > 15 * MM  # WeasyPrint's own margin is 75 px
    heading_grey = (0xE8, 0xE8, 0xE8)
    # (A few pixels of the edges of black letters are that grey too.)
    assert count_colour(pdf, heading_grey) > 20 * count_colour(unstyled, heading_grey) + 200
    # From the template's own <style>: the page size of the paper asked for.
    assert page_size(pdf) == pytest.approx(A4, abs=0.1)


def test_the_templates_style_wins_over_the_stylesheet_whatever_the_specificity(
    app: Flask, press: sheets._Press, tmp_path: Path
) -> None:
    # The caveat of a user stylesheet: an author rule (the template's <style>) wins over it,
    # even over a more specific selector. Linked, the stylesheet's rule would have won.
    stylesheet = tmp_path / "sheet.css"
    stylesheet.write_text("html body div.box { height: 30mm; background: #f00; }")
    html = '<style>div { background: #00f; }</style><div class="box"></div>'
    pdf = pressed(app, press, html, stylesheet)
    assert count_colour(pdf, BLUE) > 0 and count_colour(pdf, RED) == 0
    # The check can tell: the same rules, both the page's own, and the specific one wins.
    from weasyprint import HTML

    both_author = HTML(string=f"<style>{stylesheet.read_text()}</style>{html}").write_pdf()
    assert count_colour(both_author, RED) > 0 and count_colour(both_author, BLUE) == 0


# ---------------------------------------------------------------------------
# The garbage collector


def test_gc_is_off_during_a_render_and_back_on_after(
    client: FlaskClient, press: sheets._Press, monkeypatch: pytest.MonkeyPatch, gc_on: None
) -> None:
    during: list[bool] = []
    render = press.render

    def watch(*args: Any) -> Any:
        during.append(gc.isenabled())
        return render(*args)

    monkeypatch.setattr(press, "render", watch)
    get_pdf(client, "/sheets/blank.pdf?ruleset=standard&teams=3")
    assert during and not any(during)
    assert gc.isenabled()


def test_gc_is_back_on_after_a_render_that_raises(
    client: FlaskClient, press: sheets._Press, monkeypatch: pytest.MonkeyPatch, gc_on: None
) -> None:
    def broken(*_args: Any) -> Any:
        assert not gc.isenabled()
        raise RuntimeError("the press jammed")

    monkeypatch.setattr(press, "render", broken)
    with pytest.raises(RuntimeError, match="the press jammed"):
        client.get("/sheets/blank.pdf?ruleset=standard&teams=2")
    assert gc.isenabled()


def test_gc_stays_off_when_it_was_off(client: FlaskClient, gc_on: None) -> None:
    gc.disable()
    get_pdf(client, "/sheets/blank.pdf?ruleset=standard&teams=2")
    assert not gc.isenabled()


def test_gc_comes_back_when_the_last_of_overlapping_renders_ends(
    press: sheets._Press, gc_on: None
) -> None:
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with press.gc_paused():
            first_in.set()
            assert second_in.wait(10)
        seen["after first"] = gc.isenabled()
        first_out.set()

    def second() -> None:
        assert first_in.wait(10)
        with press.gc_paused():
            second_in.set()
            assert first_out.wait(10)
            seen["second still in"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert seen == {"after first": False, "second still in": False}
    assert gc.isenabled()


def test_a_render_ending_while_another_runs_frees_its_garbage(
    press: sheets._Press, gc_on: None
) -> None:
    """Overlapping sheets must not keep the collector off for a whole burst of printing."""

    class Box:
        other: Box

    with press.gc_paused():  # another thread's render, still running
        with press.gc_paused():
            first, second = Box(), Box()
            first.other, second.other = second, first  # a cycle, as WeasyPrint's boxes make
            gone = weakref.ref(first)
            del first, second
        assert gone() is None
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_printed_sheet_leaves_no_garbage_behind(
    app: Flask, client: FlaskClient, gc_on: None
) -> None:
    """A render's boxes are freed as the collector comes back, not moved on to linger.

    When the collector came back while the render's document was still held, the next
    collection moved the whole box tree on to an older generation, collected rarely: a
    server printing sheet after sheet grew by about 4 MB a filled sheet.
    """
    url = f"/games/{played_game(app)}/sheet.pdf"
    get_pdf(client, url)  # what the press keeps for every sheet: fonts, the stylesheet
    gc.collect()
    kept = weasyprint_objects()
    for _ in range(3):
        sheets.game_cache.clear()  # laid out again, not served from the cache
        get_pdf(client, url)
    assert gc.isenabled()
    # Each render made thousands of boxes and styles; none of them is left waiting.
    assert weasyprint_objects() - kept < 100


def weasyprint_objects() -> int:
    """WeasyPrint's objects the collector tracks, garbage not yet collected included."""
    modules = (vars(type(o)).get("__module__") for o in gc.get_objects())
    return sum(1 for module in modules if isinstance(module, str) and module[:10] == "weasyprint")


def test_the_collector_frees_a_render_left_by_one_that_ended_earlier(
    press: sheets._Press, gc_on: None
) -> None:
    """Overlapping renders: what an earlier ending moved on is freed when the last one ends."""

    class Box:
        other: Box

    with press.gc_paused():  # the render that ends last
        first, second = Box(), Box()
        first.other, second.other = second, first
        gone = weakref.ref(first)
        with press.gc_paused():  # another render ends first and collects: the boxes move on
            pass
        del first, second
    assert gone() is None
    assert gc.isenabled()


# ---------------------------------------------------------------------------
# Threads


def test_two_threads_rendering_at_once_both_get_their_sheet(
    app: Flask, press: sheets._Press, monkeypatch: pytest.MonkeyPatch, gc_on: None
) -> None:
    game_id = played_game(app)
    urls = ["/sheets/blank.pdf?ruleset=standard&teams=3", f"/games/{game_id}/sheet.pdf"]
    alone = {url: get_pdf(app.test_client(), url) for url in urls}
    sheets.blank_cache.clear()
    sheets.game_cache.clear()

    # Inside WeasyPrint, under the press's lock: how many renders at once, and whether both
    # requests were under way (the first waits there until the second has started).
    from weasyprint import HTML
    from weasyprint.document import Document

    state = {"inside": 0, "most": 0, "both_under_way": False}
    guard = threading.Lock()

    def tracked(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            with guard:
                state["inside"] += 1
                state["most"] = max(state["most"], state["inside"])
            try:
                deadline = time.monotonic() + 10
                while not state["both_under_way"] and time.monotonic() < deadline:
                    if press._gc_renders == 2:
                        state["both_under_way"] = True
                    else:
                        time.sleep(0.005)
                return real(*args, **kwargs)
            finally:
                with guard:
                    state["inside"] -= 1

        return call

    monkeypatch.setattr(HTML, "render", tracked(HTML.render))
    monkeypatch.setattr(Document, "write_pdf", tracked(Document.write_pdf))

    results: dict[str, bytes] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def fetch(url: str) -> None:
        try:
            start.wait(10)
            results[url] = get_pdf(app.test_client(), url)
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=fetch, args=(url,)) for url in urls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert state["both_under_way"]
    assert state["most"] == 1  # serialised: never two renders in WeasyPrint at once
    for url in urls:
        assert results[url] == alone[url], url
    assert "Deal 1" in reading(results[urls[0]])
    assert "Ann" in text(results[urls[1]])
    assert gc.isenabled()
