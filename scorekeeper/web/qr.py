"""A link as a QR code: the live view's and the keeper link's."""

from __future__ import annotations

import segno


def qr_data_url(url: str) -> str:
    """The link as a QR code, an SVG data URL for an <img> (the CSP allows ``data:``
    images; no script or style in it). Dark on white whatever the colour scheme, with
    the quiet zone the readers need."""
    code = segno.make(url, error="m")
    return str(code.svg_data_uri(scale=6, border=4, dark="#000", light="#fff"))
