from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user
from sqlalchemy import select

from ..extensions import db
from ..models import Night
from ..rules import VARIANTS

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    if not current_user.is_authenticated:
        return render_template("home/welcome.html")
    nights = db.session.scalars(
        select(Night)
        .where(Night.owner_id == current_user.id)
        .order_by(Night.played_on.desc(), Night.id.desc())
        .limit(50)
    ).all()
    return render_template("home/index.html", nights=nights)


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
