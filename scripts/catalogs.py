"""The catalogs of the app's words (README "Languages"), run by scripts/i18n:

    extract   the English of the package and the templates (babel.cfg), as a template
    update    each language's catalog (scorekeeper/translations/<lang>/LC_MESSAGES/
              messages.po) brought to it: new sentences empty, changed ones fuzzy, gone
              ones dropped, for a translator to fill in
    compile   each catalog to the messages.mo the app reads (committed beside it, so a
              checkout, the wheel and the sdist all carry them)

tests/test_catalogs.py uses ``extract`` and ``compiled`` to fail on a catalog that is not
complete or not compiled."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
#: The languages with a catalog (English is the source: it has none).
LANGUAGES = ("es", "de", "fr", "pt_BR", "hi")
#: What marks a sentence: Babel's defaults (gettext, ngettext, _, N_...), Flask-Babel's
#: lazy_gettext (imported as _l), lazy_pgettext (as _lp: a word with a context, "Deals"
#: counted vs who deals), and script_words.counted (one, many) for the scripts.
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "_l": None,
    "lazy_gettext": None, "counted": (1, 2), "_lp": ((1, "c"), 2), "pgettext": ((1, "c"), 2),
}  # fmt: skip
SKIP = ("scorekeeper/migrations/",)


def extract() -> Catalog:
    """Every sentence of the package and the templates, with where it is."""
    with open(ROOT / "babel.cfg") as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(project="Scorekeeper", charset="utf-8", fuzzy=False)
    found = extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True
    )
    for filename, lineno, message, comments, context in found:
        if filename.startswith(SKIP):
            continue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


def read(language: str) -> Catalog:
    with open(po_path(language), "rb") as fh:
        return read_po(fh, locale=language)


def update(template: Catalog) -> None:
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            catalog = read(language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="Scorekeeper", charset="utf-8")
        created = catalog.creation_date  # a catalog's own, not each run's
        catalog.update(template, update_header_comment=False)
        catalog.creation_date = created
        catalog.fuzzy = False  # the header: the catalog is meant to be read
        catalog.last_translator = "Scorekeeper's sessions (docs/glossary.md)"
        catalog.language_team = "Scorekeeper"
        with open(path, "wb") as fh:
            write_po(fh, catalog, width=100, ignore_obsolete=True, include_previous=True)


def compiled(language: str) -> bytes:
    """The catalog's messages.mo as compile writes it (fuzzy entries left out)."""
    out = io.BytesIO()
    write_mo(out, read(language), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for language in LANGUAGES:
        po_path(language).with_suffix(".mo").write_bytes(compiled(language))


def _forms(string: str | tuple[str, ...]) -> tuple[str, ...]:
    return string if isinstance(string, tuple) else (string,)


def main(steps: list[str]) -> int:
    steps = steps or ["extract", "update", "compile"]
    template = extract() if {"extract", "update"} & set(steps) else None
    if "update" in steps and template is not None:
        update(template)
    if "compile" in steps:
        compile_all()
    for language in LANGUAGES:
        catalog = read(language)
        empty = sum(1 for m in catalog if m.id and not all(_forms(m.string)))
        fuzzy = sum(1 for m in catalog if m.id and m.fuzzy)
        print(f"{language}: {len(catalog)} sentences, {empty} to translate, {fuzzy} fuzzy")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
