"""The base of every WTForms form here: WTForms' own messages ("Not a valid integer value.")
in the table's language, in the sub-forms of a form too, and in Danish.

Flask-WTF translates a ``FlaskForm``'s messages from WTForms' catalogues, but not those of the
plain ``Form`` a ``FormField`` holds (the house-rules editor's deals and card values), and
WTForms has no Danish. The messages a player can meet here are in this app's catalogues (the
list below); anything else falls back to WTForms' own catalogue, then to English.
"""

from __future__ import annotations

from typing import Any

from flask_babel import get_translations
from flask_wtf import FlaskForm
from flask_wtf.i18n import translations as wtforms_translations
from wtforms import Form  # type: ignore[import-untyped]

from scorekeeper.rules.i18n import N_, NP_

# WTForms' messages that the fields and validators used here can give, word for word.
WTFORMS_MESSAGES = (
    N_("This field is required."),
    N_("Invalid input."),
    N_("Not a valid integer value."),
    N_("Not a valid date value."),
    N_("Not a valid choice."),
    N_("Invalid Choice: could not coerce."),
    N_("Invalid choice(s): one or more data inputs could not be coerced."),
    NP_(
        "'%(value)s' is not a valid choice for this field.",
        "'%(value)s' are not valid choices for this field.",
    ),
    N_("Field must be equal to %(other_name)s."),
    N_("Field must be between %(min)d and %(max)d characters long."),
    NP_(
        "Field must be at least %(min)d character long.",
        "Field must be at least %(min)d characters long.",
    ),
    NP_(
        "Field cannot be longer than %(max)d character.",
        "Field cannot be longer than %(max)d characters.",
    ),
)


class Translations:
    """What WTForms asks its messages of: this app's catalogue first, then WTForms' own.
    Placeholders are left for WTForms to fill."""

    def gettext(self, string: str) -> str:
        said = str(get_translations().gettext(string))
        return said if said != string else str(wtforms_translations.gettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        said = str(get_translations().ngettext(singular, plural, n))
        if said not in (singular, plural):
            return said
        return str(wtforms_translations.ngettext(singular, plural, n))


TRANSLATIONS = Translations()


class AppForm(FlaskForm):  # type: ignore[misc]
    """A form sent by a page: CSRF-protected (Flask-WTF), its messages translated."""

    class Meta:
        def get_translations(self, form: Any) -> Translations:
            return TRANSLATIONS


class SubForm(Form):  # type: ignore[misc]
    """A form inside another (``FormField``), its messages translated too."""

    class Meta:
        def get_translations(self, form: Any) -> Translations:
            return TRANSLATIONS
