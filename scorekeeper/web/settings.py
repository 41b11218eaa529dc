"""Pages: the settings page (the table passcode, your data), signing in and signing out.

Your data: download an export (JSON or a zip of CSV files), import a JSON export, make a
backup now, and restore one. Downloads are reads; every other action is a write, guarded
by the table passcode like all writes (see :mod:`scorekeeper.auth`) and by the CSRF token.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, HiddenField, PasswordField, SubmitField  # type: ignore[import-untyped]
from wtforms.validators import (  # type: ignore[import-untyped]
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    Optional,
)

from scorekeeper import auth
from scorekeeper.messages import imported_text, say
from scorekeeper.rules.i18n import N_
from scorekeeper.services import backups, exchange
from scorekeeper.services import standings as standings_service
from scorekeeper.services.errors import Malformed, ServiceError
from scorekeeper.services.errors import NotFound as NotFoundError

from .forms import AppForm

bp = Blueprint("settings", __name__)

SHORTEST_PASSCODE = 4


class SignInForm(AppForm):
    passcode = PasswordField(
        _l("Table passcode"),
        validators=[
            InputRequired(_l("Enter the table passcode.")),
            Length(max=auth.LONGEST_PASSCODE),
        ],
        render_kw={"autocomplete": "current-password", "autofocus": True},
    )


class PasscodeForm(AppForm):
    current = PasswordField(
        _l("Current passcode"),
        validators=[Optional(), Length(max=auth.LONGEST_PASSCODE)],
        render_kw={"autocomplete": "current-password"},
    )
    new = PasswordField(
        _l("New passcode"),
        validators=[
            Optional(),
            Length(
                min=SHORTEST_PASSCODE,
                max=auth.LONGEST_PASSCODE,
                message=_l(
                    "A passcode needs %(low)d to %(high)d characters.",
                    low=SHORTEST_PASSCODE,
                    high=auth.LONGEST_PASSCODE,
                ),
            ),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        _l("New passcode again"),
        validators=[EqualTo("new", _l("The two new passcodes differ."))],
        render_kw={"autocomplete": "new-password"},
    )
    save = SubmitField(_l("Save passcode"))
    clear = SubmitField(_l("Remove the passcode"))


class ImportForm(AppForm):
    file = FileField(
        _l("Export file (JSON)"),
        validators=[FileRequired(_l("Choose the export file to import."))],
        render_kw={"accept": "application/json,.json"},
    )
    submit = SubmitField(_l("Import"))


class BackupForm(AppForm):
    submit = SubmitField(_l("Back up now"))


class RestoreForm(AppForm):
    name = HiddenField(validators=[DataRequired()])
    confirm = BooleanField(
        _l("Yes, replace everything by this backup"),
        validators=[DataRequired(_l("Tick the box to confirm the restore."))],
    )
    submit = SubmitField(_l("Restore"))


def _backups() -> tuple[list[backups.Backup], str | None]:
    """The backups, or why there are none here (not SQLite)."""
    try:
        backups.database_path()
    except ServiceError as error:
        return [], " ".join(say(p) for p in error.problems)
    return backups.list_backups(), None


def _page(form: PasscodeForm, status: int = 200) -> ResponseReturnValue:
    listed, refused = _backups()
    return (
        render_template(
            "settings/index.html",
            form=form,
            passcode_set=auth.passcode_is_set(),
            by_config=auth.set_by_config(),
            signed_in=auth.signed_in(),
            import_form=ImportForm(),
            backup_form=BackupForm(),
            restore_form=RestoreForm(),
            backups=listed,
            backups_refused=refused,
            seasons=standings_service.seasons(),
        ),
        status,
    )


def _flash_problems(headline: str, error: ServiceError) -> None:
    flash(headline, "error")
    shown = error.problems[:10]
    for problem in shown:
        message = say(problem)
        flash(f"{problem.field}: {message}" if problem.field else message, "error")
    if len(error.problems) > len(shown):
        flash(_("… and %(count)d more.", count=len(error.problems) - len(shown)), "error")


@bp.get("/settings")
def index() -> ResponseReturnValue:
    return _page(PasscodeForm())


@bp.post("/settings")
def update() -> ResponseReturnValue:
    # Signing in is enforced before this view (auth.init_auth); the current passcode is asked
    # again so a tablet left signed in cannot have its passcode changed by a passer-by.
    form = PasscodeForm()
    if auth.set_by_config():
        flash(_("The passcode is set in the instance config; change it there."), "error")
        return _page(form, 409)
    if not form.validate():
        return _page(form, 400)
    if auth.passcode_is_set():
        # Guessed here as at the sign-in: the same limit on wrong passcodes, counted together.
        key = auth.client_key()
        wait = auth.limiter().blocked_for(key)
        if wait > 0:
            form.current.errors.append(auth.too_many_tries(wait))
            return _page(form, 429)
        if not auth.check_passcode(form.current.data or ""):
            auth.limiter().fail(key)
            form.current.errors.append(_("That is not the current passcode."))
            return _page(form, 400)
        auth.limiter().forget(key)
    if form.clear.data:
        auth.set_passcode(None)
        flash(_("The passcode is removed: anyone at the table can enter scores."), "success")
        return redirect(url_for(".index"))
    if not form.new.data:
        form.new.errors.append(_("Enter the new passcode."))
        return _page(form, 400)
    auth.set_passcode(form.new.data)
    auth.sign_in()  # this tablet stays signed in with the new passcode
    flash(_("The passcode is saved. Other tablets need to sign in with it."), "success")
    return redirect(url_for(".index"))


# ---------------------------------------------------------------------------
# Your data


def _season_arg() -> int | None:
    """The season asked for; none (everything) when none is; one that is no season's number
    is refused, rather than quietly exporting everything."""
    raw = request.args.get("season", "")
    if not raw:
        return None
    if raw.isascii() and raw.isdigit() and 0 < int(raw) < 2**63:
        return int(raw)
    raise Malformed.say(N_("Choose a season from the list."), field="season")


def _download(data: bytes | Iterable[str], name: str, mimetype: str) -> Response:
    return Response(
        data,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _export_name(season_id: int | None, extension: str) -> str:
    scope = f"season-{season_id}" if season_id is not None else "all"
    return f"scorekeeper-{scope}.{extension}"


def _export_refused(error: ServiceError) -> ResponseReturnValue:
    """The settings page saying why there is no download (refused before its first byte)."""
    _flash_problems(_("Nothing was exported."), error)
    return _page(PasscodeForm(), error.status)


@bp.get("/settings/export.json")
def export_json() -> ResponseReturnValue:
    try:
        season_id = _season_arg()
        export = exchange.open_export(season_id)
    except NotFoundError:
        abort(404)
    except ServiceError as error:
        return _export_refused(error)
    # Sent while it is read, from one snapshot held until the last byte (see exchange). The
    # pieces need no request context: their connection is the export's own.
    chunks = export.json_chunks()
    response = _download(chunks, _export_name(season_id, "json"), "application/json")
    # A download dropped before its first byte never starts the pieces that would close it.
    response.call_on_close(export.close)
    return response


@bp.get("/settings/export.zip")
def export_csv() -> ResponseReturnValue:
    try:
        season_id = _season_arg()
        data = exchange.export_csv(season_id)
    except NotFoundError:
        abort(404)
    except ServiceError as error:
        return _export_refused(error)
    return _download(data, _export_name(season_id, "csv.zip"), "application/zip")


def _import_limit() -> int:
    return exchange.import_limit(current_app.config)


@bp.post("/settings/import")
def import_file() -> ResponseReturnValue:
    # The upload is read up to the import's limit (``upload_limit`` below); past it, it is
    # refused before it is stored, in ``too_large``'s words, whoever reads it first.
    form = ImportForm()
    if not form.validate():
        for messages in form.errors.values():
            for message in messages:
                flash(str(message), "error")
        return redirect(url_for(".index"), 303)
    try:
        summary = exchange.import_text(form.file.data.read())
    except ServiceError as error:
        _flash_problems(_("The file was not imported; nothing was changed."), error)
        return redirect(url_for(".index"), 303)
    flash(imported_text(summary), "success")
    return redirect(url_for(".index"), 303)


@bp.post("/settings/backup")
def backup() -> ResponseReturnValue:
    form = BackupForm()
    if not form.validate():
        flash(_("The form expired; please try again."), "error")
        return redirect(url_for(".index"), 303)
    try:
        made = backups.make_backup()
    except ServiceError as error:
        _flash_problems(_("No backup was made."), error)
        return redirect(url_for(".index"), 303)
    flash(_("Backed up to %(name)s.", name=made.name), "success")
    return redirect(url_for(".index"), 303)


@bp.post("/settings/restore")
def restore() -> ResponseReturnValue:
    form = RestoreForm()
    if not form.validate():
        for messages in form.errors.values():
            for message in messages:
                flash(str(message), "error")
        return redirect(url_for(".index", _anchor="backups"), 303)
    try:
        safety = backups.restore_named(form.name.data)
    except ServiceError as error:
        _flash_problems(_("Nothing was restored."), error)
        return redirect(url_for(".index", _anchor="backups"), 303)
    flash(
        _(
            "Restored %(name)s. The database as it was before is kept as %(safety)s.",
            name=form.name.data,
            safety=safety.name,
        ),
        "success",
    )
    return redirect(url_for(".index", _anchor="backups"), 303)


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    form = SignInForm()
    target = auth.safe_next(request.values.get("next"))
    # What a page sent before it had to sign in (auth._require_sign_in), kept on every try.
    carried = [
        (name.removeprefix(auth.CARRIED), value)
        for name, value in request.form.items(multi=True)
        if name.startswith(auth.CARRIED)
    ]
    resume = auth.resumable(request.form.get("resume_to")) if carried else None
    if resume is None:
        carried = []
    resume_to, action = resume or (None, None)
    page = partial(
        render_template, "auth/sign_in.html", form=form, next=target, carried=carried,
        resume_to=resume_to,
    )  # fmt: skip
    if not auth.passcode_is_set():
        return redirect(target)
    if request.method != "POST":  # GET, or HEAD: a read that must never write
        return page()

    key = auth.client_key()
    wait = auth.limiter().blocked_for(key)
    if wait > 0:
        return page(refused=auth.too_many_tries(wait)), 429
    if not form.validate():
        return page(), 400
    if not auth.check_passcode(form.passcode.data or ""):
        auth.limiter().fail(key)
        form.passcode.errors.append(_("That passcode is not right."))
        return page(), 401
    auth.limiter().forget(key)
    auth.sign_in()
    flash(_("Signed in. You can enter scores now."), "success")
    if carried and resume_to:
        # Not saved behind the player's back: they see it is still to be saved, and save it.
        return render_template(
            "auth/resume.html", carried=carried, resume_to=resume_to, action=action, next=target
        )
    return redirect(target)


@bp.post("/sign-out")
def sign_out() -> ResponseReturnValue:
    auth.sign_out()
    flash(_("Signed out. Reading scores still works; saving needs the passcode."), "success")
    return redirect(url_for("main.index"))


def _import_too_large() -> ResponseReturnValue:
    flash(_("The file is too large to import."), "error")
    return redirect(url_for(".index"), 303)


# The form is first read before this view runs (the CSRF check): it must know the limit, and
# a file past it is refused in the import's own words, whoever read it first.
import_file.upload_limit = _import_limit  # type: ignore[attr-defined]
import_file.too_large = _import_too_large  # type: ignore[attr-defined]
