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
    document.title = `${v.title}: ${v.seats[seat].name}`;
    $("title").textContent = v.title;
    $("status").textContent = v.fault ? `Stopped: ${v.fault}` : `You are ${v.seats[seat].name}` +
      (v.opens.length > 1 ? ` (this screen plays ${v.opens.map(s => v.seats[s].name).join(", ")})` : "");
    R.drawTable($("table"), v, { choose: mine(v) ? choose : null });
    R.drawDecision($("decision"), v, mine(v) ? choose : null, v.opens);
    R.drawLog($("log"), log, v.log_mark);
    if (v.over) {
      $("decision").append(R.el("p", {}, R.el("a", { href: `/replay/${encodeURIComponent(tid)}`, text: "Replay this game" })));
    }
    if (v.links) showLinks(v.links);
    return true;
  }

  function showLinks(links) {
    $("links").hidden = false;
    $("link-list").replaceChildren(...links.map(l => R.el("li", {}, `${l.name}: `,
      R.el("a", { href: l.link, text: new URL(l.link, window.location.href).href }))));
  }

  function mine(v) {
    return v.decision && v.decision.options && v.decision.player === v.seat && v.opens.includes(v.seat);
  }

  async function choose(index) {
    if (busy) return;
    busy = true;
    try {
      const v = await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/act`,
        { key, seat: seat + 1, option: index, version });
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
    $("cover-text").textContent = `${v.seats[d.player].name}'s turn. Pass the screen, then show the table.`;
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
        if (v.seat === seat && (v.version < version || (v.version === version && !v.log.length))) continue;  // nothing newer
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
