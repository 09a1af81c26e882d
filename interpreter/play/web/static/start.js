// The start page: choose a game, what is laid over it, who sits where, and open a table.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let games = [];
  let about = null;  // the game as described with what is chosen

  function chosenExpansions() {
    return [...document.querySelectorAll("#expansions input:checked")].map(i => i.value);
  }

  async function describe() {
    const g = $("game").value;
    const q = new URLSearchParams({ expansions: chosenExpansions().join(","), lang: R.lang });
    if ($("scenario").value) q.set("scenario", $("scenario").value);
    if ($("solo").value) {
      const solo = games.find(x => x.name === g).solo[0];
      q.set("expansions", [...chosenExpansions(), solo.id].join(","));
    }
    $("problem").replaceChildren();
    let got;
    try {
      got = await R.api("GET", `/api/games/${encodeURIComponent(g)}?${q}`);
    } catch (err) {
      R.showError($("problem"), err);
      return;
    }
    if ($("game").value !== g) return;  // another game was chosen meanwhile: its answer draws the form
    about = got;
    const before = Number($("players").value) || about.min_players;
    const counts = about.player_counts.length ? about.player_counts : range(about.min_players, about.max_players);
    const keep = counts.includes(before) ? before : counts[0];
    $("players").replaceChildren(...counts.map(n => R.el("option", { value: n, text: String(n), selected: n === keep })));
    drawSeats();
    $("options-box").hidden = !about.options.length;
    $("options").replaceChildren(...about.options.filter(o => !isSoloOption(o)).map(optionInput));
    $("new-table").dataset.ready = g;  // the form is drawn for this game (tests wait for it)
  }

  function isSoloOption(o) {
    return about.solo.some(s => s.option === o.name) && $("solo").value;
  }

  function range(a, b) { const out = []; for (let i = a; i <= b; i++) out.push(i); return out; }

  function optionInput(o) {
    let input;
    if (o.values) {
      // each value as the game's words say it in the page's language (the value itself is sent)
      input = R.el("select", { dataset: { option: o.name } }, o.values.map((v, i) =>
        R.el("option", { value: String(v), text: String((o.labels || [])[i] ?? v), selected: v === o.default })));
    } else if (o.type === "boolean") {
      input = R.el("input", { type: "checkbox", checked: !!o.default, dataset: { option: o.name, kind: "boolean" } });
    } else {
      input = R.el("input", { type: o.type === "number" ? "number" : "text", value: String(o.default ?? ""),
        dataset: { option: o.name } });
    }
    return R.el("label", {}, (o.title || o.name.replace(/_/g, " ")) + " ", input);
  }

  function drawSeats() {
    const n = Number($("players").value);
    const bots = about.bots;
    $("seats").replaceChildren(...range(1, n).map(i => {
      const auto = about.automata && about.automata[String(i)];
      if (auto) return R.el("p", {}, R.t("seat_rules", i, auto),
        R.el("input", { type: "hidden", dataset: { seat: String(i) }, value: "greedy" }));
      return R.el("label", {}, R.t("seat_label", i), R.el("select", { dataset: { seat: String(i) } },
        // each bot as the server says it in the page's language (« glouton »)
        ["person", ...bots].map((b, k) => R.el("option", { value: b,
          text: b === "person" ? R.t("a_person") : R.t("bot_named", (about.bot_labels || [])[k - 1] || b),
          selected: (i === 1) === (b === "person") && (i === 1 || b === "greedy") }))));
    }));
  }

  async function start(ev) {
    ev.preventDefault();
    const options = {};
    for (const input of document.querySelectorAll("#options [data-option]")) {
      options[input.dataset.option] = input.dataset.kind === "boolean" ? input.checked : input.value;
    }
    const asked = {
      game: $("game").value, expansions: chosenExpansions(), scenario: $("scenario").value || null,
      solo: $("solo").value || null, players: Number($("players").value), options,
      seats: [...document.querySelectorAll("#seats [data-seat]")].map(s => s.value), lang: R.lang,
    };
    if ($("seed").value !== "") asked.seed = Number($("seed").value);
    asked.house = { listed: $("listed").checked, undo: $("undo").checked ? "agreed" : null };
    if ($("clock").value !== "") {
      asked.house.clock = Number($("clock").value);
      if ($("clock-bot").value) asked.house.clock_bot = $("clock-bot").value;
    }
    try {
      const made = await R.api("POST", "/api/tables", asked);
      $("made").hidden = false;
      const people = made.seats.filter(s => s.key);
      // a listed table: the maker sits at the first person's seat, the others come from the lobby
      const mine = made.house.listed && people.length ? people[0] : null;
      $("made-links").replaceChildren(
        mine ? R.el("li", {}, R.el("a", { id: "open-table", href: mine.link, text: R.t("sit_at", mine.seat + 1) }),
          R.t("others_in_lobby")) :
          R.el("li", {}, R.el("a", { id: "open-table", href: made.link, text: R.t("open_here") }),
            people.length > 1 ? R.t("plays_every") : ""),
        mine ? R.el("li", {}, R.t("maker_link"),
          R.el("a", { href: made.link, text: new URL(made.link, window.location.href).href })) : null,
        ...(mine ? [] : people.map(s => R.el("li", {}, R.t("own_link", s.seat + 1),
          R.el("a", { href: s.link, text: s.link })))),
        R.el("li", {}, R.t("watch_nobody"),
          R.el("a", { href: made.watch.nobody, text: made.watch.nobody })));
      lobby();
    } catch (err) {
      R.showError($("problem"), err);
    }
  }

  async function listGames() {  // the games offered, their scenarios titled in the page's language
    let got;
    try {
      got = await R.api("GET", `/api/games?lang=${R.lang}`);
    } catch (err) {
      R.showError($("problem"), err);
      return false;
    }
    const chosen = $("game").value;  // the game chosen, even while the list was asked for
    games = got.games.filter(g => !g.error);
    $("game").replaceChildren(...games.map(g => R.el("option", { value: g.name, text: g.title,
      selected: g.name === chosen })));
    return true;
  }

  async function chooseGame(scenario) {  // scenario: the one to keep chosen (the language changed)
    const g = games.find(x => x.name === $("game").value);
    $("expansions-box").hidden = !g.expansions.length;
    $("expansions").replaceChildren(...g.expansions.map(x => R.el("label", {},
      R.el("input", { type: "checkbox", value: x.id, onchange: describe }), " " + x.title)));
    $("scenario-box").hidden = !g.scenarios.length;
    $("scenario").replaceChildren(R.el("option", { value: "", text: R.t("none") }),
      ...g.scenarios.map(s => R.el("option", { value: s.id, text: s.title, selected: s.id === scenario })));
    $("solo-box").hidden = !g.solo.length;
    $("solo").replaceChildren(R.el("option", { value: "", text: R.t("solo_no") }),
      ...(g.solo[0] ? g.solo[0].levels : []).map((l, i) =>
        R.el("option", { value: l, text: (g.solo[0].level_labels || [])[i] || l })));
    await describe();
  }

  async function lobby() {
    try {
      const data = await R.api("GET", `/api/tables?lang=${R.lang}`);  // told in the page's language
      $("lobby").replaceChildren(...(data.tables.length ? data.tables.map(t => R.el("li", { dataset: { table: t.id } },
        R.el("strong", { text: t.title }), R.t("lobby_line", t.players, t.decisions, ago(t.age)) +
          (t.to_play_name ? R.t("to_play", t.to_play_name) : ""),
        ...t.seats.map(s => s.free ?
          R.el("button", { type: "button", class: "take", dataset: { seat: String(s.seat + 1) },
            text: R.t("take_seat", s.name), onclick: () => take(t.id, s.seat + 1) }) :
          R.el("span", { class: "muted", text: R.t("lobby_seat", s.name, s.who === "person" ? (s.connected ? R.t("person_here") : R.t("person_away")) : R.t("bot_who", s.who_said || s.who)) })),
        " ", R.el("a", { href: t.watch, text: R.t("watch") }))) :
        [R.el("li", { class: "muted", text: R.t("no_table") })]));
    } catch (err) {
      R.showError($("lobby"), err);
    }
  }

  function ago(seconds) {
    return seconds < 90 ? R.t("ago_s", seconds) : seconds < 5400 ? R.t("ago_min", Math.round(seconds / 60)) :
      R.t("ago_h", Math.round(seconds / 3600));
  }

  async function take(tid, seat) {
    try {
      const got = await R.api("POST", `/api/tables/${encodeURIComponent(tid)}/seats/${seat}`, {});
      window.location.href = got.link;
    } catch (err) {
      R.showError($("lobby"), err);
      lobby();
    }
  }

  async function replays() {
    try {
      const data = await R.api("GET", "/api/replays");
      $("replays").replaceChildren(...data.replays.map(r => R.el("li", r.stale ? { class: "stale", title: r.stale } : {},
        // a trace this server cannot replay (its rules changed since) is named, not linked
        r.stale ? R.el("span", { text: r.name }) :
          R.el("a", { href: `/replay/${encodeURIComponent(r.name)}?lang=${R.lang}`, text: r.name }),
        r.error ? R.t("unreadable", r.error) : R.t("replay_line", r.game, r.players, r.events) +
          (r.stale ? R.t("not_replayable") :
            r.result && r.result.winners ? R.t("won_by_players", r.result.winners.join(R.t("and_player"))) : ""))));
    } catch (err) {
      R.showError($("replays"), err);
    }
  }

  async function upload() {
    const file = $("upload").files[0];
    if (!file) return;
    try {
      const made = await R.api("POST", "/api/replays", await file.text());
      window.location.href = made.link;
    } catch (err) {
      R.showError($("replays"), err);
    }
  }

  async function chooseLang() {
    R.setLang($("lang").value);
    try { window.localStorage.setItem("regles-lang", R.lang); } catch (err) { /* private browsing: not kept */ }
    if (games.length) {  // the scenarios' titles in the language chosen
      const g = $("game").value, scenario = $("scenario").value;
      if (!(await listGames())) return;
      await chooseGame($("game").value === g ? scenario : "");
    }
    replays();
    lobby();
  }

  async function init() {
    R.setLang(R.firstLang());
    $("lang").value = R.lang;
    $("lang").addEventListener("change", chooseLang);
    if (!(await listGames())) return;
    $("game").addEventListener("change", () => chooseGame());
    $("scenario").addEventListener("change", describe);
    $("solo").addEventListener("change", describe);
    $("players").addEventListener("change", drawSeats);
    $("new-table").addEventListener("submit", start);
    $("upload").addEventListener("change", upload);
    await chooseGame();
    replays();
    lobby();
    setInterval(lobby, 10000);
  }

  init();
})();
