// The live view's only script (templates/live/): the page follows the game by itself.
// Where the page has a stream (data-stream: the front's stream engine), each message brings
// the page's new main part, drawn by the server once for every phone of the table reading
// it in this language and layout, and the page swaps it in without asking. A message with
// the new version only (the page too big for a message, or not drawn) makes the page ask
// for itself once (?v= the message: past the front's one-second cache of what was before,
// shared by the table's phones). Otherwise, and while
// the stream is down or silent, every few seconds while the page is in view it asks
// whether anything changed (If-None-Match with the page's ETag): a 304 costs the server
// one query. On a 200 the main part of the page is replaced, folded sections stay as they
// were, and the rounds that are new stand out for a moment. A link turned off shows the
// server's "not found". Without this script the page reloads itself (<noscript> refresh).
// Also: copy buttons for pay handles, and the screen kept awake where the browser allows.
(function () {
  "use strict";

  var main = document.getElementById("live");
  if (!main || !window.fetch || !window.DOMParser) return;
  var status = document.getElementById("live-status");
  var etag = main.getAttribute("data-etag");
  var every = 1000 * (parseInt(main.getAttribute("data-poll") || "4", 10) || 4);
  var busy = false;
  var stream = main.getAttribute("data-stream");
  var source = null, heard = 0, waiting = null, missed = null;
  var swapped = null, drawn = 0;  // the last message's page swapped in; swaps so far

  function rounds(root) {
    var seen = {};
    root.querySelectorAll("tr[data-round]").forEach(function (row) { seen[row.id] = true; });
    return seen;
  }

  function openFolds(root) {
    var open = {};
    root.querySelectorAll("details[id]").forEach(function (d) { open[d.id] = d.open; });
    return open;
  }

  // A grid scrolled to its last round follows the rounds that come in (a TV on the table
  // always starts there); one scrolled up to look back stays where it is.
  function atEnd(wrap) {
    return wrap.scrollTop + wrap.clientHeight >= wrap.scrollHeight - 8;
  }

  function grids(root) {
    var out = {};
    root.querySelectorAll(".grid-wrap").forEach(function (w, i) { out[i] = atEnd(w); });
    return out;
  }

  function follow(root, ends) {
    fitTv(root);
    root.querySelectorAll(".grid-wrap").forEach(function (w, i) {
      if (!ends || ends[i] !== false) w.scrollTop = w.scrollHeight;
    });
  }

  // On a TV the current game's grid ends at the bottom of the screen: its box is as tall
  // as what is left below its top, so the totals and the latest round (the box scrolls to
  // it) are on screen without scrolling the page. Without the script: 72vh (app.css).
  function fitTv(root) {
    if (!document.body.classList.contains("tv")) return;
    var wrap = root.querySelector(".grid-wrap");
    if (!wrap) return;
    wrap.style.maxHeight = "";
    var top = wrap.getBoundingClientRect().top + window.scrollY;
    var room = window.innerHeight - top - 12;
    wrap.style.maxHeight = Math.max(room, 160) + "px";
  }

  function replace(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live");
    if (!fresh) return;
    var before = rounds(main);
    var folds = openFolds(main);
    var ends = grids(main);
    main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes).map(function (n) {
      return document.adoptNode(n);
    }));
    main.querySelectorAll("details[id]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(folds, d.id)) d.open = folds[d.id];
    });
    main.querySelectorAll("tr[data-round]").forEach(function (row) {
      if (!before[row.id]) row.classList.add("just-saved");
    });
    if (doc.title) document.title = doc.title;
    follow(main, ends);
    setup(main);
    if (status) status.textContent = "Updated " + new Date().toLocaleTimeString() + ".";
  }

  // A message's page that could not be had (the server busy, the network gone) stays
  // owed: the stream says nothing more until the next round, so the next tick asks again.
  function owed(version) { if (typeof version === "string") missed = version; }
  function had(version) { if (version === missed) missed = null; }

  function poll(version) {
    if (busy) { if (typeof version === "string") waiting = version; return; }
    if (document.visibilityState === "hidden") return;
    busy = true;
    var mine = drawn;  // a page swapped in from a message meanwhile is newer than this answer
    var url = window.location.href.split("#")[0];
    if (typeof version === "string") url += (url.indexOf("?") < 0 ? "?" : "&") + "v=" + version;
    fetch(url, {
      headers: { "If-None-Match": etag },
      cache: "no-store",
      credentials: "omit",
      redirect: "error"
    }).then(function (r) {
      if (r.status === 304) { had(version); return null; }
      if (r.status === 404) { window.location.reload(); return null; }
      if (!r.ok) { owed(version); return null; }  // busy (429, 503): the next tick asks again
      if (mine !== drawn) { had(version); return null; }
      etag = r.headers.get("ETag") || etag;
      had(version);
      return r.text().then(replace);
    }).catch(function () {
      owed(version);
      if (status) status.textContent = "Offline: trying again.";
    }).then(function () {
      busy = false;
      if (waiting) { version = waiting; waiting = null; if (version !== swapped) poll(version); }
    });
  }

  function setup(root) {
    root.querySelectorAll("[data-copy-text]").forEach(function (button) {
      if (!navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.getAttribute("data-copy-text")).then(function () {
          button.textContent = "Copied";
        });
      });
    });
  }

  function keepAwake() {
    if (navigator.wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").catch(function () {});
    }
  }

  setup(main);
  // A TV shows the latest rounds from the start; on a phone the grid opens at its top, as
  // the keeper's sheet does (and the first paint is not followed by a scroll).
  if (document.body.classList.contains("tv")) {
    follow(main, null);
    window.addEventListener("resize", function () { follow(main, grids(main)); });
  }
  // The stream: a message (or the engine's ping, every 20 s) counts as heard. The poll
  // runs whenever the stream is not open or has been silent for longer than two pings (a
  // proxy that buffers it); a stream closed for good, or silent, is opened again on the
  // next tick, on coming back into view and when the network returns.
  function open() { return source && source.readyState === 1 && Date.now() - heard < 45000; }

  function tick() {
    if (source && (source.readyState === 2 || (source.readyState === 1 && !open()))) {
      source.close();
      source = null;
    }
    listen();
    if (!open()) poll();
    else if (missed) poll(missed);
  }

  function listen() {
    if (!stream || !window.EventSource || source || document.visibilityState === "hidden") return;
    source = new EventSource(stream);
    var hear = function () { heard = Date.now(); };
    // Back on the stream after losing it: ask once (what changed meanwhile).
    source.onopen = function () { if (heard) poll(); hear(); };
    source.addEventListener("ping", hear);
    source.onmessage = function (e) {
      hear();
      var said = read(e.data);
      if (said.page) {
        swapped = said.v;
        drawn += 1;
        missed = null;
        etag = said.etag || etag;
        replace(said.page);
        return;
      }
      // The version only: the table's phones hear it together, and each asks at its own
      // moment within a quarter of a second, so most are answered by the front's cache of
      // the first. The page hears the link's channel too (every page does: its variant
      // may be unknown to the server), so the version of a page just swapped in is
      // not asked for.
      setTimeout(function () { if (said.v !== swapped) poll(said.v); }, Math.random() * 250);
    };
  }

  // A message: {"v", "etag", "page"} (JSON), or the version alone.
  function read(data) {
    if (data.charAt(0) === "{") {
      try { return JSON.parse(data); } catch (err) { return { v: data }; }
    }
    return { v: data };
  }

  keepAwake();
  listen();
  window.setInterval(tick, every);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { keepAwake(); tick(); }
  });
  window.addEventListener("online", function () {
    if (source) { source.close(); source = null; }
    tick();
  });
})();
