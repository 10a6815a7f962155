"""Sending mail, with the standard library's smtplib: one plain-text message at a time
(the password-reset links), so no extension is needed.

Configured by ``MAIL_SERVER`` (off without it), ``MAIL_PORT`` (default 465 with
``MAIL_USE_SSL``, 587 with ``MAIL_USE_TLS``, else 25), ``MAIL_USE_TLS`` (STARTTLS, on by
default), ``MAIL_USE_SSL`` (TLS from the start), ``MAIL_USERNAME`` and ``MAIL_PASSWORD``
(log in when a user name is set), ``MAIL_SENDER`` (the From address) and
``MAIL_TIMEOUT`` (seconds), each also as ``SCOREKEEPER_MAIL_...`` in the environment."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.utils import make_msgid

from flask import current_app


class MailFailed(Exception):
    """The mail server could not be reached, or refused the message."""


def configured() -> bool:
    """Mail can be sent: a server, a sender and the public address links start with."""
    config = current_app.config
    return bool(config.get("MAIL_SERVER") and config.get("MAIL_SENDER") and public_url())


def public_url() -> str | None:
    """``PUBLIC_URL`` without a trailing slash (``https://cards.example.org``), or None."""
    value = current_app.config.get("PUBLIC_URL")
    return str(value).rstrip("/") if value else None


def _port() -> int:
    config = current_app.config
    if config.get("MAIL_PORT"):
        return int(config["MAIL_PORT"])
    if config.get("MAIL_USE_SSL"):
        return 465
    return 587 if config.get("MAIL_USE_TLS") else 25


def send(to: str, subject: str, body: str) -> None:
    """Send one plain-text message; raises MailFailed with the reason."""
    config = current_app.config
    message = EmailMessage()
    message["From"] = config["MAIL_SENDER"]
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=str(config["MAIL_SENDER"]).rpartition("@")[2])
    message.set_content(body)
    host, port, timeout = config["MAIL_SERVER"], _port(), float(config.get("MAIL_TIMEOUT") or 10)
    try:
        if config.get("MAIL_USE_SSL"):
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                host, port, timeout=timeout, context=ssl.create_default_context()
            )
        else:
            server = smtplib.SMTP(host, port, timeout=timeout)
        with server:
            if config.get("MAIL_USE_TLS") and not config.get("MAIL_USE_SSL"):
                server.starttls(context=ssl.create_default_context())
            if config.get("MAIL_USERNAME"):
                server.login(config["MAIL_USERNAME"], config.get("MAIL_PASSWORD") or "")
            server.send_message(message)
    except (smtplib.SMTPException, OSError) as exc:
        current_app.logger.warning("mail to %s not sent: %s", to, exc)
        raise MailFailed(str(exc)) from exc
