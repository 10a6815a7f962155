"""The game display's words (rules/said_display.py) on a 360 px phone in German and
Hindi: the Gin round form (who knocked, how, Nobody: a wash) and the Dummy round form
(each contract to tick) fit, nothing cut off or scrolling sideways."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.keeper import Keeper
from tests.browser.layout import layout_problems

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}


@pytest.mark.parametrize(
    ("locale", "knocked"), [("de-DE", "Wer hat geklopft?"), ("hi-IN", "किसने नॉक किया?")]
)
def test_the_gin_and_dummy_round_forms_fit_a_phone_in_german_and_hindi(
    new_context: Callable[..., BrowserContext], live_server: str, locale: str, knocked: str
) -> None:
    english = new_context(**SMALL_PHONE)
    keeper = Keeper(english.new_page(), live_server)
    keeper.sign_up()
    night = keeper.start_night(["Margaret", "Christopher", "Henrietta"])
    gin = keeper.new_game(night, "Gin Rummy", ["Margaret", "Christopher"])
    dummy = keeper.new_game(night, "Dummy Rummy", ["Margaret", "Christopher", "Henrietta"])
    page = new_context(
        **SMALL_PHONE, locale=locale, storage_state=english.storage_state()
    ).new_page()
    page.goto(f"{live_server}/games/{gin}/rounds/new")
    expect(page.locator("fieldset.entry legend")).to_contain_text(knocked)
    assert layout_problems(page) == []
    page.goto(f"{live_server}/games/{dummy}/rounds/new")
    expect(page.locator("fieldset.extras label.check")).to_have_count(3)
    assert layout_problems(page) == []
