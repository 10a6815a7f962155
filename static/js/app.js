// Scorekeeper's only script. Every page works without it; it makes the table quicker:
// the card counter, live sums (with Texas multipliers), undo that fades, confirmations,
// and keeping the screen awake while a game is open.
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
      var input = box.querySelector("input[inputmode=tel]");
      var tapped = box.querySelector("input[data-cards]");
      var out = box.querySelector("output.sum");
      function show() {
        var hand = input.disabled ? null : readHand(input.value, tapped.value, rules);
        if (hand === null) { out.textContent = ""; return; }
        var v = hand.points;
        out.textContent = multiplier > 1 ? v + " → " + v * multiplier : "= " + v;
      }
      shows.push(show);
      // The cards counted so far: the tapped ones, or cards typed by hand ("K 7");
      // typed points are not cards, so a tap replaces them.
      function counted() {
        var hand = readHand(input.value, tapped.value, rules);
        return hand && hand.cards ? hand.cards : [];
      }
      function setCards(cards) {
        tapped.value = cards.join(" ");
        input.value = tapped.value;
        show();
      }
      // Typing by hand wins over the counter: the text is read as typed.
      input.addEventListener("input", function () { tapped.value = ""; show(); });
      box.querySelectorAll("[data-card]").forEach(function (btn) {
        btn.addEventListener("click", function () {
          var cards = counted();
          if (cards.length >= rules.maxCards) return;
          setCards(cards.concat([btn.getAttribute("data-card")]));
        });
      });
      var back = box.querySelector("[data-undo-card]");
      if (back) back.addEventListener("click", function () {
        var cards = counted();
        if (cards.length) setCards(cards.slice(0, -1));
      });
      var clear = box.querySelector("[data-clear]");
      if (clear) clear.addEventListener("click", function () { setCards([]); });
      var counter = box.querySelector("details.counter");
      if (counter) counter.hidden = false;
      show();
    });
    // Fields the browser restores on "back" change no event: read them again.
    window.addEventListener("pageshow", function () { shows.forEach(function (f) { f(); }); });
    // The player who went out has no hand: dim their field.
    var radios = form.querySelectorAll("input[name=went_out]");
    function markOut() {
      form.querySelectorAll("[data-hand]").forEach(function (box) {
        var input = box.querySelector("input[inputmode=tel]");
        var seat = input.name.slice(5);
        var checked = form.querySelector("input[name=went_out]:checked");
        var isOut = checked && checked.value === seat;
        box.classList.toggle("went-out-hand", !!isOut);
        input.disabled = !!isOut;
        box.querySelector("input[data-cards]").disabled = !!isOut;
      });
      shows.forEach(function (f) { f(); });
    }
    radios.forEach(function (r) { r.addEventListener("change", markOut); });
    markOut();
    form.addEventListener("submit", function () {
      form.querySelectorAll("input:disabled").forEach(function (i) { i.disabled = false; i.value = ""; });
      var button = form.querySelector("button[type=submit]");
      if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    });
  }

  function setup() {
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
    var undo = document.querySelector("[data-undo]");
    if (undo) setTimeout(function () { undo.hidden = true; }, 8000);
    if (document.body.classList.contains("sheet-page") && navigator.wakeLock) {
      var lock = function () { navigator.wakeLock.request("screen").catch(function () {}); };
      lock();
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") lock();
      });
    }
    var saved = document.querySelector(".just-saved");
    if (saved && saved.scrollIntoView) saved.scrollIntoView({ block: "nearest" });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
