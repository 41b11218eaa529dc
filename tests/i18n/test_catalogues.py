"""The catalogues: complete, faithful to their placeholders, and compilable.

When a test here fails after new texts were added, run `make messages`, translate what
the failure lists in each scorekeeper/translations/<lang>/LC_MESSAGES/messages.po (remove
any ``#, fuzzy`` mark once checked), and run `make translations`.
"""

from __future__ import annotations

import gettext
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from i18n_support import LANGUAGES, TRANSLATED, TRANSLATIONS, catalogue, template

ROOT = TRANSLATIONS.parents[1]
# Everything the % operator reads: %(name)s with any name, flags, width or type (%(num)d,
# %(Rate)5.1f), a bare %s or %d, and %% (so a lone "%" in a translation, as in a French
# "100 %", shows up as a placeholder the source lacks); and every {field} str.format reads,
# with a conversion or format spec too ({name}, {0}, {name!r:>3}).
PLACEHOLDER = re.compile(
    r"%(?:\([^)]*\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]"
    r"|(?<!\{)\{[^{}]*\}(?!\})"
)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _formats(text: str, names: set[str]) -> bool:
    """Whether ``text`` survives the % operator with every named placeholder given."""
    try:
        text % {name: 1 for name in names}
    except (ValueError, TypeError, KeyError):
        return False
    return True


def placeholder_faults(
    msgid: str | tuple[str, ...], strings: str | tuple[str, ...], num_plurals: int
) -> list[str]:
    """What is wrong with the placeholders of one entry's translation; empty when nothing is.

    Each form has the placeholders of its source text: the first form (the singular) those
    of the singular or fewer ("the top card" for 1), every other form exactly the plural's.
    A form must also format wherever its source does: templates always format (even with
    no variables), so "%" alone breaks a page.
    """
    sources = msgid if isinstance(msgid, tuple) else (msgid,)
    forms = strings if isinstance(strings, tuple) else (strings,)
    wanted = [sources[0], *[sources[-1]] * (max(num_plurals, len(forms)) - 1)][: len(forms)]
    names = {n[2:-2] for source in sources for n in placeholders(source) if n.startswith("%(")}
    faults = []
    for index, (source, form) in enumerate(zip(wanted, forms, strict=True)):
        if not form:
            continue
        want, have = placeholders(source), placeholders(form)
        if have != want and not (index == 0 and isinstance(msgid, tuple) and have <= want):
            faults.append(f"{form!r} has {sorted(have)}, its source {sorted(want)}")
        elif _formats(source, names) and not _formats(form, names):
            faults.append(f"{form!r} does not format like its source")
    return faults


def ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def forms(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def singular(msgid: str | tuple[str, ...]) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


def listing(title: str, texts: list[str]) -> str:
    """A failure message with every text in full, one per line, to paste into a to-do list."""
    return "\n".join([title, *(f"  {text!r}" for text in texts)])


def test_the_template_holds_every_text_of_the_code(tmp_path: Path) -> None:
    """messages.pot is what `make messages` extracts now: no text was added without it."""
    extracted = tmp_path / "messages.pot"
    subprocess.run(
        [
            str(Path(sys.executable).parent / "pybabel"),
            "extract",
            "-F",
            "babel.cfg",
            "-o",
            str(extracted),
            ".",
        ],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=300,
    )
    with extracted.open("rb") as f:
        now = {m.id for m in read_po(f) if m.id}
    stored = {m.id for m in template() if m.id}
    added = sorted(singular(i) for i in now - stored)
    gone = sorted(singular(i) for i in stored - now)
    assert not added, listing("new texts in the code: run `make messages`", added)
    assert not gone, listing("texts gone from the code: run `make messages`", gone)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_comments_of_earlier_texts_are_left_behind(lang: str) -> None:
    """ "#| msgid" (an earlier text, kept while its translation is fuzzy) goes once the
    translation is checked; written back as a translator's "# | msgid" comment it was
    carried along for good, wrapped into stray words."""
    leftovers = [
        ids(m)[0]
        for m in catalogue(lang)
        if m.id and (m.user_comments or (m.previous_id and not m.fuzzy))
    ]
    assert not leftovers, listing(f"{lang}: comments of earlier texts on", leftovers)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_has_exactly_the_templates_texts(lang: str) -> None:
    stored = {m.id for m in template() if m.id}
    present = {m.id for m in catalogue(lang) if m.id}
    assert not stored - present, listing(
        f"{lang}: run `make messages`", sorted(map(str, stored - present))
    )
    assert not present - stored, listing(
        f"{lang}: run `make messages`", sorted(map(str, present - stored))
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated(lang: str) -> None:
    """The failure lists exactly the texts still to translate (or to check, when fuzzy)."""
    untranslated = [
        ids(m)[0] for m in catalogue(lang) if m.id and not all(s.strip() for s in forms(m))
    ]
    fuzzy = [ids(m)[0] for m in catalogue(lang) if m.id and m.fuzzy]
    assert not untranslated, listing(
        f"{lang}: {len(untranslated)} texts not translated", untranslated
    )
    assert not fuzzy, listing(f"{lang}: {len(fuzzy)} fuzzy translations to check", fuzzy)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_every_placeholder(lang: str) -> None:
    """English too: where its catalogue says something, it must fit the code's values."""
    cat = catalogue(lang)
    wrong = [
        f"{singular(m.id)!r}: {fault}"
        for m in cat
        if m.id
        for fault in placeholder_faults(m.id, m.string, cat.num_plurals)
    ]
    assert not wrong, listing(f"{lang}: placeholders differ", wrong)


@pytest.mark.parametrize(
    ("msgid", "translation"),
    [
        ("%(field)s is missing.", "%(feld)s fehlt."),  # a translated name
        ("Deal %(deal)d of %(deals)d", "Runde %(deal)d"),  # one left out
        ("Deal %(Deal)d", "Runde %(Deal)s"),  # a capital in the name, another type
        ("Round %(rate)5.1f", "Runde %(rate).1f"),  # width and precision
        ("Score: {points}", "Stand: {punkte}"),  # str.format's fields
        ("Score: {points!r}", "Stand: {points}"),
        ("Score: %s", "Stand"),  # positional
        ("Win rate %(rate)s%%", "Taux de victoire %(rate)s %"),  # a lone % after a space
        ("All %(num)d decks", "Tous les %(num)d jeux (100 % joués)"),  # "% j" reads as a flag
        (("%(num)d deck", "%(num)d decks"), ("%(num)d jeu", "jeux", "jeux")),  # a plural form
        (("one %(num)d", "%(num)d"), ("%(num)d %(other)d", "%(num)d")),  # a name from nowhere
    ],
)
def test_the_placeholder_check_finds_what_breaks_or_changes_a_text(
    msgid: str | tuple[str, ...], translation: str | tuple[str, ...]
) -> None:
    plurals = len(translation) if isinstance(translation, tuple) else 2
    assert placeholder_faults(msgid, translation, plurals) != []


@pytest.mark.parametrize(
    ("msgid", "translation"),
    [
        ("Team %(letter)s", "Équipe %(letter)s"),
        ("%(team)s: %(points)d", "%(team)s\u00a0: %(points)d"),  # French punctuation is fine
        ("Deal %(deal)d, %(deal)d again", "Tour %(deal)d"),  # the same name, said once
        ("100%% sure", "sûr à 100\u00a0%%"),
        (("the top card", "the top %(num)d cards"), ("la carte", "les %(num)d", "les %(num)d")),
        (("%(num)d deck", "%(num)d decks"), ("%(num)d kortspil", "%(num)d kortspil")),
    ],
)
def test_the_placeholder_check_accepts_faithful_translations(
    msgid: str | tuple[str, ...], translation: str | tuple[str, ...]
) -> None:
    plurals = len(translation) if isinstance(translation, tuple) else 2
    assert placeholder_faults(msgid, translation, plurals) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_texts_have_every_form_of_the_language(lang: str) -> None:
    cat = catalogue(lang)
    plurals = [m for m in cat if m.id and isinstance(m.id, tuple)]
    assert plurals, "the app has plural texts"
    incomplete = [m.id for m in plurals if len(forms(m)) != cat.num_plurals or not all(forms(m))]
    assert incomplete == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_not_copies_of_the_english(lang: str) -> None:
    """A handful of words are the same in English (Partner, Offline); most texts are not."""
    same = [m.id for m in catalogue(lang) if m.id and forms(m) == ids(m)]
    assert len(same) < 40, same


def read(translations: gettext.GNUTranslations, m: Message) -> str:
    """What a compiled catalogue says for ``m``, in its context if it has one."""
    if m.context:
        return translations.pgettext(m.context, m.id)
    return translations.gettext(m.id)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_compiles_and_reads_back(lang: str) -> None:
    cat = catalogue(lang)
    buffer = io.BytesIO()
    write_mo(buffer, cat)
    buffer.seek(0)
    translations = gettext.GNUTranslations(buffer)
    for m in cat:
        if m.id and not isinstance(m.id, tuple) and m.string:
            assert read(translations, m) == m.string
    errors = list(cat.check())
    assert errors == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_the_current_one(lang: str) -> None:
    """The .mo the app reads says what the .po says (`make translations` keeps it so)."""
    mo = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo"
    with mo.open("rb") as f:
        translations = gettext.GNUTranslations(f)
    stale = [
        m.id
        for m in catalogue(lang)
        if m.id and not isinstance(m.id, tuple) and read(translations, m) != m.string
    ]
    assert stale == [], "run `make translations`"


def test_french_puts_a_no_break_space_before_high_punctuation() -> None:
    """« Équipe A : … » never breaks a line before the colon (docs/glossary/fr.md)."""
    loose = [
        form
        for m in catalogue("fr")
        if m.id
        for form in forms(m)
        if re.search(r" [:;?!»]|« ", form)
    ]
    assert not loose, listing("fr: a plain space before : ; ? ! » or after «", loose)


# A sentence mark at the very end, before any closing quote or (no-break) space.
_END = re.compile(r"([.:;?!…])[\s\u00a0\u202f»”\"')]*$")


def _end_mark(text: str) -> str:
    found = _END.search(text)
    return found.group(1) if found else ""


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_end_as_their_source_does(lang: str) -> None:
    """A label ending in ":" keeps its colon, a sentence its full stop, a question its "?":
    the page around a text is written for the mark its source ends with."""
    cat = catalogue(lang)
    wrong = [
        f"{source!r} -> {form!r}"
        for m in cat
        if m.id
        for index, form in enumerate(forms(m))
        if form
        for source in [ids(m)[min(index, len(ids(m)) - 1)]]
        if _end_mark(form) != _end_mark(source)
    ]
    assert not wrong, listing(f"{lang}: the closing punctuation differs", wrong)


def test_french_partie_is_always_a_game() -> None:
    """« Partie » is the game (docs/glossary/fr.md): "becomes part of" must not read as "becomes
    a game of". Only the idiom « faire partie de » (to be part of) may use it otherwise."""
    stray = [
        form
        for m in catalogue("fr")
        if m.id and not any(re.search(r"\bgames?\b", i, re.I) for i in ids(m))
        for form in forms(m)
        if re.search(r"\bparties?\b", form) and not re.search(r"\bfai\w*(?: pas)? partie\b", form)
    ]
    assert stray == []
