"""Regulars: the keeper's people across nights, their stats, payment handles, merging."""

from __future__ import annotations

from collections.abc import Iterable

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..extensions import db
from ..forms import HandlesForm, MergeForm, RegularForm, RenameForm, checked_whole
from ..models import Regular, RegularMerge
from ..reports import spreadsheets
from ..rules import format_money
from ..services import AlreadyCreated, club, stats
from ..services import regulars as directory
from .changes import attempt

bp = Blueprint("regulars", __name__, url_prefix="/regulars")

SORTS = {
    "net": lambda s: (-s.net, s.regular.name_key),
    "wins": lambda s: (-s.wins, s.regular.name_key),
    "games": lambda s: (-s.games, s.regular.name_key),
    "name": lambda s: s.regular.name_key,
}


def nets_text(nets: dict[str, int]) -> str:
    """Money in one or more currencies, never added across them: "$12.50 · €-3.00"."""
    return " · ".join(format_money(cents, cur) for cur, cents in nets.items()) or "–"


def regular_or_404(regular_id: int) -> Regular:
    regular = db.session.get(Regular, regular_id)
    if regular is None or regular.owner_id != current_user.id or regular.merged_into_id:
        abort(404)
    return regular


@bp.get("")
@login_required
def index() -> str:
    sort = request.args.get("sort", "net")
    table = sorted(stats.all_stats(current_user.id).values(), key=SORTS.get(sort, SORTS["net"]))
    merge = MergeForm()
    merge.setup(_named(table))
    return render_template(
        "regulars/index.html",
        table=table,
        sort=sort,
        form=FlaskForm(),
        add_form=RegularForm(),
        merge_form=merge,
        nets=nets_text,
        merges=directory.merges_of(current_user.id),
    )


@bp.get("/balance")
@login_required
def balance() -> str:
    """Who owes whom over all the keeper's open nights, and where each debt comes from."""
    return render_template(
        "regulars/balance.html", club=club.club_balance(current_user.id), money=format_money
    )


def _named(table: Iterable[stats.RegularStats]) -> list[tuple[int, str]]:
    return sorted(((s.regular.id, s.regular.name) for s in table), key=lambda r: r[1].casefold())


@bp.post("")
@login_required
def add() -> Response:
    form = RegularForm()
    if not form.validate_on_submit():
        flash(gettext("Give the regular's name (at most 40 characters)."), "error")
        return redirect(url_for("regulars.index"))
    try:
        _, regular = attempt(
            lambda: directory.add_regular(
                current_user, form.name.data, submission=form.submission.data
            ),
            lambda r: gettext("%(name)s added to your regulars.", name=r.name) if r else "",
        )
    except AlreadyCreated as done:  # a double tap: the first one added them
        flash(gettext("Already added (sent twice): one of your regulars once."), "info")
        return redirect(url_for("regulars.show", regular_id=done.target_id))
    if regular is None:
        return redirect(url_for("regulars.index"))
    return redirect(url_for("regulars.show", regular_id=regular.id))


@bp.post("/merge")
@login_required
def merge() -> Response:
    form = MergeForm()
    form.setup(_named(stats.all_stats(current_user.id).values()))
    if not form.validate_on_submit():
        flash(gettext("Choose two of your regulars from the lists."), "error")
        return redirect(url_for("regulars.index"))
    keep, gone = (regular_or_404(int(f.data)) for f in (form.keep, form.gone))
    merged, _ = attempt(
        lambda: directory.merge_regulars(keep, gone, user=current_user),
        lambda _: gettext("%(gone)s merged into %(keep)s.", gone=gone.name, keep=keep.name),
    )
    if not merged:
        return redirect(url_for("regulars.index"))
    return redirect(url_for("regulars.show", regular_id=keep.id))


@bp.post("/merges/<id:merge_id>/undo")
@login_required
def undo_merge(merge_id: int) -> Response:
    merge = db.session.get(RegularMerge, merge_id)
    if merge is None or merge.owner_id != current_user.id:
        abort(404)
    attempt(
        lambda: directory.undo_merge(merge_id, owner=current_user),
        lambda merge: gettext(
            "Merge undone: %(name)s is a regular of their own again.", name=merge.gone.name
        ),
    )
    return redirect(url_for("regulars.index"))


@bp.get("/<id:regular_id>")
@login_required
def show(regular_id: int) -> str:
    regular = regular_or_404(regular_id)
    everyone = stats.all_stats(current_user.id)
    mine = everyone[regular.id]
    vs = everyone.get(checked_whole(request.args.get("vs")) or 0)
    return render_template(
        "regulars/show.html",
        regular=regular,
        s=mine,
        others=[o.regular for o in everyone.values() if o.regular.id != regular.id],
        vs=vs,
        h2h=stats.head_to_head(mine, vs) if vs and vs is not mine else None,
        chart=stats.money_chart(mine.running(), mine.currency),
        form=FlaskForm(),
        rename_form=RenameForm(name=regular.name),
        handles_form=_handles_form(regular),
        money=format_money,
        nets=nets_text,
    )


@bp.post("/<id:regular_id>/rename")
@login_required
def rename(regular_id: int) -> Response:
    regular = regular_or_404(regular_id)
    form = RenameForm()
    if not form.validate_on_submit():
        flash(gettext("Give the new name (at most 40 characters)."), "error")
        return redirect(url_for("regulars.show", regular_id=regular_id))
    attempt(
        lambda: directory.rename_regular(regular, form.name.data),
        lambda _: gettext("Renamed: games keep the names they were played with."),
    )
    return redirect(url_for("regulars.show", regular_id=regular_id))


@bp.post("/<id:regular_id>/handles")
@login_required
def handles(regular_id: int) -> Response:
    regular = regular_or_404(regular_id)
    form = HandlesForm()
    if not form.validate_on_submit():
        flash(gettext("Choose how to pay from the list, and at most 200 characters each."), "error")
        return redirect(url_for("regulars.show", regular_id=regular_id))
    attempt(
        lambda: directory.set_handles(regular, form.pairs()),
        lambda _: gettext("Ways to pay saved."),
    )
    return redirect(url_for("regulars.show", regular_id=regular_id))


def _handles_form(regular: Regular) -> HandlesForm:
    """The regular's ways to pay, and two empty rows to add one."""
    rows = [{"kind": h.kind, "handle": h.value} for h in regular.handles]
    return HandlesForm(formdata=None, data={"handles": [*rows, {}, {}]})


@bp.get("/<id:regular_id>/history.csv")
@login_required
def history_csv(regular_id: int) -> Response:
    regular = regular_or_404(regular_id)
    mine = stats.all_stats(current_user.id)[regular.id]
    rows = [
        (n.played_on, n.night_name, n.name, len(n.games), sum(g.won for g in n.games), n.net,
         n.currency)
        for n in mine.nights
    ]  # fmt: skip
    response = make_response(spreadsheets.history_csv(rows))
    response.mimetype = "text/csv"
    name = spreadsheets.csv_response_name(f"{regular.name}-history.csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
