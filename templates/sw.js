{# Scorekeeper's service worker (served as /sw.js by scorekeeper/web/offline.py).
   
   Copies: the app's own files (the shell), and the last copy of each sheet, round form,
   night and home page the keeper opened, in a cache named by the account the page says
   it belongs to (<meta name="sk-account">): one account's pages at a time, dropped when a
   page says another account or nobody. Offline, a kept page opens with a banner saying
   how old it is.
   
   Rounds: a new round posted with no network (or no answer in time) is kept in IndexedDB
   with its one-time submission id and the game's version it was planned on, and the
   sheet opens. While a game has rounds waiting, a new one waits behind them. They are
   sent in order (Background Sync, the page's "online" and every page load), asking for
   JSON: a stored round (or one stored before, whose answer was lost) gives the version
   the next one goes on top of; a refused one stops its game's queue until the keeper
   fixes it (its form, refilled by static/js/offline.js) or discards it.

   The comments here are Jinja's: the script a phone downloads carries none. #}
"use strict";

const VERSION = {{ version|tojson }};
const SHELL = {{ shell|tojson }};
const STYLESHEET = {{ stylesheet|tojson }};
const HOME = {{ home|tojson }};
{# What the worker says itself, in the language of the keeper it was fetched for (the
   phone's keeper: a change of language changes these bytes, so the phone takes the new
   worker at its next check). {name} is a parameter: fill(). #}
const LANG = {{ html_lang()|tojson }};
const WORDS = {
  noConnection: {{ _("No connection")|tojson }},
  neverOpened: {{ _("This page was not opened on this phone while there was a network, so there is no copy of it here.")|tojson }},
  onThisPhone: {{ _("On this phone")|tojson }},
  asOf: {{ _("(as of %(time)s)", time="{time}")|tojson }},
  nothingSent: {{ _("Nothing was sent. Go back with your browser's Back button: what you typed is still in the form. Send it again when the network is back.")|tojson }},
  showingSheet: {{ _("Offline: showing the sheet as of %(time)s.", time="{time}")|tojson }},
  showingRound: {{ _("Offline: showing the round form as of %(time)s.", time="{time}")|tojson }},
  showingNight: {{ _("Offline: showing the night as of %(time)s.", time="{time}")|tojson }},
  showingNights: {{ _("Offline: showing your nights as of %(time)s.", time="{time}")|tojson }},
  changedElsewhere: {{ _("Round %(number)s was saved, and the game was then changed on another phone: this round was typed before that change. Check the sheet, then save it as the next round or discard it.", number="{number}")|tojson }},
  gameGone: {{ _("This game is not among yours any more (deleted?), so the round cannot be saved. Discard it.")|tojson }},
  notSaved: {{ _("The server could not save this round (%(status)s).", status="{status}")|tojson }},
};
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
const SHELL_CACHE = "shell-" + VERSION;
const PAGES = "pages-"; {# + the account's key #}
const SCOPE = new URL(self.registration.scope).pathname;
const KEPT = /^(|nights\/\d+|games\/\d+|games\/\d+\/rounds\/new)$/; {# below SCOPE #}
const SHEET = /^games\/(\d+)$/;
const ROUND = /^games\/(\d+)\/rounds\/new$/;
const PAGE_WAIT_MS = 6000; {# then a kept copy, if there is one #}
const SAVE_WAIT_MS = 10000; {# then the round waits on the phone #}
const SEND_WAIT_MS = 15000;
const MAX_PAGES = 40;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((names) => Promise.all(
      names.filter((n) => n.startsWith("shell-") && n !== SHELL_CACHE).map((n) => caches.delete(n))
    )).then(() => self.clients.claim())
  );
});

{# ------------------------------------------------------------------ IndexedDB --- #}
function database() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("scorekeeper", 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore("rounds", { keyPath: "id" });
      open.result.createObjectStore("meta");
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

{# Run fn(store) in one transaction; resolve with what its last request gave. #}
async function idb(name, mode, fn) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(name, mode);
    const request = fn(tx.objectStore(name));
    tx.oncomplete = () => { db.close(); resolve(request ? request.result : undefined); };
    tx.onerror = tx.onabort = () => { db.close(); reject(tx.error); };
  });
}

const getMeta = (key) => idb("meta", "readonly", (s) => s.get(key));
const setMeta = (key, value) => idb("meta", "readwrite", (s) => s.put(value, key));
const putRound = (entry) => idb("rounds", "readwrite", (s) => s.put(entry));
const dropRound = (id) => idb("rounds", "readwrite", (s) => s.delete(id));

{# The rounds waiting for the account, oldest first. #}
async function waiting(account) {
  const all = (await idb("rounds", "readonly", (s) => s.getAll())) || [];
  return all.filter((e) => e.account === account).sort((a, b) => a.seq - b.seq);
}

{# ---------------------------------------------------------------- whose pages ---
   A page fresh from the server said whose it is: keep only that account's copies. #}
async function setAccount(key) {
  if ((await getMeta("account")) !== key) await setMeta("account", key);
  const names = await caches.keys();
  await Promise.all(
    names.filter((n) => n.startsWith(PAGES) && n !== PAGES + key).map((n) => caches.delete(n))
  );
}

async function keptPages() {
  const account = await getMeta("account");
  if (!account || !(await caches.has(PAGES + account))) return null;
  return caches.open(PAGES + account);
}

function below(url) {
  const u = new URL(url);
  if (u.origin !== self.location.origin || !u.pathname.startsWith(SCOPE)) return null;
  return u.pathname.slice(SCOPE.length);
}

const address = (path) => self.location.origin + SCOPE + path;
const first = (text, pattern) => { const m = pattern.exec(text); return m ? m[1] : null; };
{# What a kept copy carries of the page's own headers (its security policy among them). #}
const KEPT_HEADERS = ["Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"];

{# The kept pages being written: Cache.put removes the old copy when it starts writing the
   new one, so a page read meanwhile waits for the write (and no form is fetched twice). #}
const writing = new Map();
const prefetching = new Map();

async function keep(cache, url, response) {
  const done = cache.put(url, response);
  writing.set(url, done);
  try {
    await done;
  } finally {
    if (writing.get(url) === done) writing.delete(url);
  }
}

{# Look at a page the server sent: whose is it, and keep it if it is one to keep. #}
async function remember(path, response) {
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || !type.startsWith("text/html")) return;
  const html = await response.text();
  const account = first(html, /<meta name="sk-account" content="([^"]*)"/);
  if (account === null) return; {# not a keeper's page (the players' live view) #}
  await setAccount(account);
  if (!account || !KEPT.test(path)) return;
  const cache = await caches.open(PAGES + account);
  const headers = { "Content-Type": "text/html; charset=utf-8", "X-Kept-At": String(Date.now()) };
  for (const name of KEPT_HEADERS) if (response.headers.has(name)) headers[name] = response.headers.get(name);
  await keep(cache, address(path), new Response(html, { headers }));
  const sheet = SHEET.exec(path);
  if (sheet) await keepRoundForm(cache, html, sheet[1]);
  await trim(cache);
}

{# The sheet of a running game links to its round form: keep that form too, as of the
   same version, so that a round can be entered offline from the sheet. #}
function keepRoundForm(cache, sheet, game) {
  const version = first(sheet, /\/rounds\/new" data-version="(\d+)"/);
  const url = address("games/" + game + "/rounds/new");
  if (!version) return null;
  if (!prefetching.has(url)) { {# set before any await: callers at the same time share it #}
    prefetching.set(url, (async () => {
      const kept = await cache.match(url);
      if (kept && first(await kept.text(), /name="version" value="(\d+)"/) === version) return;
      const form = await fetch(url, { credentials: "same-origin", redirect: "manual" });
      if (form.status === 200) await remember(below(url), form);
    })().finally(() => prefetching.delete(url)));
  }
  return prefetching.get(url);
}

async function trim(cache) {
  const keys = await cache.keys();
  if (keys.length <= MAX_PAGES) return;
  const dated = await Promise.all(keys.map(async (k) => {
    const r = await cache.match(k);
    return [Number(r.headers.get("X-Kept-At")), k];
  }));
  dated.sort((a, b) => a[0] - b[0]);
  await Promise.all(dated.slice(0, keys.length - MAX_PAGES).map(([, k]) => cache.delete(k)));
}

{# ------------------------------------------------------------------- answers --- #}
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => "&#" + c.charCodeAt(0) + ";");

function when(ms) {
  const at = new Date(ms);
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (at.toDateString() === new Date().toDateString()) return time;
  return at.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" }) + " " + time;
}

function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

{# A kept page, marked as such: a banner with its age; a round form gets new submission ids,
   as the server gives each form it draws, so each round typed on it is a round of its own. #}
async function fromCache(path) {
  for (const busy of [prefetching, writing]) {
    const pending = busy.get(address(path));
    if (pending) await withTimeout(pending, PAGE_WAIT_MS).catch(() => {});
  }
  const cache = await keptPages();
  const kept = cache && (await cache.match(address(path)));
  if (!kept) return null;
  const at = Number(kept.headers.get("X-Kept-At"));
  const showing = SHEET.test(path) ? WORDS.showingSheet : ROUND.test(path) ? WORDS.showingRound
    : path ? WORDS.showingNight : WORDS.showingNights;
  let html = await kept.text();
  if (ROUND.test(path)) {
    html = html.replace(/name="submission" value="[^"]*"/g, () => 'name="submission" value="' + newId() + '"');
  }
  html = html.replace("<body ", '<body data-offline="' + at + '" ').replace('<main id="main">',
    '<main id="main"><p class="flash flash-offline" role="status">' +
    escape(fill(showing, { time: when(at) })) + "</p>");
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  for (const name of KEPT_HEADERS) if (kept.headers.has(name)) headers[name] = kept.headers.get(name);
  return new Response(html, { headers });
}

function plainPage(title, body, status) {
  const html = '<!doctype html><html lang="' + escape(LANG) + '"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="color-scheme" content="light dark"><title>' + title + " · Scorekeeper</title>" +
    '<link rel="stylesheet" href="' + escape(STYLESHEET) + '"></head><body>' +
    '<header class="top"><a class="brand" href="' + escape(HOME) + '">♠ Scorekeeper</a></header>' +
    '<main id="main"><h1>' + title + "</h1>" + body + "</main></body></html>";
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

{# Offline, a page never kept: say so, and list the pages this phone has. #}
async function offlinePage() {
  const cache = await keptPages();
  const items = [];
  for (const request of cache ? await cache.keys() : []) {
    const response = await cache.match(request);
    const title = first(await response.text(), /<title>([^<]*)<\/title>/) || request.url;
    const at = Number(response.headers.get("X-Kept-At"));
    items.push([at, '<li><a href="' + escape(request.url) + '">' + title.replace(/ · Scorekeeper$/, "") +
      "</a> <span class=\"muted\">" + escape(fill(WORDS.asOf, { time: when(at) })) + "</span></li>"]);
  }
  items.sort((a, b) => b[0] - a[0]);
  const list = items.length ? "<h2>" + escape(WORDS.onThisPhone) + "</h2><ul>" + items.map((i) => i[1]).join("") + "</ul>" : "";
  return plainPage(escape(WORDS.noConnection), "<p>" + escape(WORDS.neverOpened) + "</p>" + list, 503);
}

const noConnection = () => plainPage(escape(WORDS.noConnection), "<p>" + escape(WORDS.nothingSent) + "</p>", 503);

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

{# ------------------------------------------------------------------ requests --- #}
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const path = below(request.url);
  if (path === null) return;
  if (request.mode === "navigate" && request.method === "GET") {
    event.respondWith(page(event, path));
  } else if (request.mode === "navigate" && request.method === "POST") {
    event.respondWith(post(event, path));
  } else if (request.method === "GET" && SHELL.includes(new URL(request.url).pathname)) {
    event.respondWith(caches.match(request, { cacheName: SHELL_CACHE }).then((hit) => hit || fetch(request)));
  }
});

async function page(event, path) {
  const network = fetch(event.request);
  try {
    const response = await withTimeout(network, PAGE_WAIT_MS);
    if (response.status >= 502 && response.status <= 504) throw new Error("gateway");
    event.waitUntil(remember(path, response.clone()));
    return response;
  } catch (error) {
    const kept = KEPT.test(path) ? await fromCache(path) : null;
    if (kept) return kept;
    if (error.message === "timeout") return network.catch(() => offlinePage());
    return offlinePage();
  }
}

{# A form sent. A new round waits on the phone when the network fails (or is too slow),
   and behind the rounds of its game already waiting; every other form goes as it is. #}
async function post(event, path) {
  const round = ROUND.exec(path);
  if (!round) return fetch(event.request).catch(() => noConnection());
  const game = Number(round[1]);
  const copy = event.request.clone();
  const fields = Array.from(await copy.formData()).filter(([, v]) => typeof v === "string");
  const typed = new Map(fields);
  const id = typed.get("submission") || "";
  const account = await getMeta("account");
  const queue = (await waiting(account)).filter((e) => e.game === game);
  const head = queue[0];
  {# The first waiting round's own form (refilled after a refusal, or the server's
     "re-buy or drop out?" about it): the keeper is saving that very round, now. #}
  const fixing = head && head.id === id;
  const sheet = Response.redirect(address("games/" + game), 303);
  if (queue.length && !fixing) {
    if (!queue.some((e) => e.id === id)) await putRound(entry(fields, account, game, queue[queue.length - 1]));
    event.waitUntil(kick());
    return sheet;
  }
  const after = typed.get("queued_after"); {# typed behind rounds that were sent meanwhile #}
  if (after && account) {
    const behind = entry(fields, account, game, null);
    const stored = (await getMeta("stored")) || {};
    if (typeof stored[after] === "number") behind.planned_on = stored[after];
    await putRound(behind);
    event.waitUntil(kick());
    return sheet;
  }
  if (fixing) { {# it goes as typed now, against the game as the form showed it #}
    await putRound({ ...head, fields, planned_on: Number(typed.get("version")), stopped: null });
  }
  try {
    const response = await withTimeout(fetch(event.request), SAVE_WAIT_MS);
    if (response.status >= 502 && response.status <= 504) throw new Error("gateway");
    if (fixing) event.waitUntil(flush());
    return response;
  } catch (error) {
    if (!fixing && account) await putRound(entry(fields, account, game, null));
    if (!account) return noConnection();
    event.waitUntil(kick());
    return sheet;
  }
}

function entry(fields, account, game, before) {
  const typed = new Map(fields);
  const now = Date.now();
  return {
    id: typed.get("submission") || newId(),
    seq: before ? Math.max(now, before.seq + 1) : now,
    account,
    game,
    fields,
    {# What the round was planned on; a round behind another goes on top of the version
       that one's save gives. #}
    planned_on: Number(typed.get("version")),
    number: before ? before.number + 1 : Number(typed.get("round_number")),
    typed_at: now,
    stopped: null,
  };
}

{# ------------------------------------------------------------------- sending --- #}
async function kick() {
  try { await self.registration.sync.register("send-rounds"); } catch (e) { /* no Background Sync */ }
  await flush().catch(() => {});
}

self.addEventListener("sync", (event) => {
  if (event.tag === "send-rounds") event.waitUntil(flush());
});

{# When a round of each game was last stored from the queue: a sheet asked for before
   then may not show it (the "sent" news went to the page before it), and reloads. #}
const sentAt = new Map();

{# One sender at a time; asked again while sending, it goes round once more, also when
   this round failed (its requests may have left before the network came back). #}
let sending = null;
let again = false;
function flush() {
  if (sending) { again = true; return sending; }
  sending = (async () => {
    try {
      for (;;) {
        again = false;
        try {
          await sendAll();
        } catch (error) {
          if (!again) throw error;
        }
        if (!again) return;
      }
    } finally {
      sending = null;
    }
  })();
  return sending;
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage(message);
}

async function sendAll() {
  const account = await getMeta("account");
  if (!account) return;
  const saved = new Set();
  try {
    for (;;) {
      const queue = await waiting(account);
      const heads = new Map();
      for (const e of queue) if (!heads.has(e.game)) heads.set(e.game, e);
      const head = Array.from(heads.values()).find((e) => !e.stopped);
      if (!head) return;
      const answer = await send(head);
      if (answer.wait) throw new Error(answer.wait); {# offline, or logged out: later #}
      if (answer.saved) {
        saved.add(head.game);
        sentAt.set(head.game, Date.now());
        await keepVersion(head.id, answer.version);
        await dropRound(head.id);
        await nextGoesOn(queue, head, answer.version);
      } else {
        await putRound({ ...head, stopped: { reason: answer.reason, errors: answer.errors || {},
        asked: answer.asked || [], at: Date.now() } });
      }
      await tell({ op: "queue", game: head.game });
    }
  } finally {
    if (saved.size) await tell({ op: "sent", games: Array.from(saved) });
  }
}

{# What each stored round left the game at: a form typed behind it goes on top of that. #}
async function keepVersion(id, version) {
  const stored = (await getMeta("stored")) || {};
  stored[id] = typeof version === "number" ? version : null;
  const ids = Object.keys(stored);
  for (const old of ids.slice(0, Math.max(0, ids.length - 50))) delete stored[old];
  await setMeta("stored", stored);
}

{# The round behind a stored one goes on top of the version that save gave; if another
   change came in between (no version), the keeper looks at it first. #}
async function nextGoesOn(queue, head, version) {
  const next = queue.find((e) => e.game === head.game && e.id !== head.id);
  if (!next) return;
  if (version !== null && version !== undefined) {
    await putRound({ ...next, planned_on: version });
  } else {
    await putRound({ ...next, stopped: { reason: fill(WORDS.changedElsewhere, { number: head.number }),
      errors: {}, at: Date.now() } });
  }
}

async function send(head, token) {
  const body = new URLSearchParams();
  for (const [name, value] of head.fields) {
    if (name === "version") body.append(name, String(head.planned_on));
    else if (name === "csrf_token" && token) body.append(name, token);
    else body.append(name, value);
  }
  let response;
  try {
    response = await withTimeout(fetch(address("games/" + head.game + "/rounds/new"), {
      method: "POST", body, credentials: "same-origin", redirect: "manual",
      headers: { Accept: "application/json" },
    }), SEND_WAIT_MS);
  } catch (error) {
    return { wait: "offline" };
  }
  if (response.type === "opaqueredirect" || response.status === 401) return { wait: "logged out" };
  if (response.status >= 502 && response.status <= 504) return { wait: "server away" };
  let json = {};
  try { json = await response.json(); } catch (error) { /* an error page: said below */ }
  if (response.status === 200 && json.saved !== undefined) {
    return { saved: true, version: json.version };
  }
  if (response.status === 400 && !token) { {# a form from another login: a new CSRF token #}
    const fresh = await freshToken(head.game);
    if (fresh.token) return send(head, fresh.token);
    if (fresh.wait) return fresh; {# nobody logged in (or no network): it waits #}
  }
  if (response.status === 404) {
    return { reason: WORDS.gameGone };
  }
  return { reason: json.refused || json.error || fill(WORDS.notSaved, { status: response.status }),
    errors: json.errors, asked: json.asked };
}

{# The session's CSRF token, from the game's sheet (a redirect: nobody is logged in). #}
async function freshToken(game) {
  let form;
  try {
    form = await fetch(address("games/" + game), { credentials: "same-origin", redirect: "manual" });
  } catch (error) {
    return { wait: "offline" };
  }
  if (form.type === "opaqueredirect" || form.status === 401) return { wait: "logged out" };
  return { token: form.status === 200 ? first(await form.text(), /name="csrf_token" value="([^"]+)"/) : null };
}

{# ------------------------------------------------------- what the pages ask --- #}
self.addEventListener("message", (event) => {
  const port = event.ports[0];
  event.waitUntil(answer(event.data || {}, event).then(
    (value) => port && port.postMessage(value),
    (error) => port && port.postMessage({ error: String(error) })
  ));
});

async function answer(msg, event) {
  const current = await getMeta("account");
  if (current === undefined && msg.account) await setAccount(msg.account); {# first page, before this worker #}
  const account = await getMeta("account");
  if (!msg.account || msg.account !== account) return { rounds: [] }; {# a page of another login #}
  if (msg.op === "hello") {
    const path = below(msg.url || "");
    if (!msg.controlled && path !== null && KEPT.test(path)) { {# opened before this worker ran #}
      event.waitUntil(fetch(address(path), { credentials: "same-origin" }).then((r) => remember(path, r)).catch(() => {}));
    }
    event.waitUntil(flush().catch(() => {}));
    return {};
  }
  if (msg.op === "flush") { event.waitUntil(flush().catch(() => {})); return {}; }
  if (msg.op === "list") {
    const rounds = (await waiting(account)).filter((e) => e.game === msg.game);
    return { rounds, sent_at: sentAt.get(msg.game) || 0 };
  }
  if (msg.op === "discard") {
    const queue = (await waiting(account)).filter((e) => e.game === msg.game);
    const gone = queue.find((e) => e.id === msg.id);
    if (!gone) return {};
    await dropRound(gone.id);
    {# The round behind it now goes on top of the game as the keeper sees it now. #}
    const next = queue.find((e) => e.id !== gone.id);
    if (next && queue[0] === gone) await putRound({ ...next, planned_on: Number(msg.version) });
    event.waitUntil(flush().catch(() => {}));
    return {};
  }
  if (msg.op === "all") return { rounds: await waiting(account) };
  if (msg.op === "logout") {
    for (const e of await waiting(account)) await dropRound(e.id);
    await setAccount("");
  }
  return {};
}
