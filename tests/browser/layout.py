"""A whole page's layout checked as a reader sees it: nothing wider than the screen, no
text cut off by its box, no text or control drawn over another, nothing left for good
under a fixed bar. `layout_problems(page)` returns each problem in words."""

from __future__ import annotations

from playwright.sync_api import Page

# Items are the lines of every text node (a Range's client rects) and the boxes of the
# controls; each is clipped by the boxes its scrolling or clipping ancestors show, so a row
# scrolled out of the grid's box is not "over" what follows the box. Two items overlap
# when they share more than a pixel each way and neither element holds the other (a
# button's label sits on its button). Items under a fixed element are compared within
# that element only: page text rightly scrolls under the bottom bar, but at the page's
# end nothing may stay under it for good.
PROBLEMS = """
(screen) => {
  const out = [];
  const EPS = 1;
  const name = (e) => {
    const text = (e.textContent || e.value || e.getAttribute("aria-label") || "").trim();
    return `<${e.tagName.toLowerCase()}${e.className && typeof e.className === "string" ?
      "." + e.className.trim().split(/\\s+/).join(".") : ""}> ${text.slice(0, 30)}`;
  };
  const shown = (e) => {
    for (let a = e; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === "none" || s.visibility === "hidden" || s.opacity === "0") return false;
      if (a.classList.contains("visually-hidden")) return false;
    }
    return true;
  };
  const layerOf = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement)
      if (getComputedStyle(a).position === "fixed") return a;
    return null;
  };
  const stickyOf = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement)
      if (getComputedStyle(a).position === "sticky") return a;
    return null;
  };
  // r as far as the boxes that clip it let it show (from: the text's own element, or a
  // control's parent)
  const clipFor = (from, r) => {
    let box = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    for (let a = from; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const c = a.getBoundingClientRect();
      const left = c.left + a.clientLeft, top = c.top + a.clientTop;
      box = {left: Math.max(box.left, left), right: Math.min(box.right, left + a.clientWidth),
             top: Math.max(box.top, top), bottom: Math.min(box.bottom, top + a.clientHeight)};
      if (box.right - box.left < EPS || box.bottom - box.top < EPS) return null;
    }
    return box;
  };

  // 1. The page never scrolls sideways.
  const width = document.documentElement.scrollWidth;
  if (width > screen) out.push(`the page is ${width} px wide on a ${screen} px screen`);

  // 2. No text is cut off: an element that clips (overflow hidden or clip) holds all of
  // its content, unless it gives way on purpose with an ellipsis and says the whole in its
  // title (a long name) or is a screen reader's text.
  for (const e of document.body.querySelectorAll("*")) {
    const s = getComputedStyle(e);
    const clips = ["hidden", "clip"];
    if (!clips.includes(s.overflowX) && !clips.includes(s.overflowY)) continue;
    if (!shown(e) || !e.textContent.trim()) continue;
    const r = e.getBoundingClientRect();
    if (r.width <= EPS || r.height <= EPS) continue;  // a screen reader's text
    if (s.textOverflow === "ellipsis" && e.closest("[title]")) continue;
    const wide = clips.includes(s.overflowX) && e.scrollWidth > e.clientWidth + EPS;
    const tall = clips.includes(s.overflowY) && e.scrollHeight > e.clientHeight + EPS;
    if (wide || tall)
      out.push(`cut off: ${name(e)} (${e.scrollWidth}x${e.scrollHeight} in ` +
               `${e.clientWidth}x${e.clientHeight})`);
  }

  // 3. Nothing drawn over anything else.
  const collect = () => {
    const items = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.textContent.trim()) continue;
      const e = t.parentElement;
      if (!e || ["SCRIPT", "STYLE", "TITLE", "OPTION", "TEXTAREA"].includes(e.tagName)) continue;
      if (e.closest("svg") || !shown(e)) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      const what = JSON.stringify(t.textContent.trim().slice(0, 24));
      for (const r of range.getClientRects()) {
        const box = clipFor(e, r);
        if (box) items.push({e, box, layer: layerOf(e), sticky: stickyOf(e), what});
      }
    }
    const controls = "input:not([type=hidden]), select, textarea, button, svg, img, canvas";
    for (const e of document.body.querySelectorAll(controls)) {
      if (!shown(e) || (e.parentElement && e.parentElement.closest("svg"))) continue;
      const r = e.getBoundingClientRect();
      if (r.width <= EPS || r.height <= EPS) continue;
      const box = clipFor(e.parentElement, r);
      if (box) items.push({e, box, layer: layerOf(e), sticky: stickyOf(e), what: name(e)});
    }
    return items;
  };
  const hit = (a, b) => a.left < b.right - EPS && b.left < a.right - EPS &&
                        a.top < b.bottom - EPS && b.top < a.bottom - EPS;
  const related = (a, b) => a === b || a.contains(b) || b.contains(a);
  // What scrolled under a sticky header (or row label) is hidden by it, not drawn over it.
  const underSticky = (a, b) => {
    if (a.sticky === b.sticky) return false;
    const x = (Math.max(a.box.left, b.box.left) + Math.min(a.box.right, b.box.right)) / 2;
    const y = (Math.max(a.box.top, b.box.top) + Math.min(a.box.bottom, b.box.bottom)) / 2;
    scrollTo(0, y - innerHeight / 2);  // the boxes were measured at the page's top
    const top = document.elementFromPoint(x, y - scrollY);
    scrollTo(0, 0);
    return [a.sticky, b.sticky].some((s) => s && top && s.contains(top));
  };
  const before = scrollY;
  scrollTo(0, 0);
  const items = collect();
  const seen = new Set();
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i], b = items[j];
      if (a.layer !== b.layer || related(a.e, b.e) || !hit(a.box, b.box)) continue;
      if (underSticky(a, b)) continue;
      const key = `${a.what} / ${b.what}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(`over each other: ${a.what} in ${name(a.e)} / ${b.what} in ${name(b.e)}`);
    }
  }

  // 4. Scrolled to the end, nothing of the page stays under a fixed bar at the bottom.
  scrollTo(0, document.documentElement.scrollHeight);
  const atEnd = collect();
  const bars = [...new Set(atEnd.filter((i) => i.layer).map((i) => i.layer))]
    .map((bar) => bar.getBoundingClientRect())
    .filter((r) => r.top > innerHeight / 2);
  for (const item of atEnd)
    if (!item.layer && bars.some((bar) => hit(item.box, bar)))
      out.push(`under the fixed bar at the page's end: ${item.what} in ${name(item.e)}`);
  scrollTo(0, before);
  return [...new Set(out)];
}
"""


def layout_problems(page: Page) -> list[str]:
    """Every layout problem of the page as shown now, in words (none: an empty list)."""
    page.evaluate("() => document.fonts.ready")
    viewport = page.viewport_size
    assert viewport is not None, "a page with a set viewport"
    # The screen's width, not innerWidth: a phone widens its layout to what overflows.
    return list(page.evaluate(PROBLEMS, viewport["width"]))
