// The page's words in the reader's language, for the scripts of static/js/. The server
// draws the page's table into it (scorekeeper/web/script_words.py, templates/base.html:
// <script type="application/json" id="i18n">); scripts ask
//   scorekeeperWords.t("key", { name: "Ann" })          a sentence, %(name)s filled
//   scorekeeperWords.n("key", 3, { word: "round" })     a sentence that counts (%(count)s)
// A sentence that counts comes in the form of each plural category of the page's
// language; the browser's Intl.PluralRules picks the one for the number.
(function () {
  "use strict";

  var table = { lang: document.documentElement.lang || "en", said: {}, counted: {} };
  var holder = document.getElementById("i18n");
  if (holder) {
    try { table = JSON.parse(holder.textContent); } catch (e) { /* the keys show instead */ }
  }
  var rules = window.Intl && Intl.PluralRules ? new Intl.PluralRules(table.lang) : null;

  function fill(text, params) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : all;
    });
  }

  window.scorekeeperWords = {
    lang: table.lang,
    t: function (key, params) {
      return fill(table.said[key] || key, params);
    },
    n: function (key, count, params) {
      var forms = table.counted[key] || {};
      var category = rules ? rules.select(count) : (count === 1 ? "one" : "other");
      var all = { count: count };
      Object.keys(params || {}).forEach(function (name) { all[name] = params[name]; });
      return fill(forms[category] || forms.other || key, all);
    }
  };
})();
