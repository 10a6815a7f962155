"""The night's money sentences (issue 33): what was paid, carried and written off, who
pays whom, a player's "I paid", why the plan of transfers changed, and the refusals of
settling up, each a message id with its parameters (``rules.errors.Said``).

The services build them (``services/said_night.py``, ``services/ledger.py``...) and keep
saying their English (``Said.english``) to the command line, the CSV and the PDFs; the
pages say them in the reader's language (``web/refusals_night.py``, the same ids with
``%(name)s`` placeholders). Amounts arrive formatted in the night's locale: money is not a
word. Merged into ``rules.errors.ENGLISH``."""

from __future__ import annotations

ENGLISH_NIGHT: dict[str, str] = {
    # what was recorded (services/ledger.py EntryLine)
    "ledger.paid": "{payer} paid {payee} {money}",
    "ledger.paid_claimed": "{payer} paid {payee} {money} (as they said on the players' page)",
    "ledger.wrote_off": "{payee} wrote off the {money} {payer} owed",
    "ledger.wrote_off_now": (
        "{payee} wrote off the {money} {payer} owed (counts {now} now: no more is owed "
        "between them on this night)"
    ),
    "ledger.carried_to": "{payer} owed {payee} {money}: carried to {where}",
    "ledger.carried_to_gone": (
        "{payer} owed {payee} {money}: carried to {where} (that night is deleted: not counted)"
    ),
    "ledger.carried_from": "{payer} owed {payee} {money} from {where}",
    "ledger.carried_from_gone": (
        "{payer} owed {payee} {money} from {where} (that night is deleted: not counted)"
    ),
    "ledger.another_night": "another night",
    "ledger.night_of": "the night of {day}",
    # what is still to pay (services/ledger.py OpenTransfer, rules/settlement.py Transfer)
    "transfer.pays": "{payer} pays {payee} {money}",
    "transfer.pays_back": "{payer} pays {payee} {money} back",
    "transfer.left": "{left} of {drawn} left",
    # a player's "I paid" (services/ledger.py ClaimLine)
    "claim.confirmed": "{payer} said they paid {payee} {money}: confirmed",
    "claim.open": "{payer} says they paid {payee} {money}: not counted until confirmed",
    "claim.stale": (
        "{payer} said they paid {payee} {money}, but that transfer changed since: it does "
        "not count; check with them"
    ),
    # why the plan changed (services/plan_moved.py)
    "moved.note": (
        "The plan changed because {what}. What was paid and carried stays as it was; what "
        "is still to pay is worked out again {where}."
    ),
    "moved.note_changes": (
        "The plan changed because {what}: {changes}. What was paid and carried stays as it "
        "was; what is still to pay is worked out again {where}."
    ),
    "moved.above": "above",
    "moved.below": "below",
    "moved.on_page": "on the page",
    "moved.balances": "the night's balances moved",
    "moved.and": "{first}; {rest}",
    "moved.more_one": "{what}; and 1 more change",
    "moved.more": "{what}; and {count} more changes",
    "moved.add": "{word} {number} of {game} was entered by {who}",
    "moved.edit": "{word} {number} of {game} was corrected by {who}",
    "moved.remove": "{word} {number} of {game} was removed by {who}",
    "moved.import": "{game} was imported by {who}",
    "moved.delete": "{game} was deleted by {who}",
    "moved.restore": "{game} was restored by {who}",
    "moved.deleted_account": "a deleted account",
    "moved.carried_in": "{payer}'s debt of {money} to {payee} was carried in from {night} ({day})",
    "moved.misfit": "{entry}, which was {misfit}",
    # rules/payplan.py: why an entry fitted none of the plan's transfers
    "payplan.more_than_left": "more than was left on it",
    "payplan.not_a_transfer": "not one of its transfers",
    # services/settle.py: refusals of settling up
    "settle.stale": (
        "That transfer changed since the page was drawn (now: {now}): nothing was recorded. "
        "See the plan as it is now."
    ),
    "settle.stale_moved": (
        "That transfer changed since the page was drawn (now: {now}): nothing was recorded. "
        "See the plan as it is now. {moved}"
    ),
    "settle.gone": (
        "That transfer changed since the page was drawn (it is not to pay any more): nothing "
        "was recorded. See the plan as it is now."
    ),
    "settle.gone_moved": (
        "That transfer changed since the page was drawn (it is not to pay any more): nothing "
        "was recorded. See the plan as it is now. {moved}"
    ),
    "settle.choose_kind": "Choose Mark paid or Write off.",
    "settle.at_most": (
        "{payer} pays {payee} at most {money} on this transfer: give an amount more than 0 "
        "and at most that (more than is owed goes through Record a payment)."
    ),
    "settle.write_off_all": "A write-off forgives all that is left on the transfer.",
    "settle.claim_gone": (
        "That claim is not open on this transfer any more (taken back, or confirmed "
        "already): nothing was recorded. See the page as it is now."
    ),
    "settle.claim_stale": "{claim}. Mark the transfer paid as it is now, or dismiss the claim.",
    "settle.full": (
        "{night} holds {most} money entries already (payments, carries and write-offs, undone "
        "ones too), the most one night keeps: nothing more can be recorded on it. Settle the "
        "rest outside the app."
    ),
    "settle.choose_people": "Choose who paid and who was paid from tonight's people.",
    "settle.themselves": "{name} cannot pay themselves: choose two people.",
    "settle.amount_range": "The amount must be more than 0 and at most {money}.",
    "settle.choose_night": "Choose another of your nights to carry into.",
    "settle.other_currency": "{target} is settled in {target_currency}, this night in {currency}.",
    "settle.forward_only": (
        "A debt is carried only forward: {target} ({target_day}) was played before {night} "
        "({day}). Carry it into a later night, or settle it here."
    ),
    "settle.debt_gone": (
        "That debt is no longer to pay on this night (paid, carried or changed meanwhile): "
        "nothing was carried. Check what is still to pay and try again."
    ),
    "settle.plan_changed": (
        "The plan changed since the page was drawn: nothing was carried. Check what is still "
        "to pay and try again."
    ),
    "settle.nothing_left": "Nothing is left to pay, so nothing is carried.",
    "settle.not_an_entry": "That entry is not one of this night's.",
    "settle.claim_confirmed": "That claim was confirmed: undo its payment instead.",
    "settle.choose_unit": "Choose how to round: exactly, or one of the steps offered.",
    # services/claims.py: a player's "I paid" from the players' page
    "claims.said_already": (
        "{payer} said already that they paid {payee} {money}: the keeper confirms it."
    ),
    "claims.not_a_claim": "That is not one of this night's claims.",
    "claims.confirmed": (
        "The keeper confirmed that payment: ask them to undo it if it was not made."
    ),
    # services/regulars.py
    "regulars.already": "{name} is already one of your regulars",
    "regulars.already_merge": "{name} is already one of your regulars: merge them instead",
    "regulars.looks_like": (
        "{name} looks like {alike}, one of your regulars (names that differ only in capitals, "
        "accents or punctuation are one person): merge them instead, or choose a name that "
        "tells them apart"
    ),
    "regulars.two_different": "choose two different regulars",
    "regulars.merged_already": "{name} was merged into another regular already: reload",
    "regulars.both_played": "{keep} and {gone} both played on {night}: they are two people",
    "regulars.not_your_merge": "That merge is not one of yours.",
    "regulars.merged_since": "{name} was merged into another regular since: undo that first.",
    "regulars.most_handles": "at most {most} ways to pay",
    # services/nights.py
    "nights.most_people": "a night takes at most {most} people",
    "nights.most_people_more": "a night takes at most {most} people: start another night",
    "nights.twice": "{name} is listed twice",
    "nights.on_list": "{name} is already on tonight's list",
    # services/nights.py: carries a restored night could not put back
    "nights.kept_to_one": (
        "1 debt carried to {night} was not put back: money was recorded on {night} while "
        "this night was deleted. What is owed is to pay here."
    ),
    "nights.kept_to": (
        "{count} debts carried to {night} were not put back: money was recorded on {night} "
        "while this night was deleted. What is owed is to pay here."
    ),
    "nights.kept_from_one": (
        "1 debt carried from {night} was not put back: money was recorded on {night} while "
        "this night was deleted. What is owed is to pay on {night}."
    ),
    "nights.kept_from": (
        "{count} debts carried from {night} were not put back: money was recorded on "
        "{night} while this night was deleted. What is owed is to pay on {night}."
    ),
    # services/payments.py: a way to pay that is not one (regulars.handle names which)
    "regulars.handle": "payment handle {number}: {why}",
    "handles.kind": "choose how to pay: PayPal.me, Venmo, Revolut, Cash App, IBAN or text",
    "handles.empty": "give the handle",
    "handles.unseen": "the handle contains {what}: type it again",
    "handles.paypal": "a PayPal.me name is letters and digits, at most 20",
    "handles.venmo": "a Venmo username is 5 to 30 letters, digits, - or _",
    "handles.cashapp": "a $cashtag is a letter then letters or digits",
    "handles.revolut": (
        "a Revolut username is 3 to 30 letters and digits, with at most one . _ or - between them"
    ),
    "handles.too_long": "at most {most} characters",
    "handles.iban_shape": (
        "that is not an IBAN: two letters for the country, two check digits, then the "
        "account number"
    ),
    "handles.iban_country": "that is not a valid IBAN: no country's IBAN starts {country}",
    "handles.iban_length": (
        "that is not a valid IBAN: an IBAN of {country} has {wanted} characters, this one "
        "has {length}"
    ),
    "handles.iban_structure": (
        "that is not a valid IBAN: its account number is not one of {country} (check the "
        "letters and digits)"
    ),
    "handles.iban_digits": "that is not a valid IBAN (check the digits)",
    # rules/money.py: the night's rounding step
    "money.exactly": "exactly (no rounding)",
    "money.steps": "in steps of {money}",
    "nights.rename_breaks": "renaming {old} to {new} would break {game} (game {number}): {why}",
}
