"""The night's money sentences in the reader's language (issue 33): the catalog's side of
``rules.said_night.ENGLISH_NIGHT`` (the same ids, ``%(name)s`` placeholders), merged into
``web.refusals.ENGINE``. The services build them as ``Said`` (``services/said_night.py``);
templates say one with the ``said`` global (web/nights.py)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

ENGINE_NIGHT = {
    "ledger.paid": _l("%(payer)s paid %(payee)s %(money)s"),
    "ledger.paid_claimed": _l(
        "%(payer)s paid %(payee)s %(money)s (as they said on the players' page)"
    ),
    "ledger.wrote_off": _l("%(payee)s wrote off the %(money)s %(payer)s owed"),
    "ledger.wrote_off_now": _l(
        "%(payee)s wrote off the %(money)s %(payer)s owed (counts %(now)s now: no more is"
        " owed between them on this night)"
    ),
    "ledger.carried_to": _l("%(payer)s owed %(payee)s %(money)s: carried to %(where)s"),
    "ledger.carried_to_gone": _l(
        "%(payer)s owed %(payee)s %(money)s: carried to %(where)s (that night is deleted:"
        " not counted)"
    ),
    "ledger.carried_from": _l("%(payer)s owed %(payee)s %(money)s from %(where)s"),
    "ledger.carried_from_gone": _l(
        "%(payer)s owed %(payee)s %(money)s from %(where)s (that night is deleted: not counted)"
    ),
    "ledger.another_night": _l("another night"),
    "ledger.night_of": _l("the night of %(day)s"),
    "transfer.pays": _l("%(payer)s pays %(payee)s %(money)s"),
    "transfer.pays_back": _l("%(payer)s pays %(payee)s %(money)s back"),
    "transfer.left": _l("%(left)s of %(drawn)s left"),
    "claim.confirmed": _l("%(payer)s said they paid %(payee)s %(money)s: confirmed"),
    "claim.open": _l("%(payer)s says they paid %(payee)s %(money)s: not counted until confirmed"),
    "claim.stale": _l(
        "%(payer)s said they paid %(payee)s %(money)s, but that transfer changed since: "
        "it does not count; check with them"
    ),
    "moved.note": _l(
        "The plan changed because %(what)s. What was paid and carried stays as it was; "
        "what is still to pay is worked out again %(where)s."
    ),
    "moved.note_changes": _l(
        "The plan changed because %(what)s: %(changes)s. What was paid and carried stays "
        "as it was; what is still to pay is worked out again %(where)s."
    ),
    "moved.above": _l("above"),
    "moved.below": _l("below"),
    "moved.on_page": _l("on the page"),
    "moved.balances": _l("the night's balances moved"),
    "moved.and": _l("%(first)s; %(rest)s"),
    "moved.more_one": _l("%(what)s; and 1 more change"),
    "moved.more": _l("%(what)s; and %(count)s more changes"),
    "moved.add": _l("%(word)s %(number)s of %(game)s was entered by %(who)s"),
    "moved.edit": _l("%(word)s %(number)s of %(game)s was corrected by %(who)s"),
    "moved.remove": _l("%(word)s %(number)s of %(game)s was removed by %(who)s"),
    "moved.import": _l("%(game)s was imported by %(who)s"),
    "moved.delete": _l("%(game)s was deleted by %(who)s"),
    "moved.restore": _l("%(game)s was restored by %(who)s"),
    "moved.deleted_account": _l("a deleted account"),
    "moved.carried_in": _l(
        "%(payer)s's debt of %(money)s to %(payee)s was carried in from %(night)s (%(day)s)"
    ),
    "moved.misfit": _l("%(entry)s, which was %(misfit)s"),
    "payplan.more_than_left": _l("more than was left on it"),
    "payplan.not_a_transfer": _l("not one of its transfers"),
    "settle.stale": _l(
        "That transfer changed since the page was drawn (now: %(now)s): nothing was "
        "recorded. See the plan as it is now."
    ),
    "settle.stale_moved": _l(
        "That transfer changed since the page was drawn (now: %(now)s): nothing was "
        "recorded. See the plan as it is now. %(moved)s"
    ),
    "settle.gone": _l(
        "That transfer changed since the page was drawn (it is not to pay any more): "
        "nothing was recorded. See the plan as it is now."
    ),
    "settle.gone_moved": _l(
        "That transfer changed since the page was drawn (it is not to pay any more): "
        "nothing was recorded. See the plan as it is now. %(moved)s"
    ),
    "settle.choose_kind": _l("Choose Mark paid or Write off."),
    "settle.at_most": _l(
        "%(payer)s pays %(payee)s at most %(money)s on this transfer: give an amount more"
        " than 0 and at most that (more than is owed goes through Record a payment)."
    ),
    "settle.write_off_all": _l("A write-off forgives all that is left on the transfer."),
    "settle.claim_gone": _l(
        "That claim is not open on this transfer any more (taken back, or confirmed "
        "already): nothing was recorded. See the page as it is now."
    ),
    "settle.claim_stale": _l(
        "%(claim)s. Mark the transfer paid as it is now, or dismiss the claim."
    ),
    "settle.full": _l(
        "%(night)s holds %(most)s money entries already (payments, carries and write-"
        "offs, undone ones too), the most one night keeps: nothing more can be recorded "
        "on it. Settle the rest outside the app."
    ),
    "settle.choose_people": _l("Choose who paid and who was paid from tonight's people."),
    "settle.themselves": _l("%(name)s cannot pay themselves: choose two people."),
    "settle.amount_range": _l("The amount must be more than 0 and at most %(money)s."),
    "settle.choose_night": _l("Choose another of your nights to carry into."),
    "settle.other_currency": _l(
        "%(target)s is settled in %(target_currency)s, this night in %(currency)s."
    ),
    "settle.forward_only": _l(
        "A debt is carried only forward: %(target)s (%(target_day)s) was played before "
        "%(night)s (%(day)s). Carry it into a later night, or settle it here."
    ),
    "settle.debt_gone": _l(
        "That debt is no longer to pay on this night (paid, carried or changed "
        "meanwhile): nothing was carried. Check what is still to pay and try again."
    ),
    "settle.plan_changed": _l(
        "The plan changed since the page was drawn: nothing was carried. Check what is "
        "still to pay and try again."
    ),
    "settle.nothing_left": _l("Nothing is left to pay, so nothing is carried."),
    "settle.not_an_entry": _l("That entry is not one of this night's."),
    "settle.claim_confirmed": _l("That claim was confirmed: undo its payment instead."),
    "settle.choose_unit": _l("Choose how to round: exactly, or one of the steps offered."),
    "claims.said_already": _l(
        "%(payer)s said already that they paid %(payee)s %(money)s: the keeper confirms it."
    ),
    "claims.not_a_claim": _l("That is not one of this night's claims."),
    "claims.confirmed": _l(
        "The keeper confirmed that payment: ask them to undo it if it was not made."
    ),
    "regulars.already": _l("%(name)s is already one of your regulars"),
    "regulars.already_merge": _l("%(name)s is already one of your regulars: merge them instead"),
    "regulars.looks_like": _l(
        "%(name)s looks like %(alike)s, one of your regulars (names that differ only in "
        "capitals, accents or punctuation are one person): merge them instead, or choose "
        "a name that tells them apart"
    ),
    "regulars.two_different": _l("choose two different regulars"),
    "regulars.merged_already": _l("%(name)s was merged into another regular already: reload"),
    "regulars.both_played": _l(
        "%(keep)s and %(gone)s both played on %(night)s: they are two people"
    ),
    "regulars.not_your_merge": _l("That merge is not one of yours."),
    "regulars.merged_since": _l("%(name)s was merged into another regular since: undo that first."),
    "regulars.most_handles": _l("at most %(most)s ways to pay"),
    "nights.most_people": _l("a night takes at most %(most)s people"),
    "nights.most_people_more": _l("a night takes at most %(most)s people: start another night"),
    "nights.twice": _l("%(name)s is listed twice"),
    "nights.on_list": _l("%(name)s is already on tonight's list"),
    "nights.kept_to_one": _l(
        "1 debt carried to %(night)s was not put back: money was recorded on %(night)s "
        "while this night was deleted. What is owed is to pay here."
    ),
    "nights.kept_to": _l(
        "%(count)s debts carried to %(night)s were not put back: money was recorded on "
        "%(night)s while this night was deleted. What is owed is to pay here."
    ),
    "nights.kept_from_one": _l(
        "1 debt carried from %(night)s was not put back: money was recorded on %(night)s "
        "while this night was deleted. What is owed is to pay on %(night)s."
    ),
    "nights.kept_from": _l(
        "%(count)s debts carried from %(night)s were not put back: money was recorded on "
        "%(night)s while this night was deleted. What is owed is to pay on %(night)s."
    ),
    "regulars.handle": _l("payment handle %(number)s: %(why)s"),
    "handles.kind": _l("choose how to pay: PayPal.me, Venmo, Revolut, Cash App, IBAN or text"),
    "handles.empty": _l("give the handle"),
    "handles.unseen": _l("the handle contains %(what)s: type it again"),
    "handles.paypal": _l("a PayPal.me name is letters and digits, at most 20"),
    "handles.venmo": _l("a Venmo username is 5 to 30 letters, digits, - or _"),
    "handles.cashapp": _l("a $cashtag is a letter then letters or digits"),
    "handles.revolut": _l(
        "a Revolut username is 3 to 30 letters and digits, with at most one . _ or - between them"
    ),
    "handles.too_long": _l("at most %(most)s characters"),
    "handles.iban_shape": _l(
        "that is not an IBAN: two letters for the country, two check digits, then the "
        "account number"
    ),
    "handles.iban_country": _l("that is not a valid IBAN: no country's IBAN starts %(country)s"),
    "handles.iban_length": _l(
        "that is not a valid IBAN: an IBAN of %(country)s has %(wanted)s characters, this one "
        "has %(length)s"
    ),
    "handles.iban_structure": _l(
        "that is not a valid IBAN: its account number is not one of %(country)s (check the "
        "letters and digits)"
    ),
    "handles.iban_digits": _l("that is not a valid IBAN (check the digits)"),
    "money.exactly": _l("exactly (no rounding)"),
    "money.steps": _l("in steps of %(money)s"),
    "nights.rename_breaks": _l(
        "renaming %(old)s to %(new)s would break %(game)s (game %(number)s): %(why)s"
    ),
}
