"""The printed sheets' words (issue 33): the rules summary under the blank sheet
(``GameDisplay.blank_note``), the heads of the columns that label a round
(``sheet_columns``, ``blank_columns``), the rows under the grid (``blank_footers``,
``footers``) and the lines across the score chart (``chart_lines``), each a message id
with its parameters (``rules.errors.Said``).

The reports say them in the keeper's language (``reports/words.py`` ``said``), the pages
in the reader's (``web/refusals_sheets.py``, the same ids with ``%(name)s``
placeholders); the command line's English is ``Said.english``. Merged into
``rules.errors.ENGLISH``."""

from __future__ import annotations

SHEETS: dict[str, str] = {
    # the blank sheet's rules summary, one a game (``blank_note``)
    "sheet.note.rummy": "Whoever goes out scores the cards left in the other hands.",
    "sheet.note.multiplayer": (
        "Whoever goes out scores the cards left in the other hands; going rummy (out in one "
        "turn, nothing laid down or laid off before) scores double."
    ),
    "sheet.note.vegas": (
        "At {max_score} or more you expire: re-buy (back to the highest total still under "
        "the max) or drop out. Write each round's score small beside the running total, and "
        "the flipped wild card in its box."
    ),
    "sheet.note.vegas_for": (
        "At {max_score} or more you expire: re-buy for {buy_in} (back to the highest total "
        "still under the max) or drop out. Write each round's score small beside the running "
        "total, and the flipped wild card in its box."
    ),
    "sheet.note.texas": (
        "Circle the score of whoever goes out: they take {per_round} from the pot while it "
        "holds that much. In ×2 and ×3 rounds write the hand times the multiplier."
    ),
    "sheet.note.dummy": (
        "Write each round's points in the row of the contract you tried, and tick it when "
        "you lay it down. You may go out only once this round's contract is down."
    ),
    "sheet.note.contract": (
        "Whoever goes out scores 0; everyone else writes what is left in hand: 2 to 9 face "
        "value, 10 J Q K 10, aces {aces}, jokers {jokers}. Lowest total after the last deal "
        "wins."
    ),
    "sheet.note.gin": (
        "Each hand: who knocked and how (K knock, G gin, BG big gin, U undercut, — a wash), "
        "both deadwoods, the points. Knock with {knock} or less; undercut +{undercut}; gin "
        "+{gin}; big gin +{big_gin}. At {target}: game +{game}, box +{box} a hand won, "
        "shutout ×{shutout}."
    ),
    "sheet.note.pool": (
        "Whoever shows scores 0; every other hand its count, at most {full_count} (jokers "
        "and the wild rank 0), or D {first}, MD {middle}, FC {full_count}, WS {wrong_show}. "
        "Out at {pool}; rejoin while nobody in has more than {limit}, at the highest total "
        "+ 1."
    ),
    # the heads of the columns that label a round (a round's own word: ``word.*.head``)
    "sheet.column.round": "Rd",
    "sheet.column.wild": "Wild",
    "sheet.column.cards": "Cards",
    "sheet.column.contract": "Contract",
    "sheet.column.how": "How",
    # the rows under the grid (Gin's: ``tally.*``; Pool's: ``figure.drops_left``)
    "sheet.row.total": "Total",
    "sheet.row.rebuys": "Re-buys",
    "sheet.row.contract": "Contract",
    "sheet.row.done": "done",
    # Dummy's twelve contracts, the blank sheet's rows (``dummy.CONTRACTS``)
    "sheet.dummy.1": "two 3-of-a-kind",
    "sheet.dummy.2": "one 3-of-a-kind and one run of 4",
    "sheet.dummy.3": "two 4-of-a-kind",
    "sheet.dummy.4": "two runs of 4",
    "sheet.dummy.5": "one 4-of-a-kind and one run of 4",
    "sheet.dummy.6": "two 3-of-a-kind and one run of 4",
    "sheet.dummy.7": "one 3-of-a-kind and one run of 7",
    "sheet.dummy.8": "three 3-of-a-kind",
    "sheet.dummy.9": "two 5-of-a-kind",
    "sheet.dummy.10": "two runs of 5",
    "sheet.dummy.11": "one 8-of-a-kind",
    "sheet.dummy.12": "one run of 10",
    # Contract Rummy's seven contracts, short for a column of the filled sheet
    "sheet.short.1": "2 sets",
    "sheet.short.2": "set+run",
    "sheet.short.3": "2 runs",
    "sheet.short.4": "3 sets",
    "sheet.short.5": "2 sets+run",
    "sheet.short.6": "set+2 runs",
    "sheet.short.7": "3 runs",
    # the lines across the score chart (Vegas' max score, the target: ``fact.*``)
    "chart.rejoin_limit": "Rejoin limit",
}
