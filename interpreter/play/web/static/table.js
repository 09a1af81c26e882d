// The table page: one seat's view of a game in progress, asked again each time the table changes.
//
// The page's key (?key=...) opens one seat, or, for the table's maker, every person's seat
// (hot-seat play): then, when another person's turn comes, the table is covered until that
// person asks to see it, and their view is fetched only then.
"use strict";

(function () {
  const tid = window.location.pathname.split("/").pop();
  const key = R.param("key") || "";
  let seat = null;        // the seat shown (from 0), null until the server says
  let version = -1;
  let log = [];           // the seat's log as far as it was sent, from its first line
  let view = null;
  let busy = false;
  const $ = (id) => document.getElementById(id);
  let ticking = null;     // the turn clock's countdown, between two views

  async function fetchView(wait) {
    const q = new URLSearchParams({ key, since: String(log.length) });
    if (seat !== null) q.set("seat", String(seat + 1));
    if (wait) q.set("after", String(version));
    return R.api("GET", `/api/tables/${encodeURIComponent(tid)}?${q}`);
  }

  // the lines `v` sends, laid over those already had (a seat's log only grows: a view sent
  // from line k brings the lines from k on); false when they do not join (another seat's log,
  // or lines missing between): the log is then to be fetched whole
  function takeLog(v) {
    if (v.seat !== seat) clearLog();
    if (v.log_from > log.length) {
      clearLog();
      return false;
    }
    const merged = log.slice(0, v.log_from).concat(v.log);
    if (merged.length >= log.length) log = merged;  // (a view sent before the last one tells no less)
    return true;
  }

  function clearLog() {
    log = [];
    R.clearLog($("log"));
  }

  function show(v) {
    if (!takeLog(v)) return false;
    view = v;
    seat = v.seat;
    version = v.version;
    $("main").dataset.version = String(v.version);  // the table's version drawn (what tests wait for)
    const watching = v.watching !== undefined;
    if (v.lang && v.lang !== R.lang) R.setLang(v.lang);  // the language the table was made in
    document.title = `${v.title}: ${watching ? R.t("watching") : v.seats[seat].name}`;
    $("title").textContent = v.title;
    $("status").textContent = v.fault ? R.t("stopped", v.fault) : watching ? R.t("watching_as", v.watching) :
      R.t("you_are", v.seats[seat].name) +
      (v.opens.length > 1 ? R.t("this_screen", v.opens.map(s => v.seats[s].name).join(", ")) : "");
    // a keyboard in the decision bar (or nowhere: the bar was drawn again under it), or on a
    // card or space of the table that this drawing took away (it was just chosen), goes on at
    // the first option of the next decision, not back at the top of the page
    const focused = document.activeElement;
    const keyboardHere = !focused || focused === document.body || $("decision").contains(focused);
    R.drawTable($("table"), v, { choose: mine(v) ? choose : null });
    R.drawDecision($("decision"), v, mine(v) ? choose : null, v.opens);
    const drawnAway = focused && !focused.isConnected;
    if ((keyboardHere || drawnAway) && mine(v)) {
      const first = $("decision").querySelector("button.option:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
    R.drawLog($("log"), log, v.log_mark);
    if (v.over) {
      $("decision").append(R.el("p", {}, R.el("a", { href: `/replay/${encodeURIComponent(tid)}?lang=${R.lang}`, text: R.t("replay_game") })));
    }
    if (v.maker) showLinks(v.links || [], v.watch_links || []);
    drawTools(v);
    showWhy(v);
    return true;
  }

  // why not? a seat asks why a move is not offered now; the answer stays until the next
  // question, marked as older once the table has changed since
  let whyAt = null;  // the table's version the answer on screen was given at
  function showWhy(v) {
    $("why").hidden = v.watching !== undefined || v.seat === null;
    $("why-answer").classList.toggle("stale", whyAt !== null && whyAt !== v.version);
    $("why-form").onsubmit = (event) => { event.preventDefault(); askWhy(); };
    // what may be asked about, offered as the player types: the options asked now, and the
    // cards the page shows (the moves of a card: "use CARD")
    const moves = new Set((mine(v) ? v.decision.options : []).map(o => o.label));
    for (const title of [...shownTitles(v)].sort()) moves.add(title);
    const list = [...moves];
    if (list.join("\n") !== $("why-moves").dataset.moves) {
      $("why-moves").dataset.moves = list.join("\n");
      $("why-moves").replaceChildren(...list.map(m => R.el("option", { value: m })));
    }
  }

  // the titles of the components a view shows, wherever they lie (a zone, a board's space)
  function shownTitles(v) {
    const titles = new Set();
    const todo = [v.seats, v.centre, v.aside, v.boards];
    while (todo.length) {
      const x = todo.pop();
      if (Array.isArray(x)) todo.push(...x);
      else if (x && typeof x === "object") {
        if (typeof x.title === "string" && x.card !== undefined) titles.add(x.title);
        todo.push(...Object.values(x));
      }
    }
    return titles;
  }

  async function askWhy() {
    const move = $("why-move").value.trim();
    if (!move || seat === null) return;
    try {
      const a = await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/why`, { key, seat: seat + 1, move });
      whyAt = a.version;
      $("why-answer").replaceChildren(...R.whyAnswer(a), R.el("p", { class: "muted why-older", text: R.t("why_older") }));
      $("why-answer").classList.remove("stale");
    } catch (err) {
      R.showError($("why-answer"), err);
    }
  }

  function showLinks(links, watch) {
    $("links").hidden = false;
    const item = (name, link) => R.el("li", {}, `${name}: `,
      R.el("a", { href: link, text: new URL(link, window.location.href).href }));
    $("link-list").replaceChildren(...links.map(l => item(l.name, l.link)));
    $("watch-list").replaceChildren(...watch.map(l => item(R.t("as_watcher", l.as), l.link)));
    $("close-table").onclick = closeTable;
  }

  async function closeTable() {
    if (!window.confirm(R.t("close_confirm"))) return;
    try {
      const done = await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/close`, { key });
      window.location.href = `${done.replay}?lang=${R.lang}`;
    } catch (err) {
      R.showError($("tools"), err);
    }
  }

  // the turn clock, who watches, and taking back decisions (house rules of the table)
  function drawTools(v) {
    const parts = [];
    if (ticking) { clearInterval(ticking); ticking = null; }
    if (v.clock) {
      const clock = R.el("span", { class: "clock", role: "timer" });
      const ends = Date.now() + v.clock.left * 1000;
      const tick = () => {
        const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
        clock.textContent = R.t("clock_left", v.seats[v.decision.player].name, left) +
          (left === 0 ? (v.clock.bot ? R.t("clock_bot", v.clock.bot) : R.t("time_up")) : "");
        clock.classList.toggle("late", left <= 10);
      };
      tick();
      ticking = setInterval(tick, 1000);
      parts.push(clock);
    }
    if (v.watchers) parts.push(R.el("span", { class: "muted", text: R.t("n_watching", v.watchers) }));
    if (v.undo) parts.push(undoBox(v));
    $("tools").replaceChildren(...parts);
  }

  function undoBox(v) {
    const u = v.undo;
    const box = R.el("div", { class: "undo-box" });
    if (u.asked) {
      const asker = v.seats[u.asked.by].name;
      box.append(R.t("undo_asked", asker, u.asked.to, u.asked.prompt) +
        (u.asked.waiting.length ? R.t("undo_waiting", u.asked.waiting.map(s => v.opens.includes(s) ? R.t("you_word") :
          v.seats[s].name).join(", ")) : "."));
      if (u.asked.mine_to_answer) {
        box.append(R.el("button", { type: "button", id: "undo-agree", text: R.t("agree"), onclick: () => answerUndo(true) }),
          R.el("button", { type: "button", id: "undo-refuse", text: R.t("refuse"), onclick: () => answerUndo(false) }));
      }
      return box;
    }
    const mine = u.kept.filter(k => v.opens.includes(k.seat));
    if (!u.kept.length) {
      box.append(R.el("span", { class: "muted", text: R.t("undo_none") }));
      return box;
    }
    const asking = mine.length ? mine[0].seat : v.seat;
    const pick = R.el("select", { id: "undo-to", "aria-label": R.t("undo_pick") }, u.kept.map(k =>
      R.el("option", { value: String(k.number), text: `${k.number}. ${v.seats[k.seat].name}: ${k.prompt}` })));
    box.append(R.el("button", { type: "button", id: "undo-last", text: R.t("undo_last"), disabled: !mine.length,
      onclick: () => askUndo(asking, null) }),
      R.el("label", {}, R.t("undo_before"), pick),
      R.el("button", { type: "button", id: "undo-to-button", text: R.t("ask"), onclick: () => askUndo(asking, Number(pick.value)) }));
    return box;
  }

  async function askUndo(asking, to) {
    try {
      const body = { key, seat: asking + 1 };
      if (to !== null) body.to = to;
      const v = await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/undo`, body);
      show(v) || show(await fetchView(false));
    } catch (err) {
      R.showError($("tools"), err);
    }
  }

  async function answerUndo(agree) {
    try {
      const answering = view.undo.asked.waiting.find(s => view.opens.includes(s));
      await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/undo/answer`, { key, seat: answering + 1, agree });
      show(await fetchView(false));
    } catch (err) {
      R.showError($("tools"), err);
    }
  }

  // who is at the table, as a view says: a page is drawn again when it changes
  function present(v) {
    return v ? JSON.stringify([v.watchers, v.seats.map(s => [s.connected, s.taken])]) : "";
  }

  function mine(v) {
    return v.decision && v.decision.options && v.decision.player === v.seat && v.opens.includes(v.seat);
  }

  async function choose(index) {
    if (busy) return;
    busy = true;
    try {
      const v = await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/act`,
        { key, seat: seat + 1, option: index, version, since: log.length });
      show(v) || show(await fetchView(false));
    } catch (err) {
      R.showError($("decision"), err);
    } finally {
      busy = false;
    }
  }

  // hot-seat: another person of this screen is to decide: cover the table until they ask
  function handOver(v) {
    const d = v.decision;
    if (!d || !v.opens.includes(d.player) || d.player === v.seat || v.opens.length < 2) return false;
    $("main").hidden = true;
    $("cover").hidden = false;
    const whose = v.seats[d.player].name;
    const told = R.t("turn_cover", whose);  // a sentence begins with a capital: "Player 1's turn"
    $("cover-text").textContent = told.charAt(0).toUpperCase() + told.slice(1);
    $("cover-button").onclick = async () => {
      seat = d.player;
      clearLog();
      $("cover").hidden = true;
      $("main").hidden = false;
      show(await fetchView(false));
    };
    return true;
  }

  async function loop() {
    let first = true;
    for (;;) {
      try {
        const v = await fetchView(!first);
        first = false;
        if (busy) continue;
        const same = v.version === version && !v.log.length && present(v) === present(view);
        if (v.seat === seat && (v.version < version || same)) continue;  // nothing newer
        if (handOver(v)) { version = v.version; await waitUncovered(); continue; }
        if (!show(v)) show(await fetchView(false));
      } catch (err) {
        R.showError($("decision"), err);
        if (err.status && err.status < 500 && err.status !== 409) return;  // a wrong key or table: asking again will not help
        await new Promise(r => setTimeout(r, 2000));
      }
    }
  }

  function waitUncovered() {
    return new Promise(resolve => {
      const check = () => ($("cover").hidden ? resolve() : setTimeout(check, 200));
      check();
    });
  }

  loop();
})();
