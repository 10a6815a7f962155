// Scorekeeper's only script. Every page works without it; it makes the table quicker:
// the card counter, live sums (with Texas multipliers), undo that fades, confirmations,
// and keeping the screen awake while a game is open.
(function () {
  "use strict";

  function handValue(text, values) {
    var raw = (text || "").trim();
    if (!raw) return null;
    if (/^\d+(\s*\+\s*\d+)*$/.test(raw)) {
      return raw.split("+").reduce(function (a, b) { return a + parseInt(b, 10); }, 0);
    }
    var total = 0;
    var cards = raw.toUpperCase().split(/[\s,]+/).filter(Boolean);
    for (var i = 0; i < cards.length; i++) {
      if (!(cards[i] in values)) return null;
      total += values[cards[i]];
    }
    return total;
  }

  function setupRoundForm(form) {
    var values = JSON.parse(form.getAttribute("data-values") || "{}");
    var multiplier = parseInt(form.getAttribute("data-multiplier") || "1", 10);
    form.querySelectorAll("[data-hand]").forEach(function (box) {
      var input = box.querySelector("input[inputmode=tel]");
      var out = box.querySelector("output.sum");
      function show() {
        var v = handValue(input.value, values);
        if (v === null) { out.textContent = ""; return; }
        out.textContent = multiplier > 1 ? v + " → " + v * multiplier : "= " + v;
      }
      input.addEventListener("input", show);
      box.querySelectorAll("[data-card]").forEach(function (btn) {
        btn.addEventListener("click", function () {
          var current = input.value.trim();
          // A number typed before is replaced by the cards being counted.
          if (/^\d+(\s*\+\s*\d+)*$/.test(current)) current = "";
          input.value = (current ? current + " " : "") + btn.getAttribute("data-card");
          show();
        });
      });
      var clear = box.querySelector("[data-clear]");
      if (clear) clear.addEventListener("click", function () { input.value = ""; show(); input.focus(); });
      show();
    });
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
      });
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
