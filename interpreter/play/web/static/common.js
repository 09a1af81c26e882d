// What the pages of regles serve share: building elements, asking the server, drawing a table.
//
// Every text the server sends (titles, labels, prompts, ability texts, log lines) comes from
// content, which is untrusted: it is put into the page with text nodes and textContent only,
// never as markup. No function here assigns innerHTML.
"use strict";

const R = {};

// The words of the pages, by language: a table is told in the language it was made in (its
// view says which), the start page in the one chosen there. `R.t(key, ...values)` fills `{0}`,
// `{1}`...; an element with `data-t="key"` gets its text from `R.translate()`.
R.WORDS = {
  en: {
    point_card: "Point at a card to read it.", player_n: "player {0}", you_suffix: " (you)", owner: "Owner: {0}",
    is_tags: "is {0}", close_card: "close the card", here: "Here: {0}", face_down: "{0} face down", face_down_one: "1 face down", empty: "empty",
    empty_zones: "empty: {0}", at_nought: "at 0: {0}", in_supply: "left in supply:", set_aside: "Set aside", game_over: "Game over. ", won_by: "Won by {0}.", and: " and ",
    no_winner: "No winner.", scores: " Scores: {0}.", standing: " {0}: {1}.", waiting_for: "Waiting for {0}…",
    secretly: " (secretly)", prompt_of: "{0}: ", choose: "choose", since_last: "since your last decision",
    cancel: "cancel", whose_piece: "{0}, {1}'s", owner_tag: "P{0}", team_suffix: " (team)", connected: "● connected", away: "○ away",
    free_seat: "○ free seat", score: "score {0}", person: "person",
    // the table's page
    watching: "watching", stopped: "Stopped: {0}", watching_as: "Watching as {0}; you cannot act", you_are: "You are {0}",
    this_screen: " (this screen plays {0})", replay_game: "Replay this game", as_watcher: "as {0}",
    close_confirm: "Close this table for every player? Its game so far goes to the replays.",
    clock_left: "{0}: {1} s left to decide", clock_bot: " (the bot {0} decides)", time_up: " (time is up)",
    n_watching: "{0} watching", undo_asked: "{0} asks to take back decision {1} (“{2}”)", agree: "Agree", refuse: "Refuse",
    undo_none: "No decision to take back yet.", undo_last: "Take back my last decision", ask: "Ask",
    undo_before: " or go back to before ", undo_waiting: "; waiting for {0}.", you_word: "you",
    undo_pick: "the decision to go back to",
    why_summary: "Why can't I…?", why_label: "A move: an option, a card, or “use CARD”",
    why_older: "The table has changed since this answer: ask again.",
    why_replay_label: "Why not…? A move at this decision: ",
    turn_cover: "{0}'s turn. Pass the screen, then show the table.", title_table: "Table",
    show_my_table: "Show my table", what_happened: "What happened", links_summary: "Links for the other players' browsers",
    watch_links: "To watch without playing (nobody can act from these):",
    close_table: "Close the table (its game goes to the replays)",
    // the start page
    language: "Language of the table", new_table: "A new table", game: "Game", expansions: "Expansions",
    scenario: "Scenario", solo_level: "Solo mode, level", players: "Players", seats: "Seats", options: "Options",
    house_rules: "House rules", listed: "List it in the lobby, so that others may take its free seats",
    undo_house: "Players may take back a decision, when all the others agree", clock_per: "Clock per decision",
    seconds_when: "seconds; when it runs out", clock_shown: "it is only shown", clock_greedy: "the bot greedy decides",
    clock_random: "the bot random decides", seed: "Seed", open_table: "Open the table", ready: "The table is ready",
    ready_open: "Open it here, or send each person the link of their seat (same network, and",
    lobby_title: "Tables open to join", lobby_about: "Tables their makers listed, still in play. Take a free seat, or watch.",
    replays: "Replays", open_trace: "Open a saved trace", seat_rules: "Player {0}: {1} (played by its rules) ",
    seat_label: "Player {0} ", a_person: "a person", bot_named: "bot: {0}", sit_at: "Sit at Player {0}'s seat",
    others_in_lobby: " (the other seats are in the lobby)", open_here: "Open the table on this screen",
    plays_every: " (it plays every person's seat, in turn)",
    maker_link: "Your maker's link (keep it: it closes the table and gives every link): ",
    own_link: "Player {0}'s own link: ", watch_nobody: "To watch as nobody (what every player sees): ",
    none: "none", solo_no: "no: several players", lobby_line: " — {0} players, {1} decisions, made {2}; ", lobby_seat: "{0}: {1}. ",
    to_play: "{0} to play. ", take_seat: "Take {0}'s seat", person_here: "a person, connected",
    person_away: "a person, away", bot_who: "a bot ({0})", watch: "watch", no_table: "No table is open to join.",
    ago_s: "{0} s ago", ago_min: "{0} min ago", ago_h: "{0} h ago", unreadable: " (cannot be read: {0})",
    not_replayable: " — recorded under other rules (or content) than this server's: it cannot be replayed here",
    replay_line: " {0}, {1} players, {2} events", won_by_players: ", won by player {0}", and_player: " and player ",

    // the replay page
    replay: "Replay", replay_of: "Replay: {0}", replay_status: "{0} players, seed {1}, {2} events",
    replay_won: "; won by player {0}", warning: ". Warning: {0}", everyone: "everyone (all shown)",
    first: "First", last: "Last", back_step: "◀◀ decision", back: "◀ event", forward: "event ▶",
    forward_step: "decision ▶▶", seen_by: "Seen by", events: "Events", play_on: "Play on from here",
    play_on_about: "A new table starts at the decision this event answers (or the next one), with the game as it stood.",
    fork: "Open a table from this event", event_n: "Event {0}: ", caused_by: "Caused by ",
    no_line: "No content line recorded for this event.", changed: "Changed: {0} (marked on the table).",
    why_bot: "What did the bot weigh here?", weighing: "weighing…", bot_weighs: "{0}. {1}{2} weighs {3}:",
    traced_bot: " (the trace's bot of player {0}: {1})", option: "option", value: "value",
    weighed_legend: "* the option the bot picks; > the option taken. ", took_back: "↶ Player {0} took back decision {1}",
    and_after: " and the {0} after it", no_one_to_ask: " (no other person to ask)", agreed_by: ", agreed by player {0}",
    undone_item: "player {0}, {1}",
    tip_first: "the first event (Home)", tip_back_step: "the previous decision (Page Up)",
    tip_back: "the previous event (←)", tip_forward: "the next event (→)", tip_forward_step: "the next decision (Page Down)",
    tip_last: "the last event (End)", label_controls: "time travel", label_event: "event", label_events: "events",
    label_log: "what happened",
  },
  fr: {
    point_card: "Pointez une carte pour la lire.", player_n: "joueur {0}", you_suffix: " (vous)", owner: "Propriétaire : {0}",
    is_tags: "est {0}", close_card: "fermer la carte", here: "Ici : {0}", face_down: "{0} cartes face cachée", face_down_one: "1 carte face cachée", empty: "vide",
    empty_zones: "vides : {0}", at_nought: "à 0 : {0}", in_supply: "en réserve :", set_aside: "Mis de côté", game_over: "Partie terminée. ", won_by: "Gagnée par {0}.",
    and: " et ", no_winner: "Aucun gagnant.", scores: " Scores : {0}.", standing: " {0} : {1}.",
    waiting_for: "En attente de {0}…", secretly: " (en secret)", prompt_of: "{0} : ", choose: "choisissez",
    since_last: "depuis votre dernière décision", cancel: "annuler", whose_piece: "{0}, à {1}", owner_tag: "J{0}", team_suffix: " (équipe)",
    connected: "● connecté", away: "○ absent", free_seat: "○ place libre", score: "score {0}", person: "personne",
    watching: "spectateur", stopped: "Arrêtée : {0}", watching_as: "Vous regardez comme {0} ; vous ne pouvez pas agir",
    you_are: "Vous êtes {0}", this_screen: " (cet écran joue {0})", replay_game: "Revoir cette partie",
    as_watcher: "comme {0}", close_confirm: "Fermer cette table pour tous les joueurs ? Sa partie va aux rediffusions.",
    clock_left: "{0} : {1} s pour décider", clock_bot: " (le robot {0} décide)", time_up: " (temps écoulé)",
    n_watching: "{0} spectateur(s)", undo_asked: "{0} demande à reprendre la décision {1} (« {2} »)", agree: "Accepter",
    refuse: "Refuser", undo_none: "Aucune décision à reprendre pour l'instant.",
    undo_last: "Reprendre ma dernière décision", ask: "Demander", undo_before: " ou revenir avant ",
    undo_waiting: " ; en attente de {0}.", you_word: "vous", undo_pick: "la décision où revenir",
    why_summary: "Pourquoi ne puis-je pas… ?", why_label: "Un coup : une option, une carte, ou « use CARTE »",
    why_older: "La table a changé depuis cette réponse : redemandez.",
    why_replay_label: "Pourquoi pas… ? Un coup à cette décision : ",
    turn_cover: "{0} : à vous de jouer. Passez l'écran, puis montrez la table.", title_table: "Table",
    show_my_table: "Montrer ma table", what_happened: "Ce qui s'est passé",
    links_summary: "Liens pour les navigateurs des autres joueurs",
    watch_links: "Pour regarder sans jouer (personne ne peut agir avec ceux-ci) :",
    close_table: "Fermer la table (sa partie va aux rediffusions)",
    language: "Langue de la table", new_table: "Une nouvelle table", game: "Jeu", expansions: "Extensions",
    scenario: "Scénario", solo_level: "Mode solo, niveau", players: "Joueurs", seats: "Places", options: "Options",
    house_rules: "Règles de la maison", listed: "L'annoncer dans le salon, pour que d'autres prennent ses places libres",
    undo_house: "Les joueurs peuvent reprendre une décision, si tous les autres l'acceptent",
    clock_per: "Pendule par décision", seconds_when: "secondes ; quand elle est écoulée",
    clock_shown: "elle est seulement affichée", clock_greedy: "le robot greedy décide",
    clock_random: "le robot random décide", seed: "Graine", open_table: "Ouvrir la table", ready: "La table est prête",
    ready_open: "Ouvrez-la ici, ou envoyez à chaque personne le lien de sa place (même réseau, et",
    lobby_title: "Tables ouvertes", lobby_about: "Les tables que leurs créateurs ont annoncées, encore en jeu. Prenez une place libre, ou regardez.",
    replays: "Rediffusions", open_trace: "Ouvrir une trace enregistrée", seat_rules: "Joueur {0} : {1} (joué par ses règles) ",
    seat_label: "Joueur {0} ", a_person: "une personne", bot_named: "robot : {0}", sit_at: "Prendre la place du joueur {0}",
    others_in_lobby: " (les autres places sont dans le salon)", open_here: "Ouvrir la table sur cet écran",
    plays_every: " (elle joue la place de chaque personne, à tour de rôle)",
    maker_link: "Votre lien de créateur (gardez-le : il ferme la table et donne tous les liens) : ",
    own_link: "Le lien du joueur {0} : ", watch_nobody: "Pour regarder comme personne (ce que voit tout joueur) : ",
    none: "aucun", solo_no: "non : plusieurs joueurs", lobby_line: " — {0} joueurs, {1} décisions, ouverte {2} ; ", lobby_seat: "{0} : {1}. ",
    to_play: "{0} joue. ", take_seat: "Prendre la place : {0}", person_here: "une personne, connectée",
    person_away: "une personne, absente", bot_who: "un robot ({0})", watch: "regarder", no_table: "Aucune table ouverte.",
    ago_s: "il y a {0} s", ago_min: "il y a {0} min", ago_h: "il y a {0} h", unreadable: " (illisible : {0})",
    not_replayable: " — enregistrée avec d'autres règles (ou contenus) que ceux de ce serveur : elle ne peut pas être rejouée ici",
    replay_line: " {0}, {1} joueurs, {2} événements", won_by_players: ", gagnée par le joueur {0}",
    and_player: " et le joueur ",

    replay: "Rediffusion", replay_of: "Rediffusion : {0}", replay_status: "{0} joueurs, graine {1}, {2} événements",
    replay_won: " ; gagnée par le joueur {0}", warning: ". Attention : {0}", everyone: "tout le monde (tout est montré)",
    first: "Début", last: "Fin", back_step: "◀◀ décision", back: "◀ événement", forward: "événement ▶",
    forward_step: "décision ▶▶", seen_by: "Vu par", events: "Événements", play_on: "Reprendre la partie d'ici",
    play_on_about: "Une nouvelle table commence à la décision à laquelle cet événement répond (ou à la suivante), la partie telle qu'elle était.",
    fork: "Ouvrir une table à partir de cet événement", event_n: "Événement {0} : ", caused_by: "Causé par ",
    no_line: "Aucune ligne de contenu n'est enregistrée pour cet événement.",
    changed: "Changé : {0} (marqué sur la table).", why_bot: "Qu'a pesé le robot ici ?", weighing: "pesée…",
    bot_weighs: "{0}. {1}{2} pèse {3} :", traced_bot: " (le robot de la trace du joueur {0} : {1})", option: "option",
    value: "valeur", weighed_legend: "* l'option que le robot choisit ; > l'option prise. ",
    took_back: "↶ Le joueur {0} a repris la décision {1}", and_after: " et les {0} suivantes",
    no_one_to_ask: " (personne d'autre à qui demander)", agreed_by: ", avec l'accord du joueur {0}",
    undone_item: "joueur {0}, {1}",
    tip_first: "le premier événement (Début)", tip_back_step: "la décision précédente (Page préc.)",
    tip_back: "l'événement précédent (←)", tip_forward: "l'événement suivant (→)",
    tip_forward_step: "la décision suivante (Page suiv.)", tip_last: "le dernier événement (Fin)",
    label_controls: "voyage dans le temps", label_event: "événement", label_events: "événements",
    label_log: "ce qui s'est passé",
  },
};
R.LANGS = Object.keys(R.WORDS);
R.lang = "en";

R.t = function (key, ...values) {
  const table = R.WORDS[R.lang] || R.WORDS.en;
  const text = key in table ? table[key] : R.WORDS.en[key];
  return text === undefined ? key : text.replace(/\{(\d+)\}/g, (m, i) => (values[i] === undefined ? m : String(values[i])));
};

// Set the page's language, and the text of each element marked `data-t` in it.
R.setLang = function (lang) {
  R.lang = R.LANGS.includes(lang) ? lang : "en";
  document.documentElement.lang = R.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = R.t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-t-title]")) e.title = R.t(e.dataset.tTitle);
  for (const e of document.querySelectorAll("[data-t-label]")) e.setAttribute("aria-label", R.t(e.dataset.tLabel));
};

// The language a page opens in: the address's (?lang=), else the one chosen last on the start
// page, else the browser's, when the pages speak it.
R.firstLang = function () {
  const asked = new URLSearchParams(window.location.search).get("lang");
  let kept = null;
  try { kept = window.localStorage.getItem("regles-lang"); } catch (err) { kept = null; }
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return [asked, kept, browser].find(l => R.LANGS.includes(l)) || "en";
};

R.el = function (tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") { for (const [dk, dv] of Object.entries(v)) if (dv !== null && dv !== undefined) e.dataset[dk] = dv; }
    else if (k === "style") Object.assign(e.style, v);  // through the CSSOM: the page's CSP refuses style attributes
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  R.append(e, children);
  return e;
};

// Append `children` to element `e`: nodes as they are, lists of them at any depth one after
// the other, null, undefined and false skipped, anything else as a text node (never markup).
R.append = function (e, children) {
  const todo = [children];  // a stack of lists, walked in order without recursion
  const at = [0];
  while (todo.length) {
    const list = todo[todo.length - 1];
    const i = at[at.length - 1]++;
    if (i >= list.length) { todo.pop(); at.pop(); continue; }
    const c = list[i];
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) { todo.push(c); at.push(0); continue; }
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
};

R.svg = function (tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
};

R.api = async function (method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const res = await fetch(url, init);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
};

R.param = function (name) {
  return new URLSearchParams(window.location.search).get(name);
};

// The answer to "why not?" the server sends (view.why.said): what is asked, the answer, the
// rules' line with its caret, and the rule IDs; each a text node, never markup.
R.whyAnswer = function (a) {
  const parts = [R.el("p", { class: "muted why-asked", text: R.capital(a.asked) }),
    R.el("p", { class: a.legal ? "why-said legal" : "why-said", text: R.capital(a.answer) })];
  if (a.where) parts.push(R.el("pre", { class: "why-line" }, `${a.where}\n${a.excerpt.join("\n")}`));
  if (a.rules) parts.push(R.el("p", { class: "muted", text: R.capital(a.rules) }));
  return parts;
};

R.showError = function (where, err) {
  where.replaceChildren(R.el("div", { class: "error", role: "alert", text: String(err.message || err) }));
};

// ---- drawing a table ---------------------------------------------------------------------
// each seat's colour: its pieces on the table, its area, the legend
R.SEAT_COLOURS = ["#d1495b", "#2f6fdf", "#2a9d4b", "#e08a1e", "#7b4fc9", "#1a9aa0", "#8a6d3b", "#c2417f"];
R.seatColour = (seat) => R.SEAT_COLOURS[seat % R.SEAT_COLOURS.length];
// a text that begins a sentence: its first letter in upper case
R.capital = (text) => text ? text[0].toUpperCase() + text.slice(1) : text;

R.swatch = function (seat) {
  return R.el("span", { class: "swatch", "aria-hidden": "true", style: { background: R.seatColour(seat) } });
};

// view: what the server sends (views.py); opts.targets: {"c:12": [option indices]...};
// opts.choose(index) when a target or a button is picked; opts.marks: what to highlight.

R.drawTable = function (root, view, opts) {
  opts = opts || {};
  const targets = {};
  const decision = view.decision;
  if (decision && decision.options && opts.choose) {
    for (const o of decision.options) for (const t of o.targets) (targets[t] = targets[t] || []).push(o);
  }
  const marks = opts.marks || {};
  const markedComps = new Set((marks.components || []).map(Number));
  const markedZones = new Set(marks.zones || []);
  const cardPanel = R.el("aside", { class: "card-panel", "aria-live": "polite" },
    R.el("p", { class: "muted", text: R.t("point_card") }));

  const seatName = (i) => (view.seats[i] ? view.seats[i].name : R.t("player_n", i + 1)) + (view.you === i ? R.t("you_suffix") : "");
  function attrList(attrs, names) {
    const shown = Object.entries(attrs || {}).filter(([k, v]) => v !== null && v !== "" && k !== "id");
    if (!shown.length) return null;
    return R.el("dl", { class: "attrs" }, shown.map(([k, v]) => [R.el("dt", { text: (names && names[k]) || k.replace(/_/g, " ") }),
      R.el("dd", { text: Array.isArray(v) ? v.join(", ") : String(v) })]));
  }
  function ownerLine(seat) {
    return R.el("p", { class: "owner" }, R.swatch(seat), R.el("span", { text: R.t("owner", seatName(seat)) }));
  }

  const shownComps = {};  // the components drawn, by id: a card open before this draw is opened again
  function showCard(c) {
    R.shownCard = c.id;
    const card = view.cards[c.card];
    const body = [R.el("h3", { text: c.title })];
    if (c.owner !== undefined && c.owner !== null) body.push(ownerLine(c.owner));
    if (card) {
      body.push(attrList(card.attributes, card.names));
      const face = (card.text || []).filter(line => line);
      if (face.length) body.push(R.el("div", { class: "face" }, face.map(line => R.el("p", { class: "ability", text: line }))));
    }
    if (c.tags) body.push(R.el("p", { class: "muted", text: R.t("is_tags", c.tags_a.join(", ")) }));
    if (c.set) body.push(R.el("p", { class: "muted", text: Object.entries(c.set).map(([k, v]) => `${k}: ${v}`).join("; ") }));
    if (c.counters) body.push(R.el("p", { class: "muted", text: c.counters.map(k => `${k.name} ${k.value}`).join(" · ") }));
    const close = R.el("button", { type: "button", class: "close", "aria-label": R.t("close_card"), text: "×" });
    close.onclick = () => {
      R.shownCard = null;
      cardPanel.replaceChildren(R.el("p", { class: "muted", text: R.t("point_card") }));
    };
    cardPanel.replaceChildren(close, R.el("div", { class: "shown", dataset: { card: c.card } }, body));
  }

  function showNode(b, n) {
    const body = [R.el("h3", { text: n.label }), R.el("p", { class: "muted small", text: b.title })];
    const units = n.zones.flatMap(z => z.components || []);
    const owners = [...new Set(units.map(c => c.owner).filter(o => o !== undefined && o !== null))];
    for (const o of owners) body.push(ownerLine(o));
    body.push(attrList(n.attributes));
    if (units.length) body.push(R.el("p", { class: "muted", text: R.t("here", units.map(c =>
      c.title + (c.owner !== undefined && c.owner !== null ? ` (${seatName(c.owner)})` : "")).join(", ")) }));
    if (n.counters) body.push(R.el("p", { class: "muted", text: n.counters.map(k => `${k.name} ${k.value}`).join(" · ") }));
    cardPanel.replaceChildren(R.el("div", { class: "shown", dataset: { node: n.id } }, body));
  }

  function pickFrom(options, anchor) {
    if (options.length === 1) { opts.choose(options[0].index); return; }
    const close = () => { menu.remove(); anchor.focus(); };
    const menu = R.el("div", { class: "pick-menu", role: "menu",
      onkeydown: (ev) => { if (ev.key === "Escape") { ev.stopPropagation(); close(); } } },
      options.map(o => R.el("button", { type: "button", role: "menuitem", text: o.label,
        onclick: (ev) => { ev.stopPropagation(); menu.remove(); opts.choose(o.index); } })),
      R.el("button", { type: "button", class: "cancel", text: R.t("cancel"), onclick: (ev) => { ev.stopPropagation(); close(); } }));
    anchor.append(menu);
    menu.querySelector("button").focus();  // the keyboard goes on in the menu (Escape closes it)
  }

  function targetable(node, key) {
    const options = targets[key];
    if (!options) return node;
    node.classList.add("target");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("title", options.map(o => o.label).join(" / "));
    const go = (ev) => { ev.stopPropagation(); pickFrom(options, node); };
    node.addEventListener("click", go);
    node.addEventListener("keydown", (ev) => {
      if (ev.target !== node) return;  // (a key in its menu is the menu's)
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(ev); }
    });
    return node;
  }

  function component(c, area) {
    shownComps[c.id] = c;
    const owned = c.owner !== undefined && c.owner !== null;
    const chip = R.el("div", { class: "comp" + (c.tapped ? " tapped" : "") + (markedComps.has(c.id) ? " marked" : "") +
      (owned && c.owner !== area ? " owned" : ""),
      dataset: { comp: String(c.id), card: c.card, owner: owned ? String(c.owner) : null } },
      R.el("span", { class: "comp-title", text: c.title }));
    if (owned && c.owner !== area) {
      chip.style.borderLeftColor = R.seatColour(c.owner);
      chip.style.background = `color-mix(in srgb, ${R.seatColour(c.owner)} 14%, white)`;
      chip.setAttribute("aria-label", R.t("whose_piece", c.title, seatName(c.owner)));
      // the owner in words too, not only in colour
      chip.append(R.el("span", { class: "owner-tag", "aria-hidden": "true", text: R.t("owner_tag", c.owner + 1) }));  // P2, J2 (joueur)
    }
    if (c.tags) chip.append(R.el("span", { class: "tags", text: c.tags_said.join(" · ") }));
    if (c.counters) chip.append(R.el("span", { class: "counters", text: c.counters.map(k => `${k.name} ${k.value}`).join(" · ") }));
    if (c.zones) for (const z of c.zones) if (z.count || !z.hidden) chip.append(zone(z, true, area));
    chip.addEventListener("mouseenter", (ev) => { ev.stopPropagation(); showCard(c); });
    chip.addEventListener("focus", () => showCard(c));
    if (!targets["c:" + c.id]) {  // read by a touch or the keyboard too (a target's click picks it)
      chip.setAttribute("tabindex", "0");
      chip.addEventListener("click", (ev) => { ev.stopPropagation(); showCard(c); });
    }
    return targetable(chip, "c:" + c.id);
  }

  function zone(z, inner, area) {
    // a zone of the centre is a section of the table (under its h2), a seat's a part of the seat's (h3)
    const level = area === null && !inner ? "h3" : "h4";
    const box = R.el("section", { class: "zone" + (inner ? " inner" : "") + (markedZones.has(z.key) ? " marked" : ""),
      dataset: { zone: z.key } },
      R.el(level, {}, R.el("span", { text: z.name }), R.el("span", { class: "count", text: String(z.count) })));
    if (z.hidden) {
      box.classList.add("hidden-zone");
      box.append(R.el("p", { class: "muted", text: z.count ? R.t(z.count === 1 ? "face_down_one" : "face_down", z.count) : R.t("empty") }));
      if (z.yours) box.append(R.el("div", { class: "comps" }, z.yours.map(c => component(c, area))));
    } else {
      box.append(R.el("div", { class: "comps" }, runs(z.components).map(run =>
        run.length === 1 ? component(run[0], area) : plainRun(run, area))));
    }
    return box;
  }

  // components side by side that are the same card and nothing else marks apart (no tag, tap,
  // counter, zone held, nothing to click or mark) are shown once, with how many there are
  function plain(c) {
    return !c.tapped && !c.tags && !c.set && !c.zones && !c.counters && !targets["c:" + c.id] && !markedComps.has(c.id) &&
      (c.owner === undefined || c.owner === null);
  }
  function runs(comps) {
    const out = [];
    for (const c of comps) {
      const last = out[out.length - 1];
      if (last && plain(c) && plain(last[0]) && last[0].card === c.card) last.push(c);
      else out.push([c]);
    }
    return out;
  }
  function plainRun(run, area) {
    const chip = component(run[0], area);
    chip.querySelector(".comp-title").textContent = `${run[0].title} ×${run.length}`;
    chip.dataset.comps = run.map(c => c.id).join(" ");
    return chip;
  }

  // the zones of an area: those with something in them (or the seat's own), then the empty ones in one line
  function zoneList(zones, keep, area) {
    const full = zones.filter(z => z.count || keep(z));
    const empty = zones.filter(z => !(z.count || keep(z)));
    return R.el("div", { class: "zones" }, full.map(z => zone(z, false, area)),
      empty.length ? R.el("p", { class: "empty-zones muted small", text: R.t("empty_zones", empty.map(z => z.name).join(", ")) }) : null);
  }

  // the counters of a seat or of the game: those that hold something, then those at 0 named in
  // one line (as the empty zones are), so that a panel is not a column of noughts
  function counters(list) {
    if (!list || !list.length) return null;
    const name = k => k.name + (k.team ? R.t("team_suffix") : "");
    const item = (k, said) => R.el("li", {}, R.el("span", { class: "name", text: said }),
      R.el("span", { class: "value", text: k.hidden ? "?" : String(k.value) }));
    // what is left in the supplies, in a line of its own: 'left in supply: coins 13, gems 9'
    const supplies = list.filter(k => k.supply !== undefined);
    const rest = list.filter(k => k.supply === undefined);
    const nought = rest.filter(k => !k.hidden && k.value === 0);
    const held = rest.filter(k => k.hidden || k.value !== 0);
    return R.el("div", { class: "counter-list" },
      held.length ? R.el("ul", { class: "counters" }, held.map(k => item(k, name(k)))) : null,
      supplies.length ? R.el("ul", { class: "counters supplies" }, R.el("li", { class: "muted", text: R.t("in_supply") }),
        supplies.map(k => item(k, k.supply))) : null,
      nought.length ? R.el("p", { class: "nought-counters muted small", text: R.t("at_nought", nought.map(name).join(", ")) }) : null);
  }

  function board(b) {
    const area = R.el("div", { class: "board-area" });
    const lines = R.svg("svg", { class: "edges", viewBox: "0 0 1000 1000", preserveAspectRatio: "none" });
    const at = {};
    for (const n of b.nodes) at[n.id] = n;
    for (const [a, c] of b.edges) {
      lines.append(R.svg("line", { x1: at[a].x * 1000, y1: at[a].y * 1000, x2: at[c].x * 1000, y2: at[c].y * 1000,
        "data-a": a, "data-b": c }));
    }
    area.append(lines);
    for (const n of b.nodes) {
      const node = R.el("div", { class: "node" + (n.shape === "round" ? " round" : "") + (n.size ? " " + n.size : ""),
        dataset: { node: n.id, kind: n.attributes.kind === undefined ? null : String(n.attributes.kind) }, style: { left: `${n.x * 100}%`, top: `${n.y * 100}%`, background: n.colour || null } },
        R.el("div", { class: "node-label", text: n.label }),
        n.details ? R.el("div", { class: "node-details", text: n.details.join(" · ") }) : null);
      const attrs = Object.entries(n.attributes).filter(([k]) => !["id", "name"].includes(k));
      node.setAttribute("title", [n.label, ...attrs.map(([k, v]) => `${k}: ${v}`)].join("\n"));
      node.addEventListener("mouseenter", () => showNode(b, n));
      node.addEventListener("focus", () => showNode(b, n));
      if (!targets["n:" + n.id]) {
        node.setAttribute("tabindex", "0");
        node.addEventListener("click", () => showNode(b, n));
      }
      for (const z of n.zones) {
        if (z.hidden && z.count) node.append(R.el("div", { class: "muted small", text: R.t(z.count === 1 ? "face_down_one" : "face_down", z.count) }));
        else if (!z.hidden) for (const c of z.components) node.append(component(c, null));
      }
      if (n.counters) node.append(nodeCounters(n.counters));
      if (n.zones.some(z => markedZones.has(z.key))) node.classList.add("marked");
      area.append(targetable(node, "n:" + n.id));
    }
    const height = Math.max(300, Math.min(1000, 150 * Math.sqrt(b.nodes.length)));
    area.style.height = height + "px";
    queueMicrotask(() => settle(area, b, lines));  // once on the page, before it is painted
    return R.el("section", { class: "board", dataset: { board: b.id } },
      R.el("h2", {}, R.el("span", { text: b.title }), legend()), area);
  }

  // The server places each node so that its label's box falls on no other; what a node holds (cards,
  // counters) makes it larger. Once the board is on the page (before it is painted), each node's box
  // is measured and the nodes that may move are pushed off one another along the axis where they
  // overlap least, as the server does: from the server's places every time, so the same view is
  // always drawn the same.
  function settle(area, b, lines) {
    const W = area.clientWidth;
    let H = area.clientHeight;
    const els = Array.from(area.querySelectorAll(":scope > .node"));
    if (!area.isConnected || !W || !H || els.length !== b.nodes.length) return;
    const gap = 4;
    // boxes that would cover more than 45% of the board cannot all be pushed apart on it: the
    // board grows taller (a narrow screen, a board whose nodes hold much)
    const covered = els.reduce((sum, e) => sum + (e.offsetWidth + gap) * (e.offsetHeight + gap), 0);
    if (covered > 0.45 * W * H) {
      H = Math.ceil(covered / (0.45 * W));
      area.style.height = H + "px";
    }
    const items = b.nodes.map((n, i) => ({ id: n.id, x: n.x * W, y: n.y * H, w: els[i].offsetWidth + gap,
      h: els[i].offsetHeight + gap, fixed: !!n.fixed }));
    const inside = it => {  // a box stays on the board (a fixed one too: a large box near an edge)
      it.x = W > it.w ? Math.min(W - it.w / 2, Math.max(it.w / 2, it.x)) : W / 2;
      it.y = H > it.h ? Math.min(H - it.h / 2, Math.max(it.h / 2, it.y)) : H / 2;
    };
    items.forEach(inside);
    for (let round = 0; round < 300; round++) {
      let moved = false;
      for (let i = 0; i < items.length; i++) {
        for (let j = i + 1; j < items.length; j++) {
          const a = items[i], c = items[j];
          if (a.fixed && c.fixed) continue;
          const w = (a.w + c.w) / 2, h = (a.h + c.h) / 2, dx = a.x - c.x, dy = a.y - c.y;
          const ox = w - Math.abs(dx), oy = h - Math.abs(dy);
          if (ox <= 0.01 || oy <= 0.01) continue;
          const share = a.fixed ? 0 : (c.fixed ? 1 : 0.5);  // a fixed node does not give way
          if (ox / w < oy / h) {
            const step = dx > 0 || dx === 0 ? ox : -ox;
            a.x += step * share; c.x -= step * (1 - share);
          } else {
            const step = dy > 0 || dy === 0 ? oy : -oy;
            a.y += step * share; c.y -= step * (1 - share);
          }
          moved = true;
        }
      }
      items.forEach(inside);
      if (!moved) break;
    }
    const at = {};
    items.forEach((it, i) => {
      at[it.id] = [it.x / W, it.y / H];
      els[i].style.left = `${it.x / W * 100}%`;
      els[i].style.top = `${it.y / H * 100}%`;
    });
    for (const line of lines.querySelectorAll("line")) {
      const a = at[line.dataset.a], c = at[line.dataset.b];
      line.setAttribute("x1", a[0] * 1000); line.setAttribute("y1", a[1] * 1000);
      line.setAttribute("x2", c[0] * 1000); line.setAttribute("y2", c[1] * 1000);
    }
  }

  // a node's counters: a player's as its value on the player's colour ('cubes' named once)
  function nodeCounters(list) {
    const box = R.el("div", { class: "node-counters small" });
    let named = null;
    for (const k of list) {
      if (k.seat === undefined) { box.append(R.el("span", { text: `${k.name} ${k.value}` })); continue; }
      if (k.counter !== named) { box.append(R.el("span", { class: "muted", text: k.counter })); named = k.counter; }
      box.append(R.el("span", { class: "seat-value", title: `${k.name}: ${k.value}`, dataset: { seat: String(k.seat) },
        style: { background: R.seatColour(k.seat) }, text: String(k.value) }));
    }
    return box;
  }

  // whose colour is whose: every seat, in the board's title line and above the seats
  function legend() {
    return R.el("span", { class: "legend" }, view.seats.map(s =>
      R.el("span", { class: "legend-seat", dataset: { seat: String(s.seat) } }, R.swatch(s.seat), R.el("span", { text: seatName(s.seat) }))));
  }

  function seatArea(s) {
    const toPlay = decision && decision.player === s.seat;
    const head = R.el("h3", {}, R.swatch(s.seat), R.el("span", { text: s.name + (view.you === s.seat ? R.t("you_suffix") : "") }),
      R.el("span", { class: "who", text: s.who === "person" ? R.t("person") : (s.who_said || s.who) }),
      s.connected === undefined ? null : R.el("span", { class: "presence " + (s.connected ? "here" : "away"),
        text: s.connected ? R.t("connected") : (s.taken ? R.t("away") : R.t("free_seat")) }),
      R.el("span", { class: "score", text: R.t("score", s.score === null ? "?" : s.score) }));
    const area = R.el("section", { class: "seat" + (toPlay ? " to-play" : "") + (view.you === s.seat ? " mine" : ""),
      dataset: { seat: String(s.seat) }, style: { borderTopColor: R.seatColour(s.seat) } }, head, counters(s.counters),
      zoneList(s.zones, z => markedZones.has(z.key), s.seat));
    return targetable(area, "s:" + s.seat);
  }

  const seats = R.el("div", { class: "seats" }, view.seats.map(seatArea));
  const centre = R.el("div", { class: "centre" },
    view.boards.length ? null : R.el("p", { class: "legend-line" }, legend()),
    view.boards.map(board), zoneList(view.centre, z => markedZones.has(z.key), null), counters(view.counters));
  const aside = view.aside.length || view.seats.some(s => s.aside.length) ?
    R.el("details", { class: "aside" }, R.el("summary", { text: R.t("set_aside") }),
      R.el("div", { class: "zones" }, view.aside.map(z => zone(z)),
        view.seats.flatMap(s => s.aside.map(z => zone(z, false, s.seat))))) : null;
  root.replaceChildren(R.el("div", { class: "table-grid" },
    R.el("div", { class: "play-area" }, centre, seats, aside), cardPanel));
  // the card a person opened stays open when the table is drawn again (another seat moved), as
  // long as it is still in sight
  if (R.shownCard !== null && R.shownCard !== undefined && shownComps[R.shownCard]) showCard(shownComps[R.shownCard]);
  return root;
};

R.drawDecision = function (root, view, choose, opens) {
  const d = view.decision;
  if (view.over) {
    const winners = (view.winners || []).map(w => view.seats[w].name);
    root.replaceChildren(R.el("div", { class: "over", role: "status" },
      R.el("strong", { text: R.t("game_over") }), winners.length ? R.t("won_by", winners.join(R.t("and"))) : R.t("no_winner"),
      view.standing ? R.t("standing", view.standing, view.seats.map(s => `${s.name} ${s.standing === null ? "?" : s.standing}`).join(", ")) :
        R.t("scores", view.seats.map(s => `${s.name} ${s.score === null ? "?" : s.score}`).join(", "))));
    return;
  }
  if (!d) { root.replaceChildren(); return; }
  if (!d.options) {
    root.replaceChildren(R.el("p", { class: "waiting", role: "status", text: R.t("waiting_for", d.name) }));
    return;
  }
  const mine = !opens || opens.includes(d.player);
  root.replaceChildren(R.el("div", { class: "decision" },
    // the seat who decides begins the line: with a capital ('Joueur 1 : ...', 'Vous : ...')
    R.el("p", { class: "prompt" }, R.el("strong", { text: R.t("prompt_of", R.capital(d.name) + (d.secret ? R.t("secretly") : "")) }),
      d.prompt || R.t("choose")),
    R.el("div", { class: "options" }, d.options.map(o => R.el("button", {
      type: "button", class: "option", disabled: !mine || !choose, dataset: { index: String(o.index) }, text: o.label,
      onclick: () => choose(o.index) })))));
};

// The log: `lines` from the first (index 0); those from index `mark` on (when it is a number)
// are new since the seat's last decision, after a line saying so. The lines drawn stay (only
// those after them are added, and the mark moved), and the list stays scrolled to its end
// when it was there.
R.drawLog = function (root, lines, mark) {
  const atEnd = root.scrollHeight - root.scrollTop - root.clientHeight < 24 || !root.childElementCount;
  let items = root.logItems || [];
  if (items.length > lines.length) { R.clearLog(root); items = []; }
  for (let i = items.length; i < lines.length; i++) {
    const li = R.el("li", { value: i + 1, text: lines[i] });
    items.push(li);
    root.append(li);
  }
  root.logItems = items;
  const from = typeof mark === "number" && mark >= 0 && mark < items.length ? mark : null;
  for (const li of root.querySelectorAll("li.new")) li.classList.remove("new");
  let since = root.querySelector("li.since");
  if (from === null) {
    if (since) since.remove();
  } else {
    since = since || R.el("li", { class: "since", role: "separator", text: R.t("since_last") });
    root.insertBefore(since, items[from]);
    for (let i = from; i < items.length; i++) items[i].classList.add("new");
  }
  if (atEnd) root.scrollTop = root.scrollHeight;
};

R.clearLog = function (root) {
  root.replaceChildren();
  root.logItems = [];
};
