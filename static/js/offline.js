// The rounds waiting on the phone (kept by the service worker, templates/sw.js), drawn by
// app.js's call to show() when the game has some: on the sheet as pending rows with the
// hands as typed, and totals marked as the saved rounds' only; on a round form typed
// behind them, its number after theirs; a round the server refused back in its form, with
// the reason, to fix and save or to discard.
(function () {
  "use strict";

  var shared = window.scorekeeper;
  var game = shared.game;
  var roundForm = /\/rounds\/new$/.test(location.pathname)
    ? document.querySelector("form.round-form") : null;
  var sheetUrl = location.pathname.replace(/\/rounds\/new$/, "");
  var SKIP = /^(csrf_token|version|submission|round_number|seen|queued_after)$/;
  // What the game calls a round ("deal" in Contract and Rummy), and the banners of the
  // rounds after the next one (web/games/ahead.py), drawn into the page by the server.
  var holder = document.querySelector("[data-round-word]");
  var word = holder ? holder.getAttribute("data-round-word") : "round";
  var Word = word.charAt(0).toUpperCase() + word.slice(1);
  var ahead = [];
  try { ahead = JSON.parse((holder && holder.getAttribute("data-ahead")) || "[]"); } catch (e) { ahead = []; }
  function aheadOf(number) {
    return ahead.filter(function (a) { return a.number === number; })[0] || null;
  }

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
    rounds.forEach(function (round) {
      var typed = fieldsOf(round);
      var row = el("tr", "pending" + (round.stopped ? " stopped" : ""));
      var head = el("th", "rl", String(round.number));
      head.scope = "row";
      head.appendChild(el("small", "sub", round.stopped ? "not saved" : "pending"));
      row.appendChild(head);
      seats.forEach(function (seat) {
        var cell = el("td", "num");
        if (typed.went_out === seat) {
          cell.className += " out-cell";
          // Gin: the knocker's deadwood is sent too (other games send no hand for them).
          cell.textContent = typed["hand-" + seat] ? "out " + typed["hand-" + seat] : "out";
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
      note.appendChild(el("p", "", Word + " " + first.number + " was not saved: " + first.stopped.reason));
      var fix = el("a", "", "Fix or discard " + word + " " + first.number);
      fix.href = location.pathname + "/rounds/new";
      var behind = rounds.length - 1;
      var more = behind ? " (" + plural(behind, "more " + word) + (behind === 1 ? " waits" : " wait") +
        " behind it)" : "";
      var line = el("p");
      line.appendChild(fix);
      line.appendChild(document.createTextNode(more));
      note.appendChild(line);
    } else {
      var next = rounds[rounds.length - 1].number + 1;
      note = el("p", "flash flash-warning pending-note", plural(rounds.length, word) +
        " typed on this phone " + (rounds.length === 1 ? "waits" : "wait") + " for the network: " +
        "sent in order as soon as it is back. Totals count only the saved " + word + "s" +
        (aheadOf(next) ? "; the banner shows " + word + " " + next + ", the next to enter." : "."));
      showBanner(next);
      note.setAttribute("role", "status");
    }
    var wrap = table.closest(".grid-wrap");
    wrap.parentNode.insertBefore(note, wrap);
    var enter = document.querySelector('.bottom-bar a[href$="/rounds/new"]');
    if (enter) {
      enter.textContent = first.stopped ? "Fix " + word + " " + first.number
        : "Enter " + word + " " + (rounds[rounds.length - 1].number + 1);
    }
    wrap.scrollTop = wrap.scrollHeight; // the rows just typed, in view
  }

  // The sheet's banner, for the round to enter after those waiting: who deals and
  // starts, the cards, what is wild (the server drew them; no network needed).
  function showBanner(number) {
    var banner = document.querySelector("section.banner[data-ahead]");
    var next = aheadOf(number);
    if (!banner || !next) return;
    var main = banner.querySelector(".banner-main");
    main.replaceChildren(el("strong", "", next.banner[0]));
    next.banner.slice(1).forEach(function (part) {
      main.appendChild(document.createTextNode(" · " + part));
    });
    var deals = main.nextElementSibling;
    if (deals && deals.querySelector(".badge")) {
      deals.replaceChildren(el("span", "badge", next.dealer + " deals"),
        document.createTextNode(", " + next.starts + " starts"));
      var old = deals.nextElementSibling;
      while (old && old.tagName === "P") {
        var gone = old;
        old = old.nextElementSibling;
        gone.parentNode.removeChild(gone);
      }
      next.notes.slice().reverse().forEach(function (line) {
        deals.insertAdjacentElement("afterend", el("p", "", line));
      });
    }
    Array.prototype.forEach.call(document.querySelectorAll("th.pn .nm"), function (name) {
      var th = name.closest("th");
      var deals = th.getAttribute("title") === next.dealer;
      name.classList.toggle("dealer", deals);
      var said = name.querySelector(".visually-hidden");
      if (said && !deals) name.removeChild(said);
      if (!said && deals) name.appendChild(el("span", "visually-hidden", " deals next"));
    });
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
    if (heading) heading.textContent = Word + " " + number;
    var next = aheadOf(number);
    var line = document.querySelector("p.banner-main");
    if (next && line) {
      line.textContent = next.banner.slice(1).concat([next.dealer + " deals, " + next.starts +
        " starts"]).join(" · ");
    }
    var save = roundForm.querySelector("button[type=submit]");
    if (save && /^Save \w+ \d+$/.test(save.textContent)) save.textContent = "Save " + word + " " + number;
    hidden("round_number", String(number));
    hidden("queued_after", last.id);
    roundForm.classList.add("behind-queue");
    var note = el("p", "flash flash-warning queue-note", plural(rounds.length, word) +
      " typed on this phone " + (rounds.length === 1 ? "waits" : "wait") + " to be sent: this " +
      "one is saved after " + (rounds.length === 1 ? "it" : "them") + ". The totals shown are " +
      "from before " + (rounds.length === 1 ? "it" : "them") + (next ? "." : "; so is who deals."));
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
    askExpiries(round.stopped.asked || [], fieldsOf(round));
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

  // Someone expired in the round: the server's question "re-buy or drop out?", asked on
  // the form as the server asks it (re-buy chosen unless the keeper chose a drop), so one
  // Save sends the round with the answer. No stakes: no price ("re-buy for $0.00").
  function askExpiries(expiries, typed) {
    Array.prototype.forEach.call(roundForm.querySelectorAll("fieldset.money-moment"),
      function (node) { node.parentNode.removeChild(node); });
    if (!expiries.length) return;
    // The question's key as the server shows it (rules/questions.py): seen, so answered.
    hidden("seen", expiries.map(function (x) { return x.key; }).filter(function (k, i, all) {
      return all.indexOf(k) === i;
    }).join(" "));
    var box = el("fieldset", "money-moment");
    box.appendChild(el("legend", "", "Expired this " + word));
    expiries.forEach(function (x) {
      var name = "expiry-" + x.seat;
      var chosen = typed[name] === "drop" ? "drop" : "rebuy";
      var item = el("div", "expiry");
      var ask = el("p");
      ask.appendChild(el("strong", "", x.name + " reached " + x.reached + "."));
      ask.appendChild(document.createTextNode(" Re-buy" + (x.price ? " for " + x.price : "") +
        " (back to " + x.reset + ") or drop out?"));
      item.appendChild(ask);
      [["rebuy", "Re-buy" + (x.price ? " " + x.price : "") + ", back to " + x.reset],
        ["drop", "Drop out"]].forEach(function (choice) {
        var label = el("label", "choice");
        var radio = el("input");
        radio.type = "radio";
        radio.name = name;
        radio.value = choice[0];
        radio.checked = chosen === choice[0];
        label.appendChild(radio);
        label.appendChild(document.createTextNode(" " + choice[1]));
        item.appendChild(label);
      });
      box.appendChild(item);
    });
    var rows = roundForm.querySelector("fieldset.entry");
    rows.parentNode.insertBefore(box, rows);
  }

  // On the first waiting round's own form: what became of it, and Discard.
  function aboutHead(round, behind) {
    var note = el("div", "flash queue-note " + (round.stopped ? "flash-error" : "flash-warning"));
    note.setAttribute("role", round.stopped ? "alert" : "status");
    var typed = Word + " " + round.number + ", typed on this phone at " + clock(round.typed_at);
    note.appendChild(el("p", "", round.stopped ? typed + ", was not saved: " + round.stopped.reason
      : typed + ", is not saved yet."));
    note.appendChild(el("p", "", "Fix it and save it, or discard it" + (behind
      ? "; " + plural(behind, "more " + word) + " typed after it " + (behind === 1 ? "waits" : "wait") +
        " until then." : ".")));
    var discard = el("button", "", "Discard " + word + " " + round.number);
    discard.type = "button";
    discard.addEventListener("click", function () {
      if (!window.confirm("Discard " + word + " " + round.number + " as typed? It will not be saved.")) return;
      var version = roundForm.querySelector("input[name=version]").value;
      shared.ask({ op: "discard", game: game, id: round.id, version: version }).then(function () {
        location.assign(sheetUrl);
      });
    });
    note.appendChild(discard);
    roundForm.parentNode.insertBefore(note, roundForm);
  }

  shared.show = function (rounds) {
    if (roundForm) showOnForm(rounds);
    else showOnSheet(rounds);
  };
})();
