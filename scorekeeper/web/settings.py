"""Pages: the settings page (the table passcode), signing in and signing out."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, SubmitField  # type: ignore[import-untyped]
from wtforms.validators import (  # type: ignore[import-untyped]
    EqualTo,
    InputRequired,
    Length,
    Optional,
)

from scorekeeper import auth

bp = Blueprint("settings", __name__)

SHORTEST_PASSCODE = 4


class SignInForm(FlaskForm):  # type: ignore[misc]
    passcode = PasswordField(
        _l("Table passcode"),
        validators=[
            InputRequired(_l("Enter the table passcode.")),
            Length(max=auth.LONGEST_PASSCODE),
        ],
        render_kw={"autocomplete": "current-password", "autofocus": True},
    )


class PasscodeForm(FlaskForm):  # type: ignore[misc]
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


def _page(form: PasscodeForm, status: int = 200) -> ResponseReturnValue:
    return (
        render_template(
            "settings/index.html",
            form=form,
            passcode_set=auth.passcode_is_set(),
            by_config=auth.set_by_config(),
            signed_in=auth.signed_in(),
        ),
        status,
    )


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
    if auth.passcode_is_set() and not auth.check_passcode(form.current.data or ""):
        form.current.errors.append(_("That is not the current passcode."))
        return _page(form, 400)
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


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    form = SignInForm()
    target = auth.safe_next(request.values.get("next"))
    if not auth.passcode_is_set():
        return redirect(target)
    if request.method == "GET":
        return render_template("auth/sign_in.html", form=form, next=target)

    key = auth.client_key()
    wait = auth.limiter().blocked_for(key)
    if wait > 0:
        minutes = max(1, int(-(-wait // 60)))
        message = _("Too many wrong passcodes. Try again in %(minutes)d minutes.", minutes=minutes)
        return render_template("auth/sign_in.html", form=form, next=target, refused=message), 429
    if not form.validate():
        return render_template("auth/sign_in.html", form=form, next=target), 400
    if not auth.check_passcode(form.passcode.data or ""):
        auth.limiter().fail(key)
        form.passcode.errors.append(_("That passcode is not right."))
        return render_template("auth/sign_in.html", form=form, next=target), 401
    auth.limiter().forget(key)
    auth.sign_in()
    flash(_("Signed in. You can enter scores now."), "success")
    return redirect(target)


@bp.post("/sign-out")
def sign_out() -> ResponseReturnValue:
    auth.sign_out()
    flash(_("Signed out. Reading scores still works; saving needs the passcode."), "success")
    return redirect(url_for("main.index"))
