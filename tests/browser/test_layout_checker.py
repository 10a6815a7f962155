"""The layout check the screens are held to (tests/browser/layout.py) finds each kind of
problem it names on a page made to have it, and nothing on a page without."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext

from tests.browser.layout import layout_problems

pytestmark = pytest.mark.browser

CLEAN = """
<main style="padding: 8px 8px 80px">
  <h1>Round 3</h1>
  <p>a line</p><p>a line</p><p>a line</p><p>a line</p><p>a line</p><p>a line</p>
  <p class="who" style="width: 60px; overflow: hidden; text-overflow: ellipsis;
     white-space: nowrap" title="Christopher">Christopher</p>
  <div style="height: 40px; overflow: auto"><p>1</p><p>2</p><p>3</p><p>4</p></div>
  <button>Save</button> <input value="12">
</main>
<div style="position: fixed; bottom: 0; left: 0; right: 0; height: 60px">
  <button>Cancel</button></div>
"""

BROKEN = {
    "over each other": '<p style="position: relative">Dee deals</p>'
    '<p style="position: relative; top: -1.2em; left: 1em">Bob starts</p>',
    "cut off": '<p style="width: 40px; overflow: hidden; white-space: nowrap">Henrietta</p>',
    "the page is": '<p style="width: 900px">wide</p>',
    "under the fixed bar": "<main>" + "<p>a line</p>" * 30 + '</main><div style="position: fixed;'
    ' bottom: 0; left: 0; right: 0; height: 60px"><button>Save</button></div>',
}
PHONE = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def test_a_clean_page_has_no_problem(new_context: Callable[..., BrowserContext]) -> None:
    page = new_context(viewport={"width": 360, "height": 300}).new_page()
    page.set_content(PHONE + CLEAN)
    assert layout_problems(page) == []


@pytest.mark.parametrize("kind", list(BROKEN))
def test_each_problem_is_found(new_context: Callable[..., BrowserContext], kind: str) -> None:
    page = new_context(viewport={"width": 360, "height": 300}).new_page()
    page.set_content(PHONE + BROKEN[kind])
    problems = layout_problems(page)
    assert any(p.startswith(kind) for p in problems), problems
