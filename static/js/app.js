// Scorekeeper's script. Every page works without it; it makes the table quicker: the card
// counter, live sums (with Texas multipliers), confirmations, keeping
// the screen awake while a game is open, and the service worker for no network (offline.js
// draws the rounds waiting on the phone, loaded only when there are some).
(function () {
  "use strict";

  // A hand field is read the way the server reads it (scorekeeper/forms.py,
  // parse_hand_field and parse_hand_text). While the visible text still shows exactly the
  // cards tapped on the counter (kept in a hidden field), the hand is those cards: a tapped
  // 7 is the seven. Otherwise the typed text counts: a lone number or a sum is points
  // ("7", "10+7"), words are cards ("K 7 JK"). Anything this script cannot be sure the
  // server reads the same way shows no sum at all, never a different one.
  var PLAIN = /^[0-9A-Za-z+, \t\n\r\f\v]*$/;
  var POINTS = /^\d{1,5}([ \t\n\r\f\v]*\+[ \t\n\r\f\v]*\d{1,5})*$/;

  function tokens(text) {
    return (text || "").toUpperCase().split(/[ \t\n\r\f\v,]+/).filter(Boolean);
  }

  function sameCards(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function readHand(text, tapped, rules) {
    if (!PLAIN.test(text) || !PLAIN.test(tapped)) return null;
    var cards = tokens(tapped);
    var typed = tokens(text);
    if (!(cards.length && sameCards(cards, typed))) {
      var raw = text.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
      if (!raw) return null;
      if (POINTS.test(raw)) {
        var points = raw.split("+").reduce(function (a, b) { return a + parseInt(b, 10); }, 0);
        return points > rules.maxPoints ? null : { points: points, cards: null };
      }
      cards = typed;
    }
    if (!cards.length || cards.length > rules.maxCards) return null;
    var total = 0;
    for (var i = 0; i < cards.length; i++) {
      if (!Object.prototype.hasOwnProperty.call(rules.values, cards[i])) return null;
      total += rules.values[cards[i]];
    }
    return { points: total, cards: cards };
  }

  function setupRoundForm(form) {
    var rules = {
      values: JSON.parse(form.getAttribute("data-values") || "{}"),
      maxPoints: parseInt(form.getAttribute("data-max-points") || "9999", 10),
      maxCards: parseInt(form.getAttribute("data-max-cards") || "60", 10)
    };
    var multiplier = parseInt(form.getAttribute("data-multiplier") || "1", 10);
    var shows = [];
    form.querySelectorAll("[data-hand]").forEach(function (box) {
      var input = box.querySelector("input.hand-input");
      var tapped = box.querySelector("input[data-cards]");
      var out = box.querySelector("output.sum");
      function show() {
        var hand = input.disabled ? null : readHand(input.value, tapped.value, rules);
        if (hand === null) { out.textContent = ""; return; }
        var v = hand.points;
        out.textContent = multiplier > 1 ? v + " → " + v * multiplier : "= " + v;
      }
      shows.push(show);
      // The cards counted so far: the tapped ones, or cards typed by hand ("K 7").
      function counted() {
        var hand = readHand(input.value, tapped.value, rules);
        return hand && hand.cards ? hand.cards : [];
      }
      // Points typed by hand ("12", "12+3"), not the tapped cards: a tap adds to them.
      function typedPoints() {
        var cards = tokens(tapped.value);
        if (cards.length && sameCards(cards, tokens(input.value))) return null;
        var raw = input.value.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
        return POINTS.test(raw) ? raw : null;
      }
      function setCards(cards) {
        tapped.value = cards.join(" ");
        input.value = tapped.value;
        show();
      }
      function setPoints(text) {
        tapped.value = "";
        input.value = text;
        show();
      }
      // Typing by hand wins over the counter: the text is read as typed.
      input.addEventListener("input", function () { tapped.value = ""; show(); });
      box.querySelectorAll("[data-card]").forEach(function (btn) {
        btn.addEventListener("click", function () {
          var code = btn.getAttribute("data-card");
          var points = typedPoints();
          // Typed 12, tapped a 3: "12+3", the card's value this round added to the points.
          if (points !== null) { setPoints(points + "+" + rules.values[code]); return; }
          var cards = counted();
          if (cards.length >= rules.maxCards) return;
          setCards(cards.concat([code]));
        });
      });
      var back = box.querySelector("[data-undo-card]");
      if (back) back.addEventListener("click", function () {
        var points = typedPoints();
        if (points !== null) {  // "12+3": the last added value goes; typed points stay
          var cut = points.lastIndexOf("+");
          if (cut > 0) setPoints(points.slice(0, cut).replace(/[ \t\n\r\f\v]+$/, ""));
          return;
        }
        var cards = counted();
        if (cards.length) setCards(cards.slice(0, -1));
      });
      var clear = box.querySelector("[data-clear]");
      if (clear) clear.addEventListener("click", function () { setCards([]); });
      // The counter's button opens the pad of cards under the row; its last key (Next, or
      // Done on the last hand) folds it and moves on to the next hand, as the number
      // pad's Next does.
      var toggle = box.querySelector("button.count-cards");
      var pad = box.querySelector(".cards-pad");
      if (toggle && pad) {
        var openPad = function (open) {
          pad.hidden = !open;
          toggle.setAttribute("aria-expanded", open ? "true" : "false");
        };
        toggle.hidden = false;
        toggle.addEventListener("click", function () { openPad(pad.hidden); });
        var done = pad.querySelector("[data-pad-done]");
        if (done) done.addEventListener("click", function () {
          openPad(false);
          var open = openHands();
          var next = open[open.indexOf(input) + 1];
          if (next) next.focus();
          else toggle.focus();
        });
      }
      show();
    });
    // Fields the browser restores on "back" change no event: read them again.
    window.addEventListener("pageshow", function () { shows.forEach(function (f) { f(); }); });

    // The player who went out has no hand: their row is marked, their field disabled (so
    // it is not sent) and, in Dummy, their contract ticked (the server ticks it anyway).
    var rows = Array.prototype.slice.call(form.querySelectorAll("[data-hand]"));
    function handOf(row) { return row.querySelector("input.hand-input"); }
    function openHands() {
      return rows.map(handOf).filter(function (input) { return !input.disabled; });
    }
    function markOut() {
      var checked = form.querySelector("input[name=went_out]:checked");
      rows.forEach(function (row) {
        var input = handOf(row);
        var seat = input.name.slice(5);
        var isOut = !!checked && checked.value === seat;
        row.classList.toggle("is-out", isOut);
        input.disabled = isOut;
        row.querySelector("input[data-cards]").disabled = isOut;
        var contract = form.querySelector("input[name=contract-" + seat + "]");
        if (contract && isOut && !contract.checked) {
          contract.checked = true;
          contract.setAttribute("data-ticked-for-out", "");
        } else if (contract && !isOut && contract.hasAttribute("data-ticked-for-out")) {
          contract.checked = false;
          contract.removeAttribute("data-ticked-for-out");
        }
      });
      // The keyboard's key says what Enter does: next hand, or done on the last one.
      var open = openHands();
      open.forEach(function (input, i) {
        var last = i === open.length - 1;
        input.setAttribute("enterkeyhint", last ? "done" : "next");
        var done = input.closest("[data-hand]").querySelector("[data-pad-done]");
        if (done) done.textContent = last ? "Done" : "Next";
      });
      shows.forEach(function (f) { f(); });
    }
    // A tap on who went out goes straight on to the first hand still to type, so the
    // number pad is up; arrow keys moving through the choices stay where they are.
    var viaTap = false;
    form.addEventListener("pointerdown", function (e) {
      viaTap = !!(e.target.closest && e.target.closest(".out-choice"));
    }, true);
    form.addEventListener("keydown", function () { viaTap = false; }, true);
    form.querySelectorAll("input[name=went_out]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        markOut();
        if (!viaTap) return;
        viaTap = false;
        var next = openHands().filter(function (input) { return !input.value; })[0];
        if (next) next.focus();
      });
    });
    // Enter (the number pad's Next) moves to the next hand instead of sending a half
    // typed round; on the last hand it closes the keyboard, leaving Save in view.
    form.addEventListener("keydown", function (e) {
      var input = e.target;
      if (e.key !== "Enter" || !input.classList || !input.classList.contains("hand-input")) return;
      e.preventDefault();
      var open = openHands();
      var next = open[open.indexOf(input) + 1];
      if (next) next.focus();
      else input.blur();
    });
    markOut();
    form.addEventListener("submit", function (e) {
      var button = form.querySelector("button[type=submit]");
      // Not when the form was kept (offline.js: no connection, the round stays in it).
      if (button) { setTimeout(function () { button.disabled = !e.defaultPrevented; }, 0); }
    });
  }

  // Keep the screen awake while a game is open (the sheet, entering a round), where the
  // browser allows it; asked again when the page is shown again, released on leaving.
  function keepAwake() {
    var sentinel = null;
    function lock() {
      if (document.visibilityState !== "visible" || sentinel) return;
      navigator.wakeLock.request("screen").then(function (s) {
        sentinel = s;
        s.addEventListener("release", function () { if (sentinel === s) sentinel = null; });
      }).catch(function () {});
    }
    lock();
    document.addEventListener("visibilitychange", lock);
    window.addEventListener("pageshow", lock);
    window.addEventListener("pagehide", function () {
      if (sentinel) sentinel.release().catch(function () {});
      sentinel = null;
    });
  }

  // Right after saving a round: the banner of the next round, the Undo and the new row on
  // one screen. The grid box scrolls to the row; the page scrolls no further than the
  // banner; if the row still hides behind the bottom bar, the grid box gets shorter.
  function showSaved(row) {
    var wrap = row.closest(".grid-wrap");
    var banner = document.querySelector(".banner") || wrap;
    var bar = document.querySelector(".bottom-bar");
    if (!wrap) return;
    function rowIntoBox() {
      var over = row.getBoundingClientRect().bottom -
        (wrap.getBoundingClientRect().top + wrap.clientTop + wrap.clientHeight);
      if (over > 0) wrap.scrollTop += over;
    }
    rowIntoBox();
    var room = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0) - 8;
    var top = window.scrollY + banner.getBoundingClientRect().top - 8;
    var needed = window.scrollY + row.getBoundingClientRect().bottom - room;
    var y = Math.max(0, Math.min(needed, top));
    window.scrollTo(0, y);
    var short = row.getBoundingClientRect().bottom - room;
    if (short > 0) {
      wrap.style.maxHeight = Math.max(120, wrap.clientHeight - short) + "px";
      rowIntoBox();
    }
  }

  // With no network. On the keeper's pages the service worker (templates/sw.js) keeps
  // pages and rounds for when there is none; every page load and the network coming back
  // ask it to send the rounds waiting; a sheet or round form of a game with rounds waiting
  // loads offline.js to show them; logging out clears the phone. Without a service worker,
  // a round form with no connection says so instead of the browser's error page.
  function offline() {
    var meta = document.querySelector('meta[name="sk-account"]');
    if (!meta || !meta.content) return;
    var workers = "serviceWorker" in navigator ? navigator.serviceWorker : null;
    var path = /\/games\/(\d+)(\/rounds\/new)?$/.exec(location.pathname);
    var form = path && path[2] ? document.querySelector("form.round-form") : null;
    var sheet = path && !path[2] && document.body.classList.contains("sheet-page");
    if (document.body.hasAttribute("data-offline")) { // a kept copy: no Undo from it
      var undo = document.querySelector("[data-undo]");
      if (undo) undo.hidden = true;
    }
    if (form && !(workers && workers.controller)) withoutWorker(form);
    if (!workers) return;
    // A question to the worker; null when there is none, or no answer in time.
    function ask(message) {
      message.account = meta.content;
      return new Promise(function (resolve) {
        var timer = setTimeout(function () { resolve(null); }, 3000);
        workers.ready.then(function (registration) {
          var worker = workers.controller || registration.active;
          var channel = new MessageChannel();
          channel.port1.onmessage = function (e) { clearTimeout(timer); resolve(e.data); };
          worker.postMessage(message, [channel.port2]);
        });
      });
    }
    var shared = window.scorekeeper = { ask: ask, game: path ? parseInt(path[1], 10) : null };
    function showWaiting() {
      if (!sheet && !form) return;
      ask({ op: "list", game: shared.game }).then(function (answer) {
        // A round stored since this sheet was asked for: it may not be on it yet.
        if (sheet && answer && answer.sent_at > performance.timeOrigin) {
          location.reload();
          return;
        }
        var rounds = (answer && answer.rounds) || [];
        if (shared.show) { shared.show(rounds); return; }
        if (!rounds.length) return;
        var script = document.createElement("script");
        script.src = meta.getAttribute("data-offline");
        script.onload = function () { shared.show(rounds); };
        document.head.appendChild(script);
      });
    }
    window.addEventListener("load", function () {
      workers.register(meta.getAttribute("data-sw")).catch(function () {});
    });
    ask({ op: "hello", url: location.href, controlled: !!workers.controller });
    window.addEventListener("online", function () { ask({ op: "flush" }); });
    workers.addEventListener("message", function (e) {
      var news = e.data || {};
      if (news.op === "queue" && news.game === shared.game) showWaiting();
      if (news.op === "sent" && sheet && news.games.indexOf(shared.game) >= 0) location.reload();
    });
    if (workers.controller) showWaiting();
    var logout = document.querySelector('form[action$="/logout"]');
    if (logout) logout.addEventListener("submit", function (e) {
      if (!workers.controller || logout.hasAttribute("data-cleared")) return;
      e.preventDefault();
      ask({ op: "all" }).then(function (answer) {
        var n = answer && answer.rounds ? answer.rounds.length : 0;
        var one = n === 1;
        if (n && !window.confirm(n + (one ? " round" : " rounds") + " typed on this phone " +
          (one ? "has" : "have") + " not been sent yet. Logging out deletes " +
          (one ? "it" : "them") + " from this phone. Log out anyway?")) return null;
        return ask({ op: "logout" }).then(function () {
          logout.setAttribute("data-cleared", "");
          logout.submit();
        });
      });
    });
  }

  // No service worker: before a round is sent, is the server there? If not, the round
  // stays in the form, and the keeper is told so.
  function withoutWorker(form) {
    var busy = false;
    var probe = document.querySelector("link[rel=icon]").href;
    form.addEventListener("submit", function (e) {
      if (form.hasAttribute("data-reached")) return;
      e.preventDefault();
      if (busy) return;
      busy = true;
      var timer;
      new Promise(function (resolve) {
        timer = setTimeout(function () { resolve(false); }, 5000);
        fetch(probe, { method: "HEAD", cache: "no-store" }).then(
          function () { resolve(true); }, function () { resolve(false); });
      }).then(function (reached) {
        clearTimeout(timer);
        busy = false;
        if (reached) {
          form.setAttribute("data-reached", "");
          HTMLFormElement.prototype.submit.call(form);
          return;
        }
        var say = document.querySelector(".no-connection");
        if (!say) {
          say = document.createElement("p");
          say.className = "flash flash-error no-connection";
          say.setAttribute("role", "alert");
          say.textContent = "No connection: your round is still in the form. Save again " +
            "when the network is back.";
          form.parentNode.insertBefore(say, form);
        }
        say.scrollIntoView({ block: "nearest" });
        form.querySelector("button[type=submit]").disabled = false;
      });
    });
  }

  // The new night's seating order: ticked regulars and typed names in one list the keeper
  // orders with up and down buttons; the order goes to the server in a hidden field (one
  // name a line). Without the script, regulars come first, then names as typed.
  function setupSeating(form) {
    var section = form.querySelector(".seat-order");
    var list = section.querySelector("ol");
    var field = form.querySelector("input[name=order]");
    var order = [];
    function chosen() {
      var names = [];
      form.querySelectorAll("input[name=regulars]:checked").forEach(function (box) {
        names.push(box.parentNode.textContent.trim());
      });
      var typed = form.querySelector("textarea[name=people]");
      (typed ? typed.value : "").split(/[\n,]+/).forEach(function (n) {
        n = n.trim().replace(/\s+/g, " ");
        if (n) names.push(n);
      });
      return names;
    }
    function key(n) { return n.toLocaleLowerCase(); }
    function move(i, by) {
      var j = i + by;
      if (j < 0 || j >= order.length) return;
      var t = order[i]; order[i] = order[j]; order[j] = t;
      draw(i + by, by < 0 ? "up" : "down");
    }
    function button(label, text, i, by) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "small"; b.textContent = text;
      b.setAttribute("aria-label", label);
      b.disabled = (i + by < 0 || i + by >= order.length);
      b.addEventListener("click", function () { move(i, by); });
      return b;
    }
    function draw(focus, dir) {
      list.textContent = "";
      order.forEach(function (n, i) {
        var li = document.createElement("li");
        var span = document.createElement("span");
        span.textContent = n;
        li.appendChild(span);
        li.appendChild(button("Move " + n + " up", "↑", i, -1));
        li.appendChild(button("Move " + n + " down", "↓", i, 1));
        list.appendChild(li);
      });
      section.hidden = order.length < 2;
      field.value = order.join("\n");
      if (focus !== undefined) {
        var again = list.children[focus].querySelector(
          "button:nth-of-type(" + (dir === "up" ? 1 : 2) + ")");
        if (again && !again.disabled) again.focus();
        else list.children[focus].querySelector("button:not([disabled])").focus();
      }
    }
    function refresh() {
      var now = chosen();
      var keys = now.map(key);
      var next = order.filter(function (n) { return keys.indexOf(key(n)) >= 0; });
      var kept = next.map(key);
      now.forEach(function (n) {
        if (kept.indexOf(key(n)) < 0) { next.push(n); kept.push(key(n)); }
      });
      // Only when someone came or went: a field's change on leaving it must not redraw
      // the buttons under the finger that is tapping one.
      if (next.join("\n") === order.join("\n") && list.children.length) return;
      order = next;
      draw();
    }
    form.addEventListener("change", refresh);
    form.addEventListener("input", refresh);
    refresh();
  }

  // Times on the keeper's pages read in the phone's time zone: the server reads its IANA
  // name from this cookie (web/__init__.py local_time). A change shows from the next page.
  function rememberTimeZone() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (!/^[A-Za-z0-9_+\/-]{1,64}$/.test(zone) || document.cookie.indexOf("tz=" + zone) >= 0) return;
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
  }

  function setup() {
    rememberTimeZone();
    document.querySelectorAll("form[data-seating]").forEach(setupSeating);
    document.querySelectorAll("form.round-form").forEach(setupRoundForm);
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        if (!window.confirm(form.getAttribute("data-confirm"))) e.preventDefault();
      });
    });
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      var source = document.querySelector(button.getAttribute("data-copy"));
      if (!source || !navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.value).then(function () {
          button.textContent = "Copied";
        });
      });
    });
    var body = document.body.classList;
    if ((body.contains("sheet-page") || body.contains("round-page")) && navigator.wakeLock) {
      keepAwake();
    }
    var saved = document.querySelector(".just-saved");
    if (saved) showSaved(saved);
    offline();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
