// Scorekeeper's script. Every page works without it; it makes the table quicker:
// confirmations, the new night's seating order, keeping the screen awake while a game is
// open, and the service worker for no network (offline.js draws the rounds waiting on the
// phone, loaded only when there are some). The round form's own script (the card counter,
// live sums) is round.js, loaded by that page only.
(function () {
  "use strict";

  // The script's sentences in the page's language (web/script_words.py, table "app").
  function said(key, params) {
    var words = window.scorekeeperWords;
    return words ? words.t(key, params) : key;
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
      // Back online, the page stops saying it is offline: a round form keeps what is
      // typed in it (Save sends it now); the next page opened is the server's.
      var back = function () {
        var notice = document.querySelector(".flash-offline");
        if (notice) notice.parentNode.removeChild(notice);
        document.body.removeAttribute("data-offline");
      };
      // Chrome may say "online" while it is not: the server itself is asked first.
      var backOnline = function () {
        if (!navigator.onLine) return;
        fetch("/healthz", { cache: "no-store" }).then(back, function () {});
      };
      window.addEventListener("online", backOnline);
      // A kept copy shown although the phone is online (the network came back while it
      // was being asked for): asked once more, a moment later.
      if (navigator.onLine) setTimeout(backOnline, 1500);
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
          say.textContent = said("no_connection");
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
        li.appendChild(button(said("move_up", { name: n }), "↑", i, -1));
        li.appendChild(button(said("move_down", { name: n }), "↓", i, 1));
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
  // Asking Intl for the zone is a long task on a cheap phone, so it is asked off the page,
  // in a worker (static/js/zone.js), and only when the clock's offset from UTC is not the
  // one the cookie was set with (a first visit, a summer time change, a journey).
  function rememberTimeZone() {
    var meta = document.querySelector('meta[name="sk-account"][data-zone]');
    var offset = String(new Date().getTimezoneOffset());
    if (!meta || !window.Worker || cookie("tzo") === offset && cookie("tz")) return;
    var worker;
    try { worker = new Worker(meta.getAttribute("data-zone")); } catch (e) { return; }
    worker.onerror = function () { worker.terminate(); };  // offline: asked next time
    worker.onmessage = function (e) {
      worker.terminate();
      var zone = String(e.data || "");
      if (!/^[A-Za-z0-9_+\/-]{1,64}$/.test(zone)) return;
      var keep = "; path=/; max-age=31536000; SameSite=Lax";
      document.cookie = "tz=" + zone + keep;
      document.cookie = "tzo=" + offset + keep;
    };
  }

  // A keeper's open sheet follows the game where the front holds streams (#sheet-stream):
  // a message is the game's version; a newer one than the page's (a co-keeper's round)
  // draws the page again. Opened again when the page comes back into view or the network
  // returns (phones drop background streams); the engine sends its last message on connect.
  function followSheet(el) {
    var version = parseInt(el.getAttribute("data-version"), 10), source = null;
    function listen() {
      if (source && source.readyState !== 2) return;
      if (document.visibilityState === "hidden") return;
      source = new EventSource(el.getAttribute("data-stream"));
      source.onmessage = function (e) { if (parseInt(e.data, 10) > version) location.reload(); };
    }
    listen();
    document.addEventListener("visibilitychange", listen);
    window.addEventListener("online", function () { if (source) source.close(); listen(); });
  }

  function cookie(name) {
    var found = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return found ? found[1] : "";
  }

  // The new-game form: the cards advised for the seats as they are typed.
  function deckAdvice(advice) {
    var table = JSON.parse(advice.getAttribute("data-advice"));
    var seats = document.querySelectorAll("table.seats input[name^=seat-]");
    function count() {
      var n = 0;
      seats.forEach(function (input) { if (input.value.trim()) n += 1; });
      var said = table[Math.max(n, 2)];
      if (said && advice.textContent !== said) advice.textContent = said;
    }
    seats.forEach(function (input) { input.addEventListener("input", count); });
  }

  // The new-game form: a choice that fixes other settings' defaults (Pool's 101, 201 or
  // 61) shows them in those fields, left empty, as it changes (the server fills an empty
  // field with the default of the choice sent, with or without this script).
  function followDefaults(select) {
    var fills = JSON.parse(select.getAttribute("data-fills"));
    select.addEventListener("change", function () {
      var chosen = fills[select.value] || {};
      Object.keys(chosen).forEach(function (key) {
        var input = select.form.querySelector("[name=" + key + "]");
        if (input) input.setAttribute("placeholder", chosen[key]);
      });
    });
  }

  function setup() {
    rememberTimeZone();
    var advice = document.getElementById("deck-advice");
    if (advice) deckAdvice(advice);
    document.querySelectorAll("select[data-fills]").forEach(followDefaults);
    document.querySelectorAll("form[data-seating]").forEach(setupSeating);
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        // A ticked option that changes what the tap does says so in the question too.
        var said = form.getAttribute("data-confirm");
        form.querySelectorAll("input[data-confirm-also]:checked").forEach(function (box) {
          said += " " + box.getAttribute("data-confirm-also");
        });
        if (!window.confirm(said)) e.preventDefault();
      });
    });
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      var source = document.querySelector(button.getAttribute("data-copy"));
      if (!source || !navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.value).then(function () {
          button.textContent = said("copied");
        });
      });
    });
    var body = document.body.classList;
    if ((body.contains("sheet-page") || body.contains("round-page")) && navigator.wakeLock) {
      keepAwake();
    }
    var saved = document.querySelector(".just-saved");
    if (saved) showSaved(saved);
    var stream = document.getElementById("sheet-stream");
    if (stream && window.EventSource) followSheet(stream);
    offline();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
