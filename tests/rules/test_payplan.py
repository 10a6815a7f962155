"""The plan of who pays whom stays put while money is recorded against it
(``rules.payplan``): hand-checked against issue 34's table, and a property: any sequence
of payments (whole or part) along the shown transfers leaves the untouched transfers as
they were and ends with everyone even."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.payplan import PAYMENT, WRITE_OFF, Leg, Recorded, keep_plan, stamp_of
from scorekeeper.rules.settlement import fewest_by
from tests.rules.test_properties import PROPERTY_SETTINGS

ANN, BOB, CY, DEE = 1, 2, 3, 4
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DEE: "Dee"}
# Ann +2.25, Bob +4.50, Cy -4.25, Dee -2.50: the fewest transfers are Cy pays Bob 4.25,
# Dee pays Ann 2.25, Dee pays Bob 0.25 (the largest debtor and creditor first, ties by name).
NIGHT = {ANN: 225, BOB: 450, CY: -425, DEE: -250}


def rank(i: int) -> str:
    return NAMES.get(i, f"P{i:03}")


def paid(payer: int, payee: int, amount: int, basis=NIGHT, kind=PAYMENT) -> Recorded:
    return Recorded(kind, payer, payee, amount, basis)


def test_the_plan_before_anything_is_paid() -> None:
    plan = keep_plan(NIGHT, [], rank)
    assert plan.legs == (Leg(CY, BOB, 425, 425), Leg(DEE, ANN, 225, 225), Leg(DEE, BOB, 25, 25))
    assert plan.stamp == stamp_of(NIGHT) and plan.redrawn is None


def test_a_part_payment_reduces_its_transfer_and_nothing_else() -> None:
    # Issue 34: Cy paid Bob $2.00 of $4.25. Drawn again from the balances, Dee's two
    # transfers would merge into one (Dee pays Bob 2.50) and Cy would pay Ann instead.
    assert sorted(fewest_by({ANN: 225, BOB: 250, CY: -225, DEE: -250}, rank)) == [
        (CY, ANN, 225),
        (DEE, BOB, 250),
    ]
    plan = keep_plan(NIGHT, [paid(CY, BOB, 200)], rank)
    assert plan.legs == (Leg(CY, BOB, 425, 225), Leg(DEE, ANN, 225, 225), Leg(DEE, BOB, 25, 25))
    assert plan.leg(CY, BOB) == Leg(CY, BOB, 425, 225)  # "$2.25 of $4.25 left"
    assert [leg.payer for leg in plan.open].count(DEE) == 2  # Dee's two stay two
    assert plan.stamp == stamp_of(NIGHT)  # the same plan: forms for the others still hold
    assert plan.balances == {ANN: 225, BOB: 250, CY: -225, DEE: -250}
    assert plan.redrawn is None


def test_the_rest_paid_settles_the_transfer() -> None:
    plan = keep_plan(NIGHT, [paid(CY, BOB, 200), paid(CY, BOB, 225)], rank)
    assert [leg.pair for leg in plan.open] == [(DEE, ANN), (DEE, BOB)]


def test_a_game_corrected_draws_the_plan_again_over_what_is_left_and_says_so() -> None:
    # After Cy paid Bob $2.00, a round is corrected: Bob wins 0.50 more from Dee.
    corrected = {ANN: 225, BOB: 500, CY: -425, DEE: -300}
    plan = keep_plan(corrected, [paid(CY, BOB, 200)], rank)
    assert plan.redrawn is not None and plan.redrawn.at == 1 and plan.redrawn.misfit is None
    assert plan.redrawn.moved == {BOB: 50, DEE: -50}
    assert plan.balances == {ANN: 225, BOB: 300, CY: -225, DEE: -300}
    assert plan.stamp != stamp_of(NIGHT)
    assert all(not leg.touched for leg in plan.legs)  # a new plan, of what is left
    # Money recorded against the new plan keeps it put, and the note goes.
    again = keep_plan(corrected, [paid(CY, BOB, 200), paid(DEE, BOB, 300, corrected)], rank)
    assert again.redrawn is None and again.stamp == plan.stamp


def test_a_payment_that_fits_no_transfer_draws_the_plan_again() -> None:
    # Ann pays Cy $1.00 in cash: no transfer of the plan goes from Ann to Cy.
    plan = keep_plan(NIGHT, [paid(ANN, CY, 100)], rank)
    assert plan.redrawn is not None and plan.redrawn.misfit.english == "not one of its transfers"
    assert plan.balances == {ANN: 325, BOB: 450, CY: -525, DEE: -250}
    over = keep_plan(NIGHT, [paid(DEE, BOB, 100)], rank)  # 1.00 of the 0.25 left
    assert over.redrawn is not None and over.redrawn.misfit.english == "more than was left on it"


def test_a_write_off_forgives_at_most_what_is_owed_now() -> None:
    # Bob forgives Cy the $4.25; then the game behind it is deleted: Cy owes nothing, and
    # the write-off never turns into money Bob owes.
    plan = keep_plan(NIGHT, [paid(CY, BOB, 425, kind=WRITE_OFF)], rank)
    assert plan.counted == (425,) and [leg.pair for leg in plan.open] == [(DEE, ANN), (DEE, BOB)]
    gone = {ANN: 225, BOB: 25, DEE: -250}
    later = keep_plan(gone, [paid(CY, BOB, 425, kind=WRITE_OFF)], rank)
    assert later.counted == (0,)
    assert later.balances == gone


@st.composite
def nights(draw: st.DrawFn) -> dict[int, int]:
    people = draw(st.integers(2, 7))
    amounts = draw(st.lists(st.integers(-5000, 5000), min_size=people - 1, max_size=people - 1))
    return {i + 1: a for i, a in enumerate([*amounts, -sum(amounts)]) if a}


@PROPERTY_SETTINGS
@given(night=nights(), data=st.data())
def test_payments_along_the_shown_transfers_keep_the_plan_and_end_even(night, data) -> None:
    entries: list[Recorded] = []
    plan = keep_plan(night, entries, rank)
    first = plan.legs
    while plan.open:
        leg = data.draw(st.sampled_from(plan.open), label="transfer")
        amount = data.draw(st.integers(1, leg.left), label="paid")
        kind = data.draw(st.sampled_from([PAYMENT, PAYMENT, WRITE_OFF]), label="kind")
        if kind == WRITE_OFF:
            amount = leg.left  # a write-off forgives all that is left
        entries.append(Recorded(kind, leg.payer, leg.payee, amount, night))
        after = keep_plan(night, entries, rank)
        assert after.redrawn is None and after.stamp == plan.stamp
        for before, now in zip(plan.legs, after.legs, strict=True):
            if before.pair == leg.pair:
                assert now.left == before.left - amount
            else:
                assert now == before  # untouched transfers stay exactly as shown
        plan = after
    assert [leg.pair for leg in plan.legs] == [leg.pair for leg in first]
    assert plan.balances == {}  # everyone even


@PROPERTY_SETTINGS
@given(night=nights(), other=nights(), data=st.data())
def test_whatever_is_recorded_the_plan_settles_what_is_left(night, other, data) -> None:
    """Payments anywhere (fitting or not), games that change between them: the transfers
    still to pay always settle each person's balance exactly (``keep_plan`` checks it)."""
    people = sorted({*night, *other, 1, 2})
    entries = []
    for _ in range(data.draw(st.integers(0, 6), label="entries")):
        payer, payee = data.draw(st.permutations(people), label="pair")[:2]
        basis = data.draw(st.sampled_from([night, other, None]), label="basis")
        amount = data.draw(st.integers(1, 6000), label="amount")
        kind = data.draw(st.sampled_from([PAYMENT, WRITE_OFF]), label="kind")
        entries.append(Recorded(kind, payer, payee, amount, basis))
    plan = keep_plan(other, entries, rank)
    net: dict[int, int] = dict(other)
    for e, counted in zip(entries, plan.counted, strict=True):
        net[e.payer] = net.get(e.payer, 0) + counted
        net[e.payee] = net.get(e.payee, 0) - counted
    assert plan.balances == {k: v for k, v in net.items() if v}
