"""The catalogs are complete (README "Languages"): every sentence the package and the
templates mark is in every language's catalog, translated (not empty, not fuzzy), with the
placeholders of its English (babel's own checkers, and the same set of names both ways),
and each catalog's messages.mo is compiled from it. Also: every engine message id has its
catalog sentence, and every sentence offline.js asks for is in its table."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo

from scorekeeper.rules.errors import ENGLISH
from scorekeeper.web.refusals import ENGINE
from scorekeeper.web.script_words import OFFLINE

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
assert _spec is not None and _spec.loader is not None
catalogs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(catalogs)

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|\{(\w*)\}")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def key(text: str | list[str] | tuple[str, ...]) -> str | tuple[str, ...]:
    return text if isinstance(text, str) else tuple(text)


def forms(string: str | tuple[str, ...]) -> tuple[str, ...]:
    return string if isinstance(string, tuple) else (string,)


def problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Everything that keeps ``catalog`` from saying what ``template`` (the extracted
    English) holds."""
    found: list[str] = []
    wanted = {(m.context, m.id) for m in template if m.id}
    have = {(m.context, m.id) for m in catalog if m.id}
    found += [f"missing: {mid!r}" for _, mid in sorted(wanted - have, key=str)]
    found += [f"not in the package: {mid!r}" for _, mid in sorted(have - wanted, key=str)]
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            found.append(f"fuzzy: {message.id!r}")
        if not all(forms(message.string)):
            found.append(f"untranslated: {message.id!r}")
            continue
        english = set().union(*(placeholders(text) for text in forms(message.id)))
        said = [placeholders(text) for text in forms(message.string)]
        # A sentence says the English's placeholders; a counting one says them between
        # its forms (the one form may say "word" where the others say "words").
        if (said[0] != english) if len(said) == 1 else (set().union(*said) != english):
            found.append(f"placeholders {sorted(set().union(*said))}: {message.id!r}")
        found += [f"placeholders {sorted(p)}: {message.id!r}" for p in said if p - english]
    # babel's checkers: the python-format placeholders' kinds, the number of plural forms
    for message, errors in catalog.check():
        found += [f"{error}: {message.id!r}" for error in errors]
    return found


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogs.extract()


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_every_catalog_is_complete_and_translated(template: Catalog, language: str) -> None:
    assert problems(template, catalogs.read(language)) == []


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_every_catalog_is_compiled(language: str) -> None:
    """The committed messages.mo holds the catalog's sentences (scripts/i18n compile)."""
    with open(catalogs.po_path(language).with_suffix(".mo"), "rb") as fh:
        shipped = {(m.context, key(m.id)): key(m.string) for m in read_mo(fh) if m.id}
    written = {
        (m.context, key(m.id)): key(m.string)
        for m in catalogs.read(language)
        if m.id and not m.fuzzy
    }  # a word with a context ("Deals": how many, or who deals) is a sentence of its own
    assert shipped == written


def test_the_check_finds_each_kind_of_problem(template: Catalog) -> None:
    """A catalog that misses a sentence, leaves one empty, marks one fuzzy and changes a
    placeholder is refused, each for its reason."""
    broken = catalogs.read("de")
    sentences = [m for m in broken if m.id and isinstance(m.id, str)]
    gone, empty, fuzzy = sentences[0].id, sentences[1].id, sentences[2].id
    named = next(m for m in sentences if "%(email)s" in m.id)
    del broken[gone]
    broken[empty].string = ""
    broken[fuzzy].flags.add("fuzzy")
    named.string = named.string.replace("%(email)s", "%(mail)s")
    found = "\n".join(problems(template, broken))
    assert f"missing: {gone!r}" in found
    assert f"untranslated: {empty!r}" in found
    assert f"fuzzy: {fuzzy!r}" in found
    assert f"placeholders ['mail']: {named.id!r}" in found


def test_every_engine_message_id_has_its_catalog_sentence() -> None:
    """rules/errors.ENGLISH and web/refusals.ENGINE: the same ids, and the same sentence
    (``{name}`` there, ``%(name)s`` here)."""
    assert set(ENGINE) == set(ENGLISH)
    for message_id, english in ENGLISH.items():
        assert str(ENGINE[message_id]) == re.sub(r"\{(\w+)\}", r"%(\1)s", english), message_id


def test_every_sentence_offline_js_asks_for_is_in_its_table() -> None:
    """The keys in each ``said(...)``, ``counted(...)``, ``say.t(...)`` of offline.js (up
    to its first parameter) are the keys of its table, no more and no fewer."""
    script = (ROOT / "static" / "js" / "offline.js").read_text()
    asked: set[str] = set()
    for head in re.findall(r"\b(?:said|counted|say\.[tn])\(((?:[^{,()]|\([^()]*\))*)", script):
        asked |= set(re.findall(r'"(\w+)"', head))
    assert asked - set(OFFLINE) == set()
    assert set(OFFLINE) - asked == set()  # nothing left over either
