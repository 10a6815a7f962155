// The rounds waiting on the phone (kept by the service worker, templates/sw.js), drawn by
// app.js's call to show() when the game has some: on the sheet as pending rows with the
// hands as typed, and totals marked as the saved rounds' only; on a round form typed
// behind them, its number after theirs; a round the server refused back in its form, with
// the reason, to fix and save or to discard.
(function () {
  "use strict";

  var shared = window.scorekeeper;
  var game = shared.game;
  // Every sentence in the reader's language (static/js/words.js; the table of this
  // script's sentences is OFFLINE in scorekeeper/web/script_words.py).
  var say = window.scorekeeperWords;
  var roundForm = /\/rounds\/new$/.test(location.pathname)
    ? document.querySelector("form.round-form") : null;
  var sheetUrl = location.pathname.replace(/\/rounds\/new$/, "");
  var SKIP = /^(csrf_token|version|submission|round_number|seen|queued_after)$/;
  // What the game calls a round ("deal" in Contract and Rummy), and the banners of the
  // rounds after the next one (web/games/ahead.py), drawn into the page by the server:
  // the sheet's banner and the round form give its forms in the page's language
  // (web/games/words.py); a page without them, the words for a round.
  var holder = document.querySelector("[data-round-word]");
  function given(name) { return holder && holder.getAttribute(name); }
  var word = given("data-round-word") || say.t("word_one");
  var Word = given("data-round-head") || say.t("word_head");
  var words = given("data-round-words") || say.t("word_many");
  function said(key, params) {
    var all = { word: word, Word: Word, words: words };
    Object.keys(params || {}).forEach(function (name) { all[name] = params[name]; });
    return say.t(key, all);
  }
  function counted(key, count, params) {
    var all = { word: word, Word: Word, words: words };
    Object.keys(params || {}).forEach(function (name) { all[name] = params[name]; });
    return say.n(key, count, all);
  }
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
      head.appendChild(el("small", "sub", said(round.stopped ? "row_not_saved" : "row_pending")));
      row.appendChild(head);
      seats.forEach(function (seat) {
        var cell = el("td", "num");
        if (typed.went_out === seat) {
          cell.className += " out-cell";
          // Gin: the knocker's deadwood is sent too (other games send no hand for them).
          cell.textContent = said("cell_out") + (typed["hand-" + seat] ? " " + typed["hand-" + seat] : "");
        } else if (("hand-" + seat) in typed) {
          cell.textContent = typed["hand-" + seat] || "–";
        }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    var total = table.querySelector("tr.totals th");
    if (total) total.appendChild(el("small", "sub saved-only", said("saved_only")));
    var first = rounds[0];
    var note;
    if (first.stopped) {
      note = el("div", "flash flash-error pending-note");
      note.setAttribute("role", "alert");
      note.appendChild(el("p", "", said("stopped", { number: first.number, reason: first.stopped.reason })));
      var fix = el("a", "", said("fix_or_discard", { number: first.number }));
      fix.href = location.pathname + "/rounds/new";
      var behind = rounds.length - 1;
      var more = behind ? " " + counted("more_behind", behind) : "";
      var line = el("p");
      line.appendChild(fix);
      line.appendChild(document.createTextNode(more));
      note.appendChild(line);
    } else {
      var next = rounds[rounds.length - 1].number + 1;
      note = el("p", "flash flash-warning pending-note", counted("waiting_sheet", rounds.length) + " " +
        said(aheadOf(next) ? "totals_saved_banner" : "totals_saved", { number: next }));
      showBanner(next);
      note.setAttribute("role", "status");
    }
    var wrap = table.closest(".grid-wrap");
    wrap.parentNode.insertBefore(note, wrap);
    var enter = document.querySelector('.bottom-bar a[href$="/rounds/new"]');
    if (enter) {
      enter.textContent = first.stopped ? said("fix_button", { number: first.number })
        : said("enter_button", { number: rounds[rounds.length - 1].number + 1 });
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
      deals.replaceChildren(el("span", "badge", said("deals", { name: next.dealer })),
        document.createTextNode(said("then_starts", { name: next.starts })));
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
      if (!said && deals) name.appendChild(el("span", "visually-hidden", " " + say.t("deals_next")));
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
    if (heading) heading.textContent = said("heading", { number: number });
    var next = aheadOf(number);
    var line = document.querySelector("p.banner-main");
    if (next && line) {
      line.textContent = next.banner.slice(1).concat([said("deals_starts",
        { dealer: next.dealer, starter: next.starts })]).join(" · ");
    }
    // The button that saves the form's round ("Save round 4", in the page's language;
    // not "Confirm and save" or "Save correction", which name no round) names this one.
    var save = roundForm.querySelector("button[type=submit]");
    var shown = roundForm.querySelector("input[name=round_number]");
    var naming = shown && /^\d+$/.test(shown.value) && new RegExp("(^|\\D)" + shown.value + "(?!\\d)");
    if (save && naming && naming.test(save.textContent)) {
      save.textContent = said("save_button", { number: number });
    }
    hidden("round_number", String(number));
    hidden("queued_after", last.id);
    roundForm.classList.add("behind-queue");
    var note = el("p", "flash flash-warning queue-note", counted("waiting_form", rounds.length) + " " +
      counted(next ? "totals_before" : "totals_before_dealer", rounds.length));
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
    box.appendChild(el("legend", "", said("expired_legend")));
    expiries.forEach(function (x) {
      var name = "expiry-" + x.seat;
      var chosen = typed[name] === "drop" ? "drop" : "rebuy";
      var item = el("div", "expiry");
      var ask = el("p");
      ask.appendChild(el("strong", "", said("reached", { name: x.name, points: x.reached })));
      ask.appendChild(document.createTextNode(" " + (x.price
        ? said("rebuy_ask_price", { price: x.price, reset: x.reset })
        : said("rebuy_ask", { reset: x.reset }))));
      item.appendChild(ask);
      [["rebuy", x.price ? said("rebuy_price", { price: x.price, reset: x.reset })
        : said("rebuy", { reset: x.reset })],
        ["drop", said("drop_out")]].forEach(function (choice) {
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
    var typed = { number: round.number, time: clock(round.typed_at) };
    if (round.stopped) typed.reason = round.stopped.reason;
    note.appendChild(el("p", "", said(round.stopped ? "typed_stopped" : "typed_waiting", typed)));
    note.appendChild(el("p", "", behind ? counted("fix_it_behind", behind) : said("fix_it")));
    var discard = el("button", "", said("discard_button", { number: round.number }));
    discard.type = "button";
    discard.addEventListener("click", function () {
      if (!window.confirm(said("discard_confirm", { number: round.number }))) return;
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
