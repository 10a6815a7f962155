"""The catalog's side of the printed sheets' words (``rules/said_sheets.py``, the same
ids): the sentences scripts/i18n extracts and each language translates, with
``%(name)s`` placeholders where the engine says ``{name}``. Merged into
``refusals.ENGINE`` by one line. The reports read the same catalog sentences
(``reports/words.py`` ``said``, which knows the contexts below)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp

SHEETS = {
    "sheet.note.rummy": _l("Whoever goes out scores the cards left in the other hands."),
    "sheet.note.multiplayer": _l(
        "Whoever goes out scores the cards left in the other hands; going rummy (out in one"
        " turn, nothing laid down or laid off before) scores double."
    ),
    "sheet.note.vegas": _l(
        "At %(max_score)s or more you expire: re-buy (back to the highest total still under"
        " the max) or drop out. Write each round's score small beside the running total, "
        "and the flipped wild card in its box."
    ),
    "sheet.note.vegas_for": _l(
        "At %(max_score)s or more you expire: re-buy for %(buy_in)s (back to the highest "
        "total still under the max) or drop out. Write each round's score small beside the "
        "running total, and the flipped wild card in its box."
    ),
    "sheet.note.texas": _l(
        "Circle the score of whoever goes out: they take %(per_round)s from the pot while "
        "it holds that much. In ×2 and ×3 rounds write the hand times the multiplier."
    ),
    "sheet.note.dummy": _l(
        "Write each round's points in the row of the contract you tried, and tick it when "
        "you lay it down. You may go out only once this round's contract is down."
    ),
    "sheet.note.contract": _l(
        "Whoever goes out scores 0; everyone else writes what is left in hand: 2 to 9 face "
        "value, 10 J Q K 10, aces %(aces)s, jokers %(jokers)s. Lowest total after the last "
        "deal wins."
    ),
    "sheet.note.gin": _l(
        "Each hand: who knocked and how (K knock, G gin, BG big gin, U undercut, — a wash),"
        " both deadwoods, the points. Knock with %(knock)s or less; undercut +%(undercut)s;"
        " gin +%(gin)s; big gin +%(big_gin)s. At %(target)s: game +%(game)s, box +%(box)s a"
        " hand won, shutout ×%(shutout)s."
    ),
    "sheet.note.pool": _l(
        "Whoever shows scores 0; every other hand its count, at most %(full_count)s (jokers"
        " and the wild rank 0), or D %(first)s, MD %(middle)s, FC %(full_count)s, WS "
        "%(wrong_show)s. Out at %(pool)s; rejoin while nobody in has more than %(limit)s, "
        "at the highest total + 1."
    ),
    "sheet.column.round": _l("Rd"),
    "sheet.column.wild": _lp("sheet column", "Wild"),
    "sheet.column.cards": _l("Cards"),
    "sheet.column.contract": _l("Contract"),
    "sheet.column.how": _lp("sheet column", "How"),
    "sheet.row.total": _l("Total"),
    "sheet.row.rebuys": _l("Re-buys"),
    "sheet.row.contract": _l("Contract"),
    "sheet.row.done": _l("done"),
    "sheet.dummy.1": _l("two 3-of-a-kind"),
    "sheet.dummy.2": _l("one 3-of-a-kind and one run of 4"),
    "sheet.dummy.3": _l("two 4-of-a-kind"),
    "sheet.dummy.4": _l("two runs of 4"),
    "sheet.dummy.5": _l("one 4-of-a-kind and one run of 4"),
    "sheet.dummy.6": _l("two 3-of-a-kind and one run of 4"),
    "sheet.dummy.7": _l("one 3-of-a-kind and one run of 7"),
    "sheet.dummy.8": _l("three 3-of-a-kind"),
    "sheet.dummy.9": _l("two 5-of-a-kind"),
    "sheet.dummy.10": _l("two runs of 5"),
    "sheet.dummy.11": _l("one 8-of-a-kind"),
    "sheet.dummy.12": _l("one run of 10"),
    "sheet.short.1": _l("2 sets"),
    "sheet.short.2": _l("set+run"),
    "sheet.short.3": _l("2 runs"),
    "sheet.short.4": _l("3 sets"),
    "sheet.short.5": _l("2 sets+run"),
    "sheet.short.6": _l("set+2 runs"),
    "sheet.short.7": _l("3 runs"),
    "chart.rejoin_limit": _l("Rejoin limit"),
}
