from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import services
from ..extensions import db
from ..models import Night
from ..rules import VARIANTS
from ..services import keepers
from .clock import local_today
from .night_forms import DeleteNightForm
from .nights import summaries

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    if not current_user.is_authenticated:
        return render_template("home/welcome.html", variants=VARIANTS.values())
    nights = db.session.scalars(
        select(Night)
        .where(Night.owner_id == current_user.id, Night.deleted_at.is_(None))
        .order_by(Night.played_on.desc(), Night.id.desc())
        .options(selectinload(Night.games), selectinload(Night.people))
        .limit(50)
    ).all()
    deleted = db.session.scalars(
        select(Night)
        .where(Night.owner_id == current_user.id, Night.deleted_at.is_not(None))
        .order_by(Night.deleted_at.desc())
        .limit(10)
    ).all()
    # Tonight's night first, with each game's state (variant, round, leader): the latest
    # night played by today at the table, not one set up for a later date.
    today = local_today()
    coming = [n for n in nights if n.played_on > today]
    played = [n for n in nights if n.played_on <= today]
    tonight = played[0] if played else (coming[-1] if coming else None)
    latest = services.owned_night(tonight.id, current_user) if tonight else None
    return render_template(
        "home/index.html",
        latest=latest,
        games=summaries(latest) if latest else [],
        coming=[n for n in reversed(coming) if n is not tonight],
        earlier=[n for n in played if n is not tonight],
        deleted=deleted,
        restore_form=DeleteNightForm(),
        kept_with=keepers.nights_kept_with(current_user),
    )


@bp.get("/help")
def help_page() -> str:
    return render_template("home/help.html", variants=VARIANTS.values())


@bp.get("/manifest.webmanifest")
def manifest() -> tuple[str, int, dict[str, str]]:
    return (
        render_template("manifest.webmanifest"),
        200,
        {"Content-Type": "application/manifest+json"},
    )
