"""What the page's scripts (static/js/) say, in the reader's language: one table per
script, drawn by the server into the page (``templates/base.html``: a JSON block,
``<script type="application/json" id="i18n">``) and read by ``static/js/words.js``
(``scorekeeperWords.t(key, params)``, ``.n(key, count, params)``).

A sentence is a msgid of the catalogs like any other, with ``%(name)s`` placeholders the
script fills. A sentence that counts is a pair (``counted``): the page gets the form of
each plural category of its language (CLDR's, as the browser's ``Intl.PluralRules``
picks them), each drawn by gettext with a number of that category."""

from __future__ import annotations

import functools

from babel import Locale
from flask_babel import get_locale, get_translations
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from .script_words_round import ROUND

Plural = tuple[str, str]


def counted(one: str, many: str) -> Plural:
    """A sentence that counts (``%(count)s``): its English for one and for many. The
    catalogs' extractor reads it as ngettext (scripts/i18n: ``-k counted:1,2``)."""
    return (one, many)


#: offline.js: the rounds waiting on the phone, on the sheet and on the round form.
#: ``word`` is the game's word for a round ("round", "deal"), ``Word`` it capitalised,
#: ``words`` its plural: the page's ``data-round-word``, ``-head`` and ``-words`` (the
#: game's word in the reader's language), else the words for a round below.
OFFLINE: dict[str, object] = {
    "word_one": _l("round"),
    "word_many": _l("rounds"),
    "word_head": _l("Round"),
    "row_not_saved": _l("not saved"),
    "row_pending": _l("pending"),
    "cell_out": _l("out"),
    "saved_only": _l("saved only"),
    "stopped": _l("%(Word)s %(number)s was not saved: %(reason)s"),
    "fix_or_discard": _l("Fix or discard %(word)s %(number)s"),
    "more_behind": counted(
        "(%(count)s more %(word)s waits behind it)",
        "(%(count)s more %(words)s wait behind it)",
    ),
    "waiting_sheet": counted(
        "%(count)s %(word)s typed on this phone waits for the network: sent in order as "
        "soon as it is back.",
        "%(count)s %(words)s typed on this phone wait for the network: sent in order as "
        "soon as they are back.",
    ),
    "totals_saved": _l("Totals count only the saved %(words)s."),
    "totals_saved_banner": _l(
        "Totals count only the saved %(words)s; the banner shows %(word)s %(number)s, the "
        "next to enter."
    ),
    "fix_button": _l("Fix %(word)s %(number)s"),
    "enter_button": _l("Enter %(word)s %(number)s"),
    "deals": _l("%(name)s deals"),
    "then_starts": _l(", %(name)s starts"),
    "deals_next": _l("deals next"),
    "heading": _l("%(Word)s %(number)s"),
    "deals_starts": _l("%(dealer)s deals, %(starter)s starts"),
    "save_button": _l("Save %(word)s %(number)s"),
    "waiting_form": counted(
        "%(count)s %(word)s typed on this phone waits to be sent: this one is saved after it.",
        "%(count)s %(words)s typed on this phone wait to be sent: this one is saved after them.",
    ),
    "totals_before": counted(
        "The totals shown are from before it.", "The totals shown are from before them."
    ),
    "totals_before_dealer": counted(
        "The totals shown are from before it; so is who deals.",
        "The totals shown are from before them; so is who deals.",
    ),
    "expired_legend": _l("Expired this %(word)s"),
    "reached": _l("%(name)s reached %(points)s."),
    "rebuy_ask_price": _l("Re-buy for %(price)s (back to %(reset)s) or drop out?"),
    "rebuy_ask": _l("Re-buy (back to %(reset)s) or drop out?"),
    "rebuy_price": _l("Re-buy %(price)s, back to %(reset)s"),
    "rebuy": _l("Re-buy, back to %(reset)s"),
    "drop_out": _l("Drop out"),
    "typed_stopped": _l(
        "%(Word)s %(number)s, typed on this phone at %(time)s, was not saved: %(reason)s"
    ),
    "typed_waiting": _l("%(Word)s %(number)s, typed on this phone at %(time)s, is not saved yet."),
    "fix_it": _l("Fix it and save it, or discard it."),
    "fix_it_behind": counted(
        "Fix it and save it, or discard it; %(count)s more %(word)s typed after it waits "
        "until then.",
        "Fix it and save it, or discard it; %(count)s more %(words)s typed after it wait "
        "until then.",
    ),
    "discard_button": _l("Discard %(word)s %(number)s"),
    "discard_confirm": _l("Discard %(word)s %(number)s as typed? It will not be saved."),
}

#: app.js: a form sent with no network, the seating order's buttons, a copied link.
APP: dict[str, object] = {
    "no_connection": _l(
        "No connection: your round is still in the form. Save again when the network is back."
    ),
    "move_up": _l("Move %(name)s up"),
    "move_down": _l("Move %(name)s down"),
    "copied": _l("Copied"),
}

#: The tables of the scripts, by script.
SCRIPTS: dict[str, dict[str, object]] = {"offline": OFFLINE, "round": ROUND, "app": APP}


@functools.cache
def plural_samples(language: str) -> dict[str, int]:
    """A whole number of each plural category of ``language`` (CLDR): 1 before 0, so
    that "one" is 1 where 0 is "one" too (Hindi, French)."""
    rule = Locale.parse(language).plural_form
    samples: dict[str, int] = {}
    for n in [1, *range(2, 1001), 0, 1_000_000]:
        samples.setdefault(rule(n), n)
    return samples


def _plural(pair: Plural, language: str) -> dict[str, str]:
    """The sentence's form for each plural category, placeholders unfilled."""
    translations = get_translations()
    return {
        category: translations.ngettext(pair[0], pair[1], n)
        for category, n in plural_samples(language).items()
    }


def script_words(*scripts: str) -> dict[str, object]:
    """The page's table: its language, its sentences, and its counting sentences by plural
    category. The keeper's pages get offline.js's (it may be loaded on any of them), app.js's
    and round.js's."""
    wanted = scripts or (tuple(SCRIPTS) if current_user.is_authenticated else ())
    if not wanted:
        return {}
    language = str(get_locale() or "en")
    said: dict[str, str] = {}
    counting: dict[str, dict[str, str]] = {}
    for script in wanted:
        for key, text in SCRIPTS[script].items():
            if isinstance(text, tuple):
                counting[key] = _plural(text, language)
            else:
                said[key] = str(text)
    return {"lang": language.replace("_", "-"), "said": said, "counted": counting}
