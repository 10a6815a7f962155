// The round form's script (templates/games/round.html; static/js/app.js runs on every
// page): the card counter, live sums (with Texas multipliers), who went out moving on to
// the first hand and the number pad's Next to the next one. The form works without it.
(function () {
  "use strict";
  // What it says, in the page's language (static/js/words.js; web/script_words_round.py).
  var words = window.scorekeeperWords;

  // A hand field is read the way the server reads it (scorekeeper/rules/hands.py,
  // parse_hand_field and parse_hand_text), by the grammar the server renders into the form
  // (data-grammar: its patterns, limits, card codes and this round's card values), so no
  // rule of what a hand is lives here. While the visible text still shows exactly the
  // cards tapped on the counter (kept in a hidden field), the hand is those cards: a tapped
  // 7 is the seven. Otherwise the typed text counts: a lone number or a sum is points
  // ("7", "10+7"), words are cards ("K 7 JK"). Anything this script cannot be sure the
  // server reads the same way (not "plain") shows no sum at all, never a different one.
  function grammarOf(form) {
    var table = JSON.parse(form.getAttribute("data-grammar") || "{}");
    return {
      plain: new RegExp("^(?:" + table.plain + ")$"),
      points: new RegExp("^(?:" + table.points + ")$"),
      separators: new RegExp(table.separators),
      maxPoints: table.maxPoints,
      maxCards: table.maxCards,
      values: table.values || {},
      wildRank: typeof table.wildRank === "number" ? table.wildRank : null,
      cap: typeof table.cap === "number" ? table.cap : null
    };
  }

  function tokens(text, rules) {
    return (text || "").toUpperCase().split(rules.separators).filter(Boolean);
  }

  function sameCards(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function readHand(text, tapped, rules) {
    if (!rules.plain.test(text) || !rules.plain.test(tapped)) return null;
    var cards = tokens(tapped, rules);
    var typed = tokens(text, rules);
    if (!(cards.length && sameCards(cards, typed))) {
      var raw = text.trim();
      if (!raw) return null;
      if (rules.points.test(raw)) {
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
    var rules = grammarOf(form);
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
        // A capped game (Pool: the full count) shows what the hand scores: "= 95 → 80".
        var capped = rules.cap !== null && v > rules.cap ? " → " + rules.cap : "";
        out.textContent = multiplier > 1 ? v + " → " + v * multiplier : "= " + v + capped;
      }
      shows.push(show);
      // The cards counted so far: the tapped ones, or cards typed by hand ("K 7").
      function counted() {
        var hand = readHand(input.value, tapped.value, rules);
        return hand && hand.cards ? hand.cards : [];
      }
      // Points typed by hand ("12", "12+3"), not the tapped cards: a tap adds to them.
      function typedPoints() {
        var cards = tokens(tapped.value, rules);
        if (cards.length && sameCards(cards, tokens(input.value, rules))) return null;
        var raw = input.value.trim();
        return rules.points.test(raw) ? raw : null;
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
          if (cut > 0) setPoints(points.slice(0, cut).trimEnd());
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
    // The deal's wild rank (Pool) counts as the grammar says (0) once picked: the pad's
    // keys and every sum follow the select.
    var base = {};
    Object.keys(rules.values).forEach(function (code) { base[code] = rules.values[code]; });
    var wildRank = form.querySelector("select[data-wild-rank]");
    function applyWildRank() {
      var rank = wildRank ? wildRank.value : "";
      Object.keys(base).forEach(function (code) {
        rules.values[code] = code === rank && rules.wildRank !== null ? rules.wildRank : base[code];
      });
      form.querySelectorAll("[data-card]").forEach(function (btn) {
        var code = btn.getAttribute("data-card");
        var small = btn.querySelector("small");
        if (small) small.textContent = rules.values[code];
        btn.setAttribute("aria-label", words.t("card_points", { code: code, points: rules.values[code] }));
      });
      shows.forEach(function (f) { f(); });
    }
    if (wildRank) {
      wildRank.addEventListener("change", applyWildRank);
      applyWildRank();
    }
    // Fields the browser restores on "back" change no event: read them again.
    window.addEventListener("pageshow", function () {
      if (wildRank) applyWildRank();
      shows.forEach(function (f) { f(); });
    });

    // The player who went out has no hand: their row is marked, their field disabled (so
    // it is not sent) and, in Dummy, their contract ticked (the server ticks it anyway).
    var rows = Array.prototype.slice.call(form.querySelectorAll("[data-hand]"));
    function handOf(row) { return row.querySelector("input.hand-input"); }
    function openHands() {
      return rows.map(handOf).filter(function (input) { return !input.disabled; });
    }
    // In Gin the knocker has a hand too (their deadwood): marked, the field kept.
    var outKeepsHand = form.hasAttribute("data-out-keeps-hand");
    function markOut() {
      var checked = form.querySelector("input[name=went_out]:checked");
      rows.forEach(function (row) {
        var input = handOf(row);
        var seat = input.name.slice(5);
        var isOut = !!checked && checked.value === seat;
        row.classList.toggle("is-out", isOut);
        input.disabled = isOut && !outKeepsHand;
        row.querySelector("input[data-cards]").disabled = isOut && !outKeepsHand;
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
        if (done) done.textContent = words.t(last ? "pad_done" : "pad_next");
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

  // The optional flipped wild card (Vegas), read as the server reads it
  // (scorekeeper/rules/cards.py parse_flipped_card): a rank and a suit, or a joker. What
  // it cannot be is said at the field before Save, not after a round waited offline.
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUIT_SIGNS = { "\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S" };
  function flippedProblem(text) {
    var card = text.trim().toUpperCase().replace(/[\u2663\u2666\u2665\u2660]/g, function (s) {
      return SUIT_SIGNS[s];
    });
    if (!card || card === "JK" || card === "JOKER") return null;
    if (/[CDHS]$/.test(card) && RANKS.indexOf(card.slice(0, -1)) >= 0) return null;
    if (RANKS.indexOf(card) >= 0) {
      return words.t("add_suit", { rank: card });
    }
    return words.t("flipped_card");
  }

  function setupFlippedCard(form) {
    var input = form.querySelector("input[name=wild]");
    if (!input) return;
    var field = input.closest(".field");
    function say(problem) {
      var shown = field.querySelector(".error");
      if (!problem) {
        if (shown) shown.parentNode.removeChild(shown);
        field.classList.remove("has-error");
        input.removeAttribute("aria-invalid");
        input.setAttribute("aria-describedby", "wild-hint");
        return;
      }
      if (!shown) {
        shown = document.createElement("p");
        shown.className = "error";
        shown.id = "wild-error";
        field.appendChild(shown);
      }
      shown.textContent = problem;
      field.classList.add("has-error");
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "wild-hint wild-error");
    }
    input.addEventListener("change", function () { say(flippedProblem(input.value)); });
    input.addEventListener("input", function () {
      if (!flippedProblem(input.value)) say(null);
    });
    // Before every other submit listener (the offline queue's among them): not sent.
    form.addEventListener("submit", function (e) {
      var problem = flippedProblem(input.value);
      if (!problem) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      say(problem);
      input.focus();
    }, true);
  }

  document.querySelectorAll("form.round-form").forEach(setupFlippedCard);
  document.querySelectorAll("form.round-form").forEach(setupRoundForm);
})();
