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
# %(name)s / %(num)d, and {name} as str.format would read it.
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdf]|\{[a-z_]*\}")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


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


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang: str) -> None:
    cat = catalogue(lang)
    wrong = []
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            singular, plural = m.id
            # The first form is the singular's, every other form the plural's.
            expected = [placeholders(singular)] + [placeholders(plural)] * (cat.num_plurals - 1)
            # A singular form may leave out the count ("the top card" for 1).
            for form, want in zip(forms(m), expected, strict=True):
                have = placeholders(form)
                if have != want and not set(have) <= set(want):
                    wrong.append((m.id, form))
        elif placeholders(m.string) != placeholders(m.id):
            wrong.append((m.id, m.string))
    assert not wrong, listing(f"{lang}: placeholders differ", [f"{i!r} -> {t!r}" for i, t in wrong])


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_compiles_and_reads_back(lang: str) -> None:
    cat = catalogue(lang)
    buffer = io.BytesIO()
    write_mo(buffer, cat)
    buffer.seek(0)
    translations = gettext.GNUTranslations(buffer)
    for m in cat:
        if m.id and not isinstance(m.id, tuple) and m.string:
            assert translations.gettext(m.id) == m.string
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
        if m.id and not isinstance(m.id, tuple) and translations.gettext(m.id) != m.string
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
