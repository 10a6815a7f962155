// The keeper's pages with no network (the service worker is templates/sw.js): it is
// registered here and asked to send the rounds waiting on the phone (at every page load
// and when the network comes back); the sheet shows them as pending rows; a round form
// typed behind them says so; a round the server refused comes back in its form with the
// reason, to fix or discard; logging out deletes this phone's copies. Without a service
// worker, a round form with no connection says so instead of the browser's error page.
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="sk-account"]');
  if (!meta) return;
  var account = meta.getAttribute("content");
  var workers = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  var path = /\/games\/(\d+)(\/rounds\/new)?$/.exec(location.pathname);
  var game = path ? parseInt(path[1], 10) : null;
  var roundForm = path && path[2] ? document.querySelector("form.round-form") : null;
  var onSheet = path && !path[2] && document.body.classList.contains("sheet-page");
  var sheetUrl = path ? location.pathname.replace(/\/rounds\/new$/, "") : null;
  var SKIP = /^(csrf_token|version|submission|round_number|expiry_seen|queued_after)$/;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function fieldsOf(round) {
    var out = {};
    round.fields.forEach(function (f) { if (!(f[0] in out)) out[f[0]] = f[1]; });
    return out;
  }
  function clock(ms) {
    return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  // A question to the service worker, answered through a message channel; null when there
  // is none, or no answer in time (nothing here may wait on it for long).
  function ask(message) {
    if (!workers) return Promise.resolve(null);
    message.account = account;
    return new Promise(function (resolve) {
      var timer = setTimeout(function () { resolve(null); }, 3000);
      workers.ready.then(function (registration) {
        var worker = workers.controller || registration.active;
        if (!worker) { clearTimeout(timer); resolve(null); return; }
        var channel = new MessageChannel();
        channel.port1.onmessage = function (e) { clearTimeout(timer); resolve(e.data); };
        worker.postMessage(message, [channel.port2]);
      });
    });
  }

  function waiting() {
    return ask({ op: "list", game: game }).then(function (a) { return (a && a.rounds) || []; });
  }

  // ------------------------------------------------------------------ the sheet ---
  function showOnSheet(rounds) {
    var table = document.querySelector("table.grid");
    if (!table) return;
    Array.prototype.forEach.call(document.querySelectorAll(".pending, .pending-note, .saved-only"),
      function (node) { node.parentNode.removeChild(node); });
    var body = table.tBodies[0];
    var none = body.querySelector("td[colspan]");
    if (none) none.parentNode.hidden = rounds.length > 0;
    if (!rounds.length) return;
    var seats = Array.prototype.map.call(table.querySelectorAll("th.pn"), function (th) {
      return th.getAttribute("data-seat");
    });
    var row = null;
    rounds.forEach(function (round) {
      var typed = fieldsOf(round);
      row = el("tr", "pending" + (round.stopped ? " stopped" : ""));
      var head = el("th", "rl", String(round.number));
      head.scope = "row";
      head.appendChild(el("small", "sub", round.stopped ? "not saved" : "pending"));
      row.appendChild(head);
      seats.forEach(function (seat) {
        var cell = el("td", "num");
        if (typed.went_out === seat) {
          cell.className += " out-cell";
          cell.textContent = "out";
        } else if (("hand-" + seat) in typed) {
          cell.textContent = typed["hand-" + seat] || "–";
        }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    var total = table.querySelector("tr.totals th");
    if (total) total.appendChild(el("small", "sub saved-only", "saved only"));
    var first = rounds[0];
    var note;
    if (first.stopped) {
      note = el("div", "flash flash-error pending-note");
      note.setAttribute("role", "alert");
      note.appendChild(el("p", "", "Round " + first.number + " was not saved: " + first.stopped.reason));
      var fix = el("a", "", "Fix or discard round " + first.number);
      fix.href = location.pathname + "/rounds/new";
      var more = rounds.length > 1 ? " (" + plural(rounds.length - 1, "more round") + " wait behind it)" : "";
      var line = el("p");
      line.appendChild(fix);
      line.appendChild(document.createTextNode(more));
      note.appendChild(line);
    } else {
      note = el("p", "flash flash-warning pending-note", plural(rounds.length, "round") +
        " typed on this phone " + (rounds.length === 1 ? "waits" : "wait") + " for the network: " +
        "sent in order as soon as it is back. Totals and the banner count only the saved rounds.");
      note.setAttribute("role", "status");
    }
    var wrap = table.closest(".grid-wrap");
    wrap.parentNode.insertBefore(note, wrap);
    var enter = document.querySelector('.bottom-bar a[href$="/rounds/new"]');
    if (enter) {
      enter.textContent = first.stopped ? "Fix round " + first.number
        : "Enter round " + (rounds[rounds.length - 1].number + 1);
    }
    wrap.scrollTop = wrap.scrollHeight; // the rows just typed, in view
  }

  // --------------------------------------------------------------- the round form ---
  function hidden(name, value) {
    var input = roundForm.querySelector('input[name="' + name + '"]');
    if (!input) {
      input = el("input");
      input.type = "hidden";
      input.name = name;
      roundForm.appendChild(input);
    }
    input.value = value;
  }

  function showOnForm(rounds) {
    Array.prototype.forEach.call(document.querySelectorAll(".queue-note"), function (node) {
      node.parentNode.removeChild(node);
    });
    if (!rounds.length) return;
    var head = rounds[0];
    var own = roundForm.querySelector("input[name=submission]").value === head.id;
    if (head.stopped && !own) { refill(head); own = true; }
    if (own) { aboutHead(head, rounds.length - 1); return; }
    // Typed behind rounds that wait: saved after them, as the round after the last.
    var last = rounds[rounds.length - 1];
    var number = last.number + 1;
    var heading = document.querySelector("h1");
    if (heading) heading.textContent = "Round " + number;
    var save = roundForm.querySelector("button[type=submit]");
    if (save && /^Save round \d+$/.test(save.textContent)) save.textContent = "Save round " + number;
    hidden("round_number", String(number));
    hidden("queued_after", last.id);
    roundForm.classList.add("behind-queue");
    var note = el("p", "flash flash-warning queue-note", plural(rounds.length, "round") +
      " typed on this phone " + (rounds.length === 1 ? "waits" : "wait") + " to be sent: this " +
      "one is saved after " + (rounds.length === 1 ? "it" : "them") + ". Who deals and the " +
      "totals shown are from before " + (rounds.length === 1 ? "it" : "them") + ".");
    note.setAttribute("role", "status");
    roundForm.parentNode.insertBefore(note, roundForm);
  }

  // The round that stopped the queue, as typed, in today's form (its own submission id):
  // the keeper fixes it and saves it, and the queue goes on after it.
  function refill(round) {
    Array.prototype.forEach.call(roundForm.querySelectorAll("input[type=checkbox]"), function (box) {
      box.checked = false;
    });
    round.fields.forEach(function (field) {
      if (SKIP.test(field[0])) return;
      Array.prototype.forEach.call(roundForm.querySelectorAll('[name="' + field[0] + '"]'), function (input) {
        if (input.type === "radio") input.checked = input.value === field[1];
        else if (input.type === "checkbox") input.checked = true;
        else input.value = field[1];
      });
    });
    hidden("submission", round.id);
    var out = roundForm.querySelector("input[name=went_out]:checked");
    if (out) out.dispatchEvent(new Event("change", { bubbles: true }));
    window.dispatchEvent(new Event("pageshow")); // app.js reads the hands again
    var errors = round.stopped.errors || {};
    Object.keys(errors).forEach(function (name) {
      var input = roundForm.querySelector('input[name="' + name + '"]:not([type=hidden])');
      if (!input) return;
      input.setAttribute("aria-invalid", "true");
      var box = input.closest("[data-hand], .field") || input.parentNode;
      box.classList.add("has-error");
      box.appendChild(el("p", "error", errors[name]));
    });
  }

  // On the first waiting round's own form: what became of it, and Discard.
  function aboutHead(round, behind) {
    var note = el("div", "flash queue-note " + (round.stopped ? "flash-error" : "flash-warning"));
    note.setAttribute("role", round.stopped ? "alert" : "status");
    var typed = "Round " + round.number + ", typed on this phone at " + clock(round.typed_at);
    note.appendChild(el("p", "", round.stopped ? typed + ", was not saved: " + round.stopped.reason
      : typed + ", is not saved yet."));
    note.appendChild(el("p", "", "Fix it and save it, or discard it" + (behind
      ? "; " + plural(behind, "more round") + " typed after it " + (behind === 1 ? "waits" : "wait") +
        " until then." : ".")));
    var discard = el("button", "", "Discard round " + round.number);
    discard.type = "button";
    discard.addEventListener("click", function () {
      if (!window.confirm("Discard round " + round.number + " as typed? It will not be saved.")) return;
      var version = roundForm.querySelector("input[name=version]").value;
      ask({ op: "discard", game: game, id: round.id, version: version }).then(function () {
        location.assign(sheetUrl);
      });
    });
    note.appendChild(discard);
    roundForm.parentNode.insertBefore(note, roundForm);
  }

  // Without a service worker: no connection, no sending; the round stays in the form.
  function withoutWorker() {
    var busy = false;
    var probe = document.querySelector('link[rel=icon]').href;
    roundForm.addEventListener("submit", function (e) {
      if (roundForm.hasAttribute("data-reached")) return;
      e.preventDefault();
      if (busy) return;
      busy = true;
      var timer = null;
      var reached = new Promise(function (resolve) {
        timer = setTimeout(function () { resolve(false); }, 5000);
        fetch(probe, { method: "HEAD", cache: "no-store" }).then(
          function () { resolve(true); }, function () { resolve(false); });
      });
      reached.then(function (ok) {
        clearTimeout(timer);
        busy = false;
        if (ok) {
          roundForm.setAttribute("data-reached", "");
          HTMLFormElement.prototype.submit.call(roundForm);
          return;
        }
        var say = document.querySelector(".no-connection");
        if (!say) {
          say = el("p", "flash flash-error no-connection", "No connection: your round is " +
            "still in the form. Save again when the network is back.");
          say.setAttribute("role", "alert");
          roundForm.parentNode.insertBefore(say, roundForm);
        }
        say.scrollIntoView({ block: "nearest" });
        var button = roundForm.querySelector("button[type=submit]");
        if (button) button.disabled = false;
      });
    });
  }

  // ------------------------------------------------------------------- all pages ---
  function refresh() {
    if (onSheet) waiting().then(showOnSheet);
    else if (roundForm) waiting().then(showOnForm);
  }

  if (document.body.hasAttribute("data-offline")) { // a kept copy: no Undo from here
    var undo = document.querySelector("[data-undo]");
    if (undo) undo.hidden = true;
  }
  if (roundForm && !(workers && workers.controller)) withoutWorker();
  if (!workers) return;
  window.addEventListener("load", function () {
    workers.register(meta.getAttribute("data-sw")).catch(function () {});
  });
  ask({ op: "hello", url: location.href, controlled: !!workers.controller });
  window.addEventListener("online", function () { ask({ op: "flush" }); });
  workers.addEventListener("message", function (e) {
    var news = e.data || {};
    if (news.op === "queue" && news.game === game) refresh();
    if (news.op === "sent" && onSheet && news.games.indexOf(game) >= 0) location.reload();
  });
  if (workers.controller) refresh();

  var logout = document.querySelector('form[action$="/logout"]');
  if (logout) {
    logout.addEventListener("submit", function (e) {
      if (!workers.controller || logout.hasAttribute("data-cleared")) return;
      e.preventDefault();
      ask({ op: "all" }).then(function (answer) {
        var n = answer && answer.rounds ? answer.rounds.length : 0;
        if (n && !window.confirm(plural(n, "round") + " typed on this phone " +
          (n === 1 ? "has" : "have") + " not been sent yet. Logging out deletes " +
          (n === 1 ? "it" : "them") + " from this phone. Log out anyway?")) return null;
        return ask({ op: "logout" }).then(function () {
          logout.setAttribute("data-cleared", "");
          logout.submit();
        });
      });
    });
  }
})();
