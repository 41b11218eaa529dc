"""Command-line tools: ``flask --app scorekeeper <command>``."""

from __future__ import annotations

import os
import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_babel import force_locale, ngettext
from flask_babel import gettext as _
from sqlalchemy import inspect

from scorekeeper.extensions import db
from scorekeeper.messages import imported_text, say
from scorekeeper.services.errors import ServiceError


def _refused(error: ServiceError) -> click.ClickException:
    """A service's refusal as the command's error: every problem, with where it is."""
    return click.ClickException(
        "\n".join(f"{p.field}: {say(p)}" if p.field else say(p) for p in error.problems)
    )


def _need_tables() -> None:
    if not inspect(db.engine).has_table("game"):
        raise click.ClickException(
            _("The database has no tables yet: run `flask --app scorekeeper db upgrade`.")
        )


@click.command("export")
@click.option(
    "--format",
    "kind",
    type=click.Choice(["json", "csv"]),
    default="json",
    show_default=True,
    help="json: complete, for importing again; csv: a zip of CSV files for a spreadsheet.",
)
@click.option("--season", default=None, help="Only this season (its id or name).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="The file to write (default: JSON on the screen; a CSV zip needs a file).",
)
@with_appcontext
def export_command(kind: str, season: str | None, output: str | None) -> None:
    """Export everything, or one season, as JSON or as CSV files."""
    from scorekeeper.services import exchange

    with force_locale(current_app.config["BABEL_DEFAULT_LOCALE"]):
        _need_tables()
        try:
            season_id = exchange.season_of(season) if season else None
            if kind == "csv":
                if output is None:
                    raise click.ClickException(_("A CSV export is a zip file: name it with -o."))
                data = exchange.export_csv(season_id)
                with open(output, "wb") as f:
                    size = f.write(data)
            else:
                with exchange.open_export(season_id) as export:
                    # Written out while it is read: never all the games in memory at once.
                    chunks = (chunk.encode("utf-8") for chunk in export.json_chunks())
                    if output is None:
                        for chunk in chunks:
                            click.echo(chunk, nl=False)
                        click.echo()
                        return
                    # Into a file beside it, renamed when complete: a failure halfway
                    # leaves the earlier export under that name as it was.
                    partial = f"{output}.partial"
                    try:
                        with open(partial, "wb") as f:
                            size = sum(f.write(chunk) for chunk in chunks)
                        os.replace(partial, output)
                    finally:
                        if os.path.exists(partial):
                            os.remove(partial)
        except ServiceError as error:
            raise _refused(error) from error
        click.echo(_("Exported to %(file)s (%(size)d bytes).", file=output, size=size))


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@with_appcontext
def import_command(file: str) -> None:
    """Import a JSON export: all of it, or nothing if anything in it is wrong."""
    from scorekeeper.services import exchange

    with force_locale(current_app.config["BABEL_DEFAULT_LOCALE"]):
        _need_tables()
        with open(file, "rb") as f:
            data = f.read()
        try:
            summary = exchange.import_text(data)
        except ServiceError as error:
            raise _refused(error) from error
        click.echo(imported_text(summary))


@click.command("backup")
@click.option("--list", "listing", is_flag=True, help="List the backups instead of making one.")
@with_appcontext
def backup_command(listing: bool) -> None:
    """Back up the whole database into instance/backups (safe while the app runs)."""
    from scorekeeper.services import backups

    with force_locale(current_app.config["BABEL_DEFAULT_LOCALE"]):
        try:
            if listing:
                for backup in backups.list_backups():
                    click.echo(f"{backup.name}\t{backup.size}\t{backup.kind}")
                return
            backup = backups.make_backup()
        except ServiceError as error:
            raise _refused(error) from error
        click.echo(_("Backed up to %(path)s.", path=str(backup.path)))


@click.command("restore")
@click.argument("file")
@click.option("--yes", is_flag=True, help="Replace the database without asking.")
@with_appcontext
def restore_command(file: str, yes: bool) -> None:
    """Replace the whole database by a backup (a file, or a name from `backup --list`)."""
    from pathlib import Path

    from scorekeeper.services import backups

    with force_locale(current_app.config["BABEL_DEFAULT_LOCALE"]):
        path = Path(file)
        try:
            if not path.exists() and "/" not in file:
                path = backups.find_backup(file).path
            backups.check_restorable(path)
            if not yes:
                click.confirm(
                    _(
                        "Replace the whole database by %(file)s? The current one is backed up "
                        "first.",
                        file=file,
                    ),
                    abort=True,
                )
            safety = backups.restore(path)
        except ServiceError as error:
            raise _refused(error) from error
        click.echo(
            _(
                "Restored %(file)s. The database as it was is in %(safety)s.",
                file=file,
                safety=safety.name,
            )
        )


def init_cli(app: Flask) -> None:
    """Register the project's commands on ``app``."""
    app.cli.add_command(demo)
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


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
                    ngettext(
                        "%(done)d/%(games)d game (%(seconds)s s)",
                        "%(done)d/%(games)d games (%(seconds)s s)",
                        games,
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
                "Played %(games)s with %(deals)s (%(corrections)s) into season %(season)s, "
                "%(first)s to %(last)s, in %(seconds)s s.",
                games=ngettext("%(num)d game", "%(num)d games", summary.games),
                deals=ngettext("%(num)d deal", "%(num)d deals", summary.deals),
                corrections=ngettext("%(num)d corrected", "%(num)d corrected", summary.corrections),
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
                ngettext(
                    "%(num)d deal fell back to a deal where nobody melded.",
                    "%(num)d deals fell back to a deal where nobody melded.",
                    summary.fallbacks,
                )
            )
