"""Command-line tools: ``flask --app scorekeeper <command>``."""

from __future__ import annotations

import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import inspect

from scorekeeper.extensions import db
from scorekeeper.messages import say
from scorekeeper.services.errors import ServiceError


def init_cli(app: Flask) -> None:
    """Register the project's commands on ``app``."""
    app.cli.add_command(demo)


@click.command("demo")
@click.option(
    "--games",
    type=click.IntRange(1, 100_000),
    default=40,
    show_default=True,
    help="How many games to play into the database.",
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="The same seed always gives the same games.",
)
@click.option("--season", "season_name", default=None, help="The season's name.")
@with_appcontext
def demo(games: int, seed: int, season_name: str | None) -> None:
    """Fill the database with a season of made-up, valid games."""
    from scorekeeper.demo import run_demo  # the generator is only needed here

    # There is no request on the command line: speak the configured default language.
    with force_locale(current_app.config["BABEL_DEFAULT_LOCALE"]):
        if not inspect(db.engine).has_table("game"):
            raise click.ClickException(
                _("The database has no tables yet: run `flask --app scorekeeper db upgrade`.")
            )
        every = max(1, games // 10)
        started = time.perf_counter()

        def progress(done: int) -> None:
            if done % every == 0 or done == games:
                elapsed = time.perf_counter() - started
                click.echo(
                    _(
                        "%(done)d/%(games)d games (%(seconds)s s)",
                        done=done,
                        games=games,
                        seconds=f"{elapsed:.1f}",
                    )
                )

        try:
            summary = run_demo(games, seed, season_name, progress)
        except ServiceError as error:
            raise click.ClickException(" ".join(say(p) for p in error.problems)) from error
        elapsed = time.perf_counter() - started
        click.echo(
            _(
                "Played %(games)d games with %(deals)d deals (%(corrections)d corrected) into "
                "season %(season)s, %(first)s to %(last)s, in %(seconds)s s.",
                games=summary.games,
                deals=summary.deals,
                corrections=summary.corrections,
                season=summary.season,
                first=str(summary.first_day),
                last=str(summary.last_day),
                seconds=f"{elapsed:.1f}",
            )
        )
        click.echo(
            _(
                "New players: %(players)d, new seasons: %(seasons)d, new house rules: %(house)d.",
                players=summary.players_created,
                seasons=summary.seasons_created,
                house=summary.house_rules_created,
            )
        )
        if summary.fallbacks:
            click.echo(
                _(
                    "%(count)d deals fell back to a deal where nobody melded.",
                    count=summary.fallbacks,
                )
            )
