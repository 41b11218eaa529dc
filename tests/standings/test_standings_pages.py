"""The seasons, standings and player statistics pages."""

from __future__ import annotations

import re
from datetime import date

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from standings_support import G1_DEALS, Season, play

from scorekeeper.extensions import db, decimal
from scorekeeper.models import Season as SeasonRow
from scorekeeper.services import rulesets, standings
from scorekeeper.web import seasons


def seasons_in_db(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(SeasonRow)) or 0


def player_id(app: Flask, name: str) -> int:
    with app.app_context():
        return next(
            line.players[0] for line in standings.standings(None).players if line.name == name
        )


def test_seasons_page_lists_seasons_with_their_games(client: FlaskClient, season: Season) -> None:
    html = client.get("/seasons").get_data(as_text=True)
    assert f'href="/seasons/{season.season_id}"' in html
    assert re.search(r"Winter</a></th>.*?<td class=\"num\">3</td>", html, re.S)
    assert 'name="name"' in html and 'name="starts_on"' in html and 'name="ends_on"' in html


def test_create_a_season(app: Flask, client: FlaskClient) -> None:
    response = client.post(
        "/seasons", data={"name": "Spring", "starts_on": "2025-04-01", "ends_on": ""}
    )
    assert response.status_code == 302
    assert re.fullmatch(r"/seasons/\d+", response.headers["Location"])
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Spring" in page
    assert seasons_in_db(app) == 1


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"name": ""}, 400, "A season needs a name of 1 to 80 characters."),
        ({"name": "A", "starts_on": "soon"}, 400, "Not a valid date value."),
        ({"name": "A", "starts_on": "2025-05-01", "ends_on": "2025-04-01"}, 422, "cannot end"),
    ],
)
def test_a_refused_season_says_why_and_saves_nothing(
    app: Flask, client: FlaskClient, data: dict[str, str], status: int, message: str
) -> None:
    response = client.post("/seasons", data=data)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert "Nothing was saved" in html
    assert message in html
    # Where the keyboard starts, each problem leading to its field.
    summary = html.split('class="form-errors" role="alert" tabindex="-1" id="form-errors">')[1]
    assert re.search(rf'<a href="#(name|starts_on|ends_on)">[^<]*{re.escape(message)}', summary)
    assert seasons_in_db(app) == 0


def test_a_refused_season_is_said_in_danish_too(app: Flask, client: FlaskClient) -> None:
    """WTForms has no Danish: its messages come from the app's own catalogue."""
    danish = {"Accept-Language": "da"}
    html = client.post("/seasons", data={"name": "A", "starts_on": "snart"}, headers=danish)
    assert html.status_code == 400
    assert "Ikke en gyldig dato." in html.get_data(as_text=True)
    assert seasons_in_db(app) == 0


def test_a_season_name_is_taken_once(app: Flask, client: FlaskClient) -> None:
    assert client.post("/seasons", data={"name": "Spring"}).status_code == 302
    response = client.post("/seasons", data={"name": "SPRING"})
    assert response.status_code == 409
    assert "already a season called" in response.get_data(as_text=True)
    assert seasons_in_db(app) == 1


def test_the_form_needs_its_csrf_token(app: Flask, client: FlaskClient) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    assert client.post("/seasons", data={"name": "Spring"}).status_code == 400
    html = client.get("/seasons").get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match
    response = client.post("/seasons", data={"name": "Spring", "csrf_token": match.group(1)})
    assert response.status_code == 302
    assert seasons_in_db(app) == 1


def test_season_standings_page(client: FlaskClient, season: Season) -> None:
    html = client.get(f"/seasons/{season.season_id}").get_data(as_text=True)
    assert "<h1>Winter</h1>" in html
    assert "3 finished games" in html
    for name in ("Ann", "Ben", "Cleo", "Dan", "Eve"):
        assert f">{name}</a>" in html
    assert "18,330" in html  # Ann's points
    assert "1.5" in html  # shared wins
    # The rules by name, as everywhere else, not by their id.
    assert "Standard partnership</span>: 2 games, 6530 per game" in html  # four digits together
    assert "Easier going out (no wild books)</span>: 1 game" in html
    assert f'action="/seasons/{season.season_id}/what-if"' in html


def test_house_rules_are_named_in_the_standings(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        house = rulesets.create_house_rules("Friday's rules", "standard", {"deal_count": 2})
        play(house.slug, [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS[:2])
        slug = house.slug
    for path in ("/standings", f"/players/{player_id(app, 'Ann')}"):
        html = client.get(path).get_data(as_text=True)
        assert "Friday&#39;s rules" in html, path
        assert slug not in html.replace(f"/rules/{slug}", ""), path
    # Rules deleted since still name their games' points, by the name the games kept.
    with app.app_context():
        rulesets.delete_house_rules(slug)
    for path in ("/standings", f"/players/{player_id(app, 'Ann')}"):
        html = client.get(path).get_data(as_text=True)
        assert "Friday&#39;s rules" in html, path
        assert slug not in html, path


def test_new_rules_of_a_deleted_name_are_told_apart_from_the_old_ones(app: Flask) -> None:
    # Games keep the id of the rules they were played under, and the standings split a
    # line's points by it: new rules of the same name must not take the old id again.
    with app.app_context():
        old = rulesets.create_house_rules("Friday", "standard", {"deal_count": 2})
        play(old.slug, [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS[:2])
        rulesets.delete_house_rules(old.slug)
        new = rulesets.create_house_rules(
            "Friday", "standard", {"deal_count": 2, "clean_book_bonus": 600}
        )
        assert new.slug != old.slug
        play(new.slug, [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS[:2])
        ann = next(line for line in standings.standings().players if line.name == "Ann")
        assert {key: share.games for key, share in ann.rules.items()} == {
            old.slug: 1,
            new.slug: 1,
        }


def test_standings_sort_links(client: FlaskClient, season: Season) -> None:
    html = client.get("/standings?sort=points").get_data(as_text=True)
    assert re.search(
        r'<th scope="col" class="num" aria-sort="descending">\s*<a href="/standings\?sort=points',
        html,
    )
    first = re.search(
        r'<tbody>\s*<tr>\s*<td class="num">1</td>\s*<th scope="row">(.*?)</th>', html, re.S
    )
    assert first and ">Cleo<" in first.group(1)


def test_an_unknown_sort_falls_back_to_wins(client: FlaskClient, season: Season) -> None:
    response = client.get("/standings?sort=luck")
    assert response.status_code == 200
    assert 'aria-sort="descending"><a href="/standings?sort=wins' in response.get_data(
        as_text=True
    ).replace("\n  ", "")


def test_empty_standings_page(client: FlaskClient) -> None:
    response = client.get("/standings")
    assert response.status_code == 200
    assert "No finished games count here yet" in response.get_data(as_text=True)


def test_player_page(app: Flask, client: FlaskClient, season: Season) -> None:
    # Issue 6: the player page, /players/<id>, shows games, partners (record with each),
    # opponents (head to head) and the rating over time.
    ann = player_id(app, "Ann")
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    assert "<h1>Ann</h1>" in html
    assert "Rating of Ann over time" in html
    assert 'id="opponents-heading">Head to head<' in html
    assert f'href="/players/{ann}/games"' in html
    assert f'href="/players/{ann}/rename"' in html
    # The statistics' old address leads there.
    moved = client.get(f"/players/{ann}/stats")
    assert moved.status_code == 301
    assert moved.headers["Location"].endswith(f"/players/{ann}")
    partners = html[html.index("partners-heading") : html.index("opponents-heading")]
    # All time: three games with Ben (two won), one with Cleo (a shared win).
    assert re.search(r'>Ben</a></th>\s*<td class="num">3</td>\s*<td class="num">2</td>', partners)
    assert re.search(
        r'>Cleo</a></th>\s*<td class="num">1</td>\s*<td class="num">0.5</td>', partners
    )
    assert f'href="/games/{season.g3}"' in html


def test_player_stats_partners_and_opponents(app: Flask, ctx: Flask, season: Season) -> None:
    stats = standings.player_stats(player_id(app, "Ann"))
    partners = {r.name: (r.games, r.wins, r.points) for r in stats.partners}
    # All time: G7, G1 and G3 with Ben (2 wins), G2 with Cleo (a shared win).
    assert partners == {"Ben": (3, 2, 8070 + 8070 + 4990), "Cleo": (1, 0.5, 5270)}
    opponents = {r.name: (r.games, r.won, r.lost, r.tied) for r in stats.opponents}
    assert opponents == {
        "Cleo": (3, 2, 1, 0),  # G7, G1 ahead; G3 behind
        "Dan": (3, 2, 0, 1),  # G7, G1 ahead; G2 level
        "Ben": (1, 0, 0, 1),  # G2 level
        "Eve": (1, 0, 1, 0),  # G3 behind
    }
    assert [g.game_id for g in stats.recent] == [season.g3, season.g2, season.g1, season.g7]
    assert [g.result for g in stats.recent] == ["lost", "shared", "won", "won"]
    assert len(stats.history) == 4
    assert sum(b.games for b in stats.distribution) == 4
    assert stats.rank is not None


@pytest.mark.parametrize(
    "path",
    ["/seasons/999", "/players/999", "/players/999/games", "/seasons/99999999999999999999999"],
)
def test_unknown_pages_are_not_found(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Not found" in response.get_data(as_text=True)


def test_a_row_with_many_rules_shows_the_most_played_and_the_others_one_tap_away(
    app: Flask, client: FlaskClient
) -> None:
    """Every rules a line's points came from is on the page; past two, all but the most
    played are in a disclosure, so that a row stays a line or two high."""
    with app.app_context():
        for name, games in (("Monday", 2), ("Tuesday", 1), ("Wednesday", 1)):
            house = rulesets.create_house_rules(name, "standard", {"deal_count": 2})
            for _ in range(games):
                play(house.slug, [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS[:2])
        play("standard", [["Ann", "Cleo"], ["Ben", "Dan"]], G1_DEALS)
    html = client.get("/standings").get_data(as_text=True)
    table = html[html.index('id="players-play"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr>.*?</tr>", table, re.S)
    ann = next(row for row in rows if ">Ann</a>" in row)
    summary = re.search(r"<summary>(.*?)</summary>", ann, re.S)
    assert summary, ann
    first = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", summary.group(1))).strip()
    with app.app_context():
        line = next(line for line in standings.standings(None).players if line.name == "Ann")
        monday = next(share for share in line.rules.values() if share.games == 2)
    per_game = str(round(monday.average_per_game))  # four digits, written together
    assert first == f"Monday: 2 games, {per_game} per game and 3 other rules"
    others = ann[ann.index("</summary>") :]
    for name in ("Tuesday", "Wednesday", "Standard partnership"):
        assert f'<span class="rules-name">{name}</span>: 1 game' in others, name
    # Ann and Cleo played together under one rules only: it is listed plainly.
    pairs = html[html.index('id="partnerships-play"') :]
    pairs = pairs[: pairs.index("</table>")]
    together = next(
        row
        for row in re.findall(r"<tr>.*?</tr>", pairs, re.S)
        if ">Ann</a> &amp; <a" in row and ">Cleo</a>" in row
    )
    assert "<details" not in together
    assert '<span class="rules-name">Standard partnership</span>: 1 game' in together


def test_a_season_is_renamed_and_its_dates_changed(app: Flask, client: FlaskClient) -> None:
    assert client.post("/seasons", data={"name": "Sprng"}).status_code == 302
    assert client.post("/seasons", data={"name": "Summer"}).status_code == 302
    with app.app_context():
        sprng = db.session.scalar(select(SeasonRow).filter_by(name="Sprng"))
        assert sprng is not None
        season_id = sprng.id
    page = client.get(f"/seasons/{season_id}").get_data(as_text=True)
    assert f'href="/seasons/{season_id}/edit"' in page
    form = client.get(f"/seasons/{season_id}/edit").get_data(as_text=True)
    assert 'value="Sprng"' in form
    # A name taken by another season, or dates the wrong way round: said, nothing saved.
    taken = client.post(f"/seasons/{season_id}/edit", data={"name": "SUMMER"})
    assert taken.status_code == 409
    assert "There is already a season called SUMMER." in taken.get_data(as_text=True)
    backwards = {"name": "Spring", "starts_on": "2026-05-01", "ends_on": "2026-04-01"}
    refused = client.post(f"/seasons/{season_id}/edit", data=backwards)
    assert refused.status_code == 422
    assert 'value="Spring"' in refused.get_data(as_text=True)  # what was typed stays
    with app.app_context():
        assert db.session.get(SeasonRow, season_id).name == "Sprng"  # type: ignore[union-attr]
    # Its own name in another case is its own.
    saved = client.post(
        f"/seasons/{season_id}/edit", data={"name": "Spring", "starts_on": "2026-03-01"}
    )
    assert saved.status_code == 302 and saved.headers["Location"] == f"/seasons/{season_id}"
    assert "Season Spring is saved." in client.get(saved.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        season = db.session.get(SeasonRow, season_id)
        assert season is not None
        assert (season.name, season.starts_on, season.ends_on) == ("Spring", date(2026, 3, 1), None)
    assert client.get("/seasons/999/edit").status_code == 404


def test_deleting_a_season_keeps_its_games(app: Flask, client: FlaskClient, season: Season) -> None:
    season_id = season.season_id

    def all_time() -> list[tuple[str, int, int]]:
        with app.app_context():
            table = standings.standings(None)
            return [(line.name, line.games, line.points) for line in table.players]

    before = all_time()
    ask = client.get(f"/seasons/{season_id}/delete")
    assert ask.status_code == 200
    assert "Its 5 games stay, in no season" in ask.get_data(as_text=True)  # not the deleted one
    assert seasons_in_db(app) == 1  # asking deletes nothing
    done = client.post(f"/seasons/{season_id}/delete")
    assert done.status_code == 302 and done.headers["Location"] == "/seasons"
    assert "The season Winter is deleted; its 5 games stay, in no season." in client.get(
        "/seasons"
    ).get_data(as_text=True)
    assert seasons_in_db(app) == 0
    assert client.get(f"/seasons/{season_id}").status_code == 404
    with app.app_context():
        from scorekeeper.models import Game

        assert db.session.scalar(select(func.count()).select_from(Game)) == 7
        assert db.session.scalar(select(func.count()).where(Game.season_id.is_not(None))) == 0
    # The all-time standings count the same games as before.
    assert all_time() == before and before
    # A new season never shows the deleted one's standings, whatever number it is given.
    assert client.post("/seasons", data={"name": "Winter again"}).status_code == 302
    with app.app_context():
        again = db.session.scalar(select(SeasonRow).filter_by(name="Winter again"))
        assert again is not None
        again_id = again.id
    assert "0 finished games" in client.get(f"/seasons/{again_id}").get_data(as_text=True)


def test_figures_round_a_half_up_wherever_they_are_shown(app: Flask) -> None:
    """As on paper: 7922.5 points a game is 7923 (round() said 7922, and 2807.5 said 2808)."""
    with app.test_request_context("/"):
        assert (seasons.whole(7922.5), seasons.whole(2807.5)) == ("7923", "2808")
        assert seasons.whole(12_344.5) == "12,345"
        assert seasons.signed_whole(0.5) == "+1"
        assert seasons.signed_whole(-2806.5) == "\u22122807"
        assert (decimal(4.25), decimal(4.35), decimal(0.145, 2)) == ("4.3", "4.4", "0.15")
        assert seasons.percent(0.125) == "13%"
        assert seasons.percent(0.145) == "15%"
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        assert (seasons.whole(7922.5), decimal(4.25), seasons.percent(0.125)) == (
            "7923",
            "4,3",
            "13\u00a0%",
        )


def test_books_per_game_name_black_threes_and_special_books_in_their_places(app: Flask) -> None:
    """clean / dirty / wild, then black threes, then a house rule's own books: a line with
    special books but no black-three book still shows the black threes' 0 in their place."""
    plain = standings.Line(players=(1,), games=2, clean_books=5, dirty_books=4, wild_books=1)
    black = standings.Line(players=(2,), games=2, clean_books=4, black_three_books=1)
    special = standings.Line(players=(3,), games=2, clean_books=4, special_books=3)
    with app.test_request_context("/"):
        assert seasons.books(plain) == "2.5 / 2 / 0.5"
        assert seasons.books(black) == "2 / 0 / 0 / 0.5"
        assert seasons.books(special) == "2 / 0 / 0 / 0 / 1.5"
    assert special.books_per_game["special"] == 1.5
    assert standings.SORTS["books"](special) == 3.5
