// The replay page: a saved trace stepped through, backwards and forwards, one event at a time.
//
// The address names the event shown (/replay/NAME#event-123), so a rules lawyer can link to
// one. For each event the page shows the table as it stood once the event was recorded, what
// the event changed (marked on the table) and its cause: the content file and line, with the
// line's text.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const name = decodeURIComponent(window.location.pathname.split("/").pop());
  let summary = null;
  let current = -1;
  let asking = 0;
  const lang = () => `lang=${encodeURIComponent(R.lang)}`;  // what the server tells, in the page's language

  function fromHash() {
    const m = /^#event-(\d+)$/.exec(window.location.hash);
    return m ? Number(m[1]) : null;
  }

  async function go(k, push) {
    if (!summary) return;
    const last = summary.events.length - 1;
    k = Math.max(0, Math.min(last, k));
    current = k;
    $("slider").value = String(k);
    if (push !== false && window.location.hash !== `#event-${k}`) history.replaceState(null, "", `#event-${k}`);
    for (const li of document.querySelectorAll("#events li.current")) li.classList.remove("current");
    const li = document.getElementById(`ev-${k}`);
    if (li) {  // the list scrolls to it, not the page
      li.classList.add("current");
      const list = $("events");
      list.scrollTop = li.offsetTop - list.clientHeight / 2;  // (the list is the offset parent)
    }
    const ev = summary.events[k];
    drawEvent(ev);
    const ticket = ++asking;
    const seat = $("seen-by").value;
    try {
      const view = await R.api("GET", `/api/replays/${encodeURIComponent(name)}/at/${k}?${lang()}` + (seat ? `&seat=${seat}` : ""));
      if (ticket !== asking) return;  // a later event was asked for meanwhile
      R.drawTable($("table"), view, { marks: ev.changes });
    } catch (err) {
      if (ticket === asking) R.showError($("table"), err);
    }
  }

  function drawEvent(ev) {
    const parts = [R.el("h2", {}, R.t("event_n", ev.n), R.el("span", { class: "event-text", text: ev.text || ev.type }))];
    if (ev.at) {
      parts.push(R.el("p", { class: "cause" }, R.t("caused_by"), R.el("code", { class: "at", text: ev.at }),
        ev.line ? [": ", R.el("code", { class: "line", text: ev.line })] : ""));
    } else {
      parts.push(R.el("p", { class: "cause muted", text: R.t("no_line") }));
    }
    const what = ev.changed || [];
    if (what.length) parts.push(R.el("p", { class: "muted", text: R.t("changed", what.join("; ")) }));
    const ask = R.el("button", { type: "button", id: "why-bot", text: R.t("why_bot") });
    const answer = R.el("div", { id: "why-bot-answer", "aria-live": "polite" });
    ask.onclick = () => whyBot(ev.n, answer);
    parts.push(R.el("p", {}, ask), answer);
    // why not? a move that was not offered at the decision this event answers (or the next)
    const move = R.el("input", { id: "why-move", maxlength: "200", autocomplete: "off", required: true });
    const told = R.el("div", { id: "why-answer", "aria-live": "polite" });
    const form = R.el("form", { id: "why-form", class: "why-replay" },
      R.el("label", { for: "why-move", text: R.t("why_replay_label") }), move,
      R.el("button", { type: "submit", text: R.t("ask") }));
    form.onsubmit = (event) => { event.preventDefault(); whyNot(ev.n, move.value.trim(), told); };
    parts.push(form, told);
    $("event").replaceChildren(...parts);
  }

  async function whyNot(k, move, where) {
    if (!move) return;
    const seat = $("seen-by").value;
    try {
      const q = new URLSearchParams({ move, lang: R.lang });
      if (seat) q.set("seat", seat);
      const a = await R.api("GET", `/api/replays/${encodeURIComponent(name)}/why/${k}?${q}`);
      where.replaceChildren(...R.whyAnswer(a));
    } catch (err) {
      R.showError(where, err);
    }
  }

  // What a bot weighs at the decision this event answers (or the next one): each option with
  // its value, the bot's pick (*) and the option the game took (>); asked of the server, which
  // asks the trace's bot of that seat again (greedy when it was a person or a random bot).
  async function whyBot(k, where) {
    where.replaceChildren(R.el("p", { class: "muted", text: R.t("weighing") }));
    try {
      const w = await R.api("GET", `/api/replays/${encodeURIComponent(name)}/why-bot/${k}?${lang()}`);
      const rows = w.rows.map(r => R.el("tr", { class: r.picked ? "picked" : "" },
        R.el("td", { text: (r.picked ? "*" : "") + (r.taken ? ">" : "") }),
        R.el("td", { text: r.label }), R.el("td", { text: r.value })));
      where.replaceChildren(
        R.el("p", { text: R.t("bot_weighs", w.asked, w.agent, w.traced ? R.t("traced_bot", w.seat, w.traced) : "", w.how) }),
        R.el("table", { class: "weighed" }, R.el("thead", {}, R.el("tr", {},
          R.el("th", { text: "" }), R.el("th", { text: R.t("option") }), R.el("th", { text: R.t("value") }))), R.el("tbody", {}, ...rows)),
        R.el("p", { class: "muted", text: R.t("weighed_legend") + w.notes.join(" ") }));
    } catch (err) {
      R.showError(where, err);
    }
  }

  function stepStart(k, dir) {
    const steps = summary.steps;
    if (dir > 0) { const s = steps.find(x => x > k); return s === undefined ? summary.events.length - 1 : s; }
    const earlier = steps.filter(x => x < k);
    return earlier.length ? earlier[earlier.length - 1] : 0;
  }

  async function fork() {
    const seats = [...document.querySelectorAll("#fork-seats select")].map(s => s.value);
    try {
      const made = await R.api("POST", `/api/replays/${encodeURIComponent(name)}/fork`, { event: current, seats, lang: R.lang });
      window.location.href = made.link;
    } catch (err) {
      R.showError($("fork-problem"), err);
    }
  }

  async function init() {
    R.setLang(R.firstLang());
    try {
      summary = await R.api("GET", `/api/replays/${encodeURIComponent(name)}?${lang()}`);
    } catch (err) {
      R.showError($("table"), err);
      return;
    }
    document.title = R.t("replay_of", summary.title);
    $("title").textContent = R.t("replay_of", summary.title);
    const result = summary.result || {};
    $("status").textContent = R.t("replay_status", summary.players, summary.seed, summary.events.length) +
      (result.winners ? R.t("replay_won", result.winners.join(R.t("and_player"))) : "") +
      (summary.divergence ? R.t("warning", summary.divergence) : "");
    $("slider").max = String(summary.events.length - 1);
    $("seen-by").replaceChildren(R.el("option", { value: "", text: R.t("everyone") }),
      ...Array.from({ length: summary.players }, (_, i) => R.el("option", { value: String(i + 1), text: R.t("player_n", i + 1) })));
    // a decision taken back at the table is shown where the game took up again
    const undoneAt = (k) => (summary.undos || []).filter(u => u.at_event === k).map(u => R.el("li", { class: "undone" },
      R.t("took_back", u.by, u.to) + (u.undone.length > 1 ? R.t("and_after", u.undone.length - 1) : "") +
      (u.agreed.length === 1 && u.agreed[0] === u.by ? R.t("no_one_to_ask") : R.t("agreed_by", u.agreed.join(R.t("and_player")))) +
      (u.undone.length ? `: ${u.undone.map(x => R.t("undone_item", x.player, x.label)).join("; ")}` : "")));
    $("events").replaceChildren(...summary.events.map(ev => [undoneAt(ev.n), R.el("li", { id: `ev-${ev.n}`, class: `ev-${ev.type}` },
      R.el("a", { href: `#event-${ev.n}`, text: String(ev.n) }), " ", ev.text || ev.type,
      ev.at ? R.el("span", { class: "at muted", text: " " + ev.at }) : "")]).flat(2), ...undoneAt(summary.events.length));
    $("fork-seats").replaceChildren(...Array.from({ length: summary.players }, (_, i) => R.el("label", {},
      R.t("seat_label", i + 1), R.el("select", {}, ["greedy", "random", "mcts:100", "person"].map(b =>
        R.el("option", { value: b, text: b === "person" ? R.t("a_person") : R.t("bot_named", b) }))))));
    $("first").onclick = () => go(0);
    $("last").onclick = () => go(summary.events.length - 1);
    $("back").onclick = () => go(current - 1);
    $("forward").onclick = () => go(current + 1);
    $("back-step").onclick = () => go(stepStart(current, -1));
    $("forward-step").onclick = () => go(stepStart(current, 1));
    $("slider").oninput = () => go(Number($("slider").value));
    $("seen-by").onchange = () => go(current);
    $("fork").onclick = fork;
    window.addEventListener("hashchange", () => { const k = fromHash(); if (k !== null && k !== current) go(k, false); });
    document.addEventListener("keydown", (ev) => {
      if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
      const keys = { ArrowLeft: () => go(current - 1), ArrowRight: () => go(current + 1), Home: () => go(0),
        End: () => go(summary.events.length - 1), PageUp: () => go(stepStart(current, -1)),
        PageDown: () => go(stepStart(current, 1)) };
      if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
    });
    const k = fromHash();
    go(k === null ? 0 : k, k !== null);
  }

  init();
})();
