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
      const view = await R.api("GET", `/api/replays/${encodeURIComponent(name)}/at/${k}` + (seat ? `?seat=${seat}` : ""));
      if (ticket !== asking) return;  // a later event was asked for meanwhile
      R.drawTable($("table"), view, { marks: ev.changes });
    } catch (err) {
      if (ticket === asking) R.showError($("table"), err);
    }
  }

  function drawEvent(ev) {
    const parts = [R.el("h2", {}, `Event ${ev.n}: `, R.el("span", { class: "event-text", text: ev.text || ev.type }))];
    if (ev.at) {
      parts.push(R.el("p", { class: "cause" }, "Caused by ", R.el("code", { class: "at", text: ev.at }),
        ev.line ? [": ", R.el("code", { class: "line", text: ev.line })] : ""));
    } else {
      parts.push(R.el("p", { class: "cause muted", text: "No content line recorded for this event." }));
    }
    const what = ev.changed || [];
    if (what.length) parts.push(R.el("p", { class: "muted", text: "Changed: " + what.join("; ") + " (marked on the table)." }));
    const ask = R.el("button", { type: "button", id: "why-bot", text: "What did the bot weigh here?" });
    const answer = R.el("div", { id: "why-bot-answer", "aria-live": "polite" });
    ask.onclick = () => whyBot(ev.n, answer);
    parts.push(R.el("p", {}, ask), answer);
    $("event").replaceChildren(...parts);
  }

  // What a bot weighs at the decision this event answers (or the next one): each option with
  // its value, the bot's pick (*) and the option the game took (>); asked of the server, which
  // asks the trace's bot of that seat again (greedy when it was a person or a random bot).
  async function whyBot(k, where) {
    where.replaceChildren(R.el("p", { class: "muted", text: "weighing…" }));
    try {
      const w = await R.api("GET", `/api/replays/${encodeURIComponent(name)}/why-bot/${k}`);
      const rows = w.rows.map(r => R.el("tr", { class: r.picked ? "picked" : "" },
        R.el("td", { text: (r.picked ? "*" : "") + (r.taken ? ">" : "") }),
        R.el("td", { text: r.label }), R.el("td", { text: r.value })));
      where.replaceChildren(
        R.el("p", { text: `${w.asked}. ${w.agent}` + (w.traced ? ` (the trace's bot of player ${w.seat}: ${w.traced})` : "") +
          ` weighs ${w.how}:` }),
        R.el("table", { class: "weighed" }, R.el("thead", {}, R.el("tr", {},
          R.el("th", { text: "" }), R.el("th", { text: "option" }), R.el("th", { text: "value" }))), R.el("tbody", {}, ...rows)),
        R.el("p", { class: "muted", text: "* the option the bot picks; > the option taken. " + w.notes.join(" ") }));
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
      const made = await R.api("POST", `/api/replays/${encodeURIComponent(name)}/fork`, { event: current, seats });
      window.location.href = made.link;
    } catch (err) {
      R.showError($("fork-problem"), err);
    }
  }

  async function init() {
    try {
      summary = await R.api("GET", `/api/replays/${encodeURIComponent(name)}`);
    } catch (err) {
      R.showError($("table"), err);
      return;
    }
    document.title = `Replay: ${summary.title}`;
    $("title").textContent = `Replay: ${summary.title}`;
    const result = summary.result || {};
    $("status").textContent = `${summary.players} players, seed ${summary.seed}, ${summary.events.length} events` +
      (result.winners ? `; won by player ${result.winners.join(" and player ")}` : "") +
      (summary.divergence ? `. Warning: ${summary.divergence}` : "");
    $("slider").max = String(summary.events.length - 1);
    $("seen-by").replaceChildren(R.el("option", { value: "", text: "everyone (all shown)" }),
      ...Array.from({ length: summary.players }, (_, i) => R.el("option", { value: String(i + 1), text: `player ${i + 1}` })));
    // a decision taken back at the table is shown where the game took up again
    const undoneAt = (k) => (summary.undos || []).filter(u => u.at_event === k).map(u => R.el("li", { class: "undone" },
      `↶ Player ${u.by} took back decision ${u.to}` + (u.undone.length > 1 ? ` and the ${u.undone.length - 1} after it` : "") +
      (u.agreed.length === 1 && u.agreed[0] === u.by ? " (no other person to ask)" : `, agreed by player ${u.agreed.join(" and player ")}`) +
      (u.undone.length ? `: ${u.undone.map(x => `player ${x.player}, ${x.label}`).join("; ")}` : "")));
    $("events").replaceChildren(...summary.events.map(ev => [undoneAt(ev.n), R.el("li", { id: `ev-${ev.n}`, class: `ev-${ev.type}` },
      R.el("a", { href: `#event-${ev.n}`, text: String(ev.n) }), " ", ev.text || ev.type,
      ev.at ? R.el("span", { class: "at muted", text: " " + ev.at }) : "")]).flat(2), ...undoneAt(summary.events.length));
    $("fork-seats").replaceChildren(...Array.from({ length: summary.players }, (_, i) => R.el("label", {},
      `Player ${i + 1} `, R.el("select", {}, ["greedy", "random", "mcts:100", "person"].map(b =>
        R.el("option", { value: b, text: b === "person" ? "a person" : `bot: ${b}` }))))));
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
