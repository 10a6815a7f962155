"""A phone set to Hindi opens the app: the log-in page reads Hindi (its browser's
Accept-Language; scripts/test installs a Devanagari font); the visitor taps another language in the
footer (JavaScript off: a plain form) and the page answers in it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

pytestmark = pytest.mark.browser


def test_a_hindi_phone_reads_hindi_and_switches_in_the_footer(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    context = new_context(locale="hi-IN", java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/login")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(page.get_by_role("heading", level=1)).to_have_text("लॉग इन")
    expect(page.get_by_label("पासवर्ड", exact=True)).to_be_visible()
    page.get_by_label("भाषा").select_option("fr")
    page.get_by_role("button", name="बदलें").tap()
    page.wait_for_url(f"{live_server}/login")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Se connecter")
    expect(page.get_by_label("Langue")).to_have_value("fr")
