"""Sign up, log in (with a limit on failed attempts), log out."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import delete, func, select
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ..extensions import db
from ..forms import LoginForm, SignupForm
from ..models import LoginAttempt, User, utcnow

bp = Blueprint("auth", __name__)
WINDOW = timedelta(minutes=15)


def _hash(password: str) -> str:
    return generate_password_hash(
        password, method=current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    )


def _safe_next(target: str | None) -> str:
    """Only a path on this site. Browsers drop tabs and newlines from a URL and read a
    backslash as a slash, so "/<tab>/evil.example" or "/<backslash>evil.example" would
    leave it."""
    if (
        target
        and target.startswith("/")
        and target.isprintable()
        and "\\" not in target
        and not target.startswith("//")
    ):
        return target
    return url_for("home.index")


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> str | Response | tuple[str, int]:
    if current_user.is_authenticated:
        return redirect(url_for("home.index"))
    form = SignupForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        if db.session.scalar(select(User.id).where(User.email == email)):
            form.email.errors.append("There is already an account for this email: log in.")
        else:
            user = User(email=email, password_hash=_hash(form.password.data))
            db.session.add(user)
            db.session.commit()
            login_user(user, remember=True)
            flash("Welcome! Start your first card night.", "success")
            return redirect(url_for("nights.new"))
    status = 422 if form.errors else 200
    return render_template("auth/signup.html", form=form), status


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | Response | tuple[str, int]:
    if current_user.is_authenticated:
        return redirect(url_for("home.index"))
    form = LoginForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        since = utcnow() - WINDOW
        failures = (
            db.session.scalar(
                select(func.count(LoginAttempt.id)).where(
                    LoginAttempt.email == email, LoginAttempt.created_at >= since
                )
            )
            or 0
        )
        if failures >= current_app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"]:
            form.password.errors.append(
                "Too many failed attempts for this email. Wait 15 minutes and try again."
            )
            return render_template("auth/login.html", form=form), 429
        user = db.session.scalar(select(User).where(User.email == email))
        if user and check_password_hash(user.password_hash, form.password.data):
            db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == email))
            db.session.commit()
            login_user(user, remember=form.remember.data)
            return redirect(_safe_next(request.args.get("next")))
        db.session.add(LoginAttempt(email=email, remote_addr=request.remote_addr or ""))
        db.session.commit()
        form.password.errors.append("That email and password do not match an account.")
    status = 422 if form.errors else 200
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
@login_required
def logout() -> Response:
    logout_user()
    flash("Logged out.", "info")
    return redirect(url_for("home.index"))
