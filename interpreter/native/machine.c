/* The machine of the native backend, after the game's procedures, menus and tables: a
   choice resolved, the loop that runs frames until a decision or the end, and the
   functions the Python side calls (interpreter/native/state.py). */

static void rg_resolve(rg_state *st, rg_cx *cx, int index, int autom) {
    rg_frame *fr = &st->frames[st->depth - 1];
    int32_t k = st->opt_option[index];
    v_t x = st->opt_val[index];
    st->pending = 0;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_CHOICE, RG_MENU_POS[st->menu]);
        e->a = st->chooser; e->b = index; e->c = st->nopt; e->d = autom; e->e = st->menu; e->f = k;
        rg_texts(st, cx, fr, e, st->menu, k, x);
    }
    int32_t row = RG_MENU_FIRST[st->menu] + k;
    if (RG_OPT_START[row] == RG_POP) {  /* the 'no' of an optional ability: it ends */
        rg_pop(st);
        return;
    }
    if (RG_OPT_START[row] == RG_ACTS) {  /* an action of a card: it runs, then the menu is done */
        fr->pc = RG_MENU_END[st->menu];
        rg_start_action(st, cx, x / RG_MAXA, (int32_t)(x % RG_MAXA), st->chooser, 0, RG_MENU_POS[st->menu]);
        return;
    }
    if (RG_OPT_VAR[row] >= 0) fr->loc[RG_OPT_VAR[row]] = x;
    fr->pc = RG_OPT_START[row];
}

static void rg_loop(rg_state *st, rg_cx *cx) {
    for (;;) {
        if (st->pending) {  /* a decision: asked of an agent, or taken here by its seat's automaton */
            if (!RG_HAS_AUTOMATA || RG_AUTOMATON[st->chooser] < 0) return;
            rg_resolve(st, cx, rg_auto_pick(st, cx), 2);
            continue;
        }
        if (st->depth <= 0) return;
        rg_frame *fr = &st->frames[st->depth - 1];
        rg_work(st, cx, 1, -1);
        RG_PROCS[fr->proc](st, cx, fr);
    }
}

size_t rg_size(void) { return sizeof(rg_state); }

/* A new game: `zones` lists each zone made, in the order it was made, with its slot, its
   length and its members, and ends with -1; `teams` gives each seat's team. */
int rg_start(rg_state *st, rg_log *lg, int32_t n, uint64_t rng, const int64_t *options, const int64_t *counters,
             const int32_t *zones, const int32_t *teams) {
    rg_cx cx;
    char base;
    cx.log = lg;
    cx.watch = NULL;
    cx.depth = 0;
    cx.stack = &base;
    memset(st, 0, sizeof *st);
    st->n = n;
    for (int32_t s = 0; s < n; s++) {
        st->team_of[s] = teams[s];
        if (teams[s] + 1 > st->nteams) st->nteams = teams[s] + 1;
    }
    st->rng = rng;
    memcpy(st->options, options, sizeof st->options);
    memcpy(st->counters, counters, sizeof st->counters);
    for (int32_t c = 0; c < RG_COMPS; c++) st->where[c] = -1;
    for (int32_t i = 0; i < RG_OVER * RG_COMPS; i++) st->over[i] = RG_MISSING;
    for (const int32_t *z = zones; *z >= 0;) {
        int32_t slot = *z++, len = *z++;
        if (!st->is_made[slot]) {
            st->is_made[slot] = 1;
            st->made[st->nmade++] = slot;
        }
        for (int32_t i = 0; i < len; i++) {
            rg_items(st, slot)[i] = z[i];
            st->where[z[i]] = slot;
        }
        st->zlen[slot] = len;
        z += len;
    }
    if (setjmp(cx.jb)) return st->fault;
    st->fuel = RG_BUDGET;
    rg_push(st, &cx, RG_GAME_PROC, -1, -1, -1);
    rg_loop(st, &cx);
    return 0;
}

/* Option `index` of the pending decision taken; the game run to its next decision (its moves
   told to `w`, when not NULL). */
static int rg_step(rg_state *st, rg_log *lg, int32_t index, rg_watch *w) {
    rg_cx cx;
    char base;
    cx.log = lg;
    cx.watch = w;
    cx.depth = 0;
    cx.stack = &base;
    if (setjmp(cx.jb)) return st->fault;
    st->fuel = RG_BUDGET;
    st->decisions++;
    rg_resolve(st, &cx, index, 0);
    rg_loop(st, &cx);
    return 0;
}

int rg_apply(rg_state *st, rg_log *lg, int32_t index) { return rg_step(st, lg, index, NULL); }

/* The game played on from `st`, each option picked by the random agent of the seat deciding
   (engine.values.Rng, as play.agents.RandomAgent: `seeds` holds each seat's generator, and
   goes on as it would), until it ends or has made more than `most` decisions in all: 0, or
   -1 past `most`, or the code of a fault. */
int rg_random_play(rg_state *st, rg_log *lg, uint64_t *seeds, int64_t most) {
    while (st->pending) {
        int r = rg_apply(st, lg, (int32_t)rg_below_of(&seeds[st->chooser], st->nopt));
        if (r) return r;
        if (st->decisions > most) return -1;
    }
    return 0;
}

/* The seats a zone belongs to, as a bit mask: its player, its team's members, or the player
   controlling the component that holds it; none for the game's or a node's. */
static int64_t rg_seats_of_zone(const rg_state *st, int32_t z) {
    if (z < 0) return 0;
    int kind = RG_ZONE_HOLDER_KIND[z];
    v_t h = RG_ZONE_HOLDER[z];
    if (kind == 4) {
        h = rg_controller((rg_state *)st, h);
        kind = h >= 0 ? 1 : 0;
    }
    if (kind == 1) return (int64_t)1 << h;
    int64_t mask = 0;
    if (kind == 2)
        for (int32_t s = 0; s < st->n; s++)
            if (st->team_of[s] == h) mask |= (int64_t)1 << s;
    return mask;
}

/* rg_random_play, each decision recorded in `w` as: the seat, the component its option picks
   (`picks`, per row of a menu: whether its value is a component; else -1), counter `counter`
   before it (0 for -1), how many moves into another zone it made, each as (component, from,
   to, the seats of `to`, the seats of `from`) once it is made, then each seat's score
   (`score_slot` per seat, -1: `score_initial`). */
int rg_random_play_watched(rg_state *st, rg_log *lg, uint64_t *seeds, int64_t most, rg_watch *w,
                           const int8_t *picks, int32_t counter, const int32_t *score_slot,
                           const int64_t *score_initial) {
    while (st->pending) {
        int32_t seat = st->chooser;
        int32_t i = (int32_t)rg_below_of(&seeds[seat], st->nopt);
        int32_t row = RG_MENU_FIRST[st->menu] + st->opt_option[i];
        rg_rec(w, seat);
        rg_rec(w, picks[row] ? st->opt_val[i] : -1);
        rg_rec(w, counter >= 0 ? st->counters[counter] : 0);
        w->nmv = 0;
        int r = rg_step(st, lg, i, w);
        if (r) return r;
        rg_rec(w, w->nmv);
        for (int32_t k = 0; k < w->nmv; k++) {
            int32_t *m = &w->mv[k * 3];
            rg_rec(w, m[0]); rg_rec(w, m[1]); rg_rec(w, m[2]);
            rg_rec(w, rg_seats_of_zone(st, m[2]));
            rg_rec(w, rg_seats_of_zone(st, m[1]));
        }
        for (int32_t s = 0; s < st->n; s++) rg_rec(w, score_slot[s] >= 0 ? st->counters[score_slot[s]] : score_initial[s]);
        if (st->decisions > most) return -1;
    }
    return 0;
}

/* Per component: the seats of the zone it lies in when that zone is not in play, else -1. */
void rg_held_by(const rg_state *st, int64_t *out) {
    for (int32_t c = 0; c < RG_COMPS; c++) {
        int32_t z = st->where[c];
        out[c] = z < 0 || RG_ZONE_IN_PLAY[z] ? -1 : rg_seats_of_zone(st, z);
    }
}

void rg_unwatch(rg_watch *w) {
    free(w->rec);
    free(w->mv);
    w->rec = NULL;
    w->mv = NULL;
    w->n = w->cap = 0;
    w->nmv = w->capmv = 0;
}

/* What the Python side reads of a state. */
void rg_info(const rg_state *st, int64_t *out) {
    out[0] = st->pending; out[1] = st->chooser; out[2] = st->nopt; out[3] = st->depth;
    out[4] = st->winners; out[5] = st->won; out[6] = st->fault; out[7] = st->fault_pos;
    out[8] = st->menu; out[9] = st->decisions;
}

/* Where the parts the Python side reads of a state lie in its memory (`reading`), in bytes
   from its start, and the sizes the generated part fixed. */
void rg_layout(int64_t *out) {
    out[0] = offsetof(rg_state, nmade); out[1] = offsetof(rg_state, made);
    out[2] = offsetof(rg_state, zlen); out[3] = offsetof(rg_state, zitems);
    out[4] = offsetof(rg_state, where); out[5] = offsetof(rg_state, counters);
    out[6] = offsetof(rg_state, tapped); out[7] = offsetof(rg_state, ntags);
    out[8] = offsetof(rg_state, tags); out[9] = offsetof(rg_state, over);
    out[10] = offsetof(rg_state, opt_option); out[11] = offsetof(rg_state, opt_val);
    out[12] = RG_COMPS; out[13] = RG_ZONES; out[14] = RG_TAGS; out[15] = RG_OVER; out[16] = RG_COUNTERS;
    out[17] = offsetof(rg_state, changed);
}

/* The text and values of a `fail` that stopped the game. */
int32_t rg_failed(const rg_state *st, int64_t *vals) {
    for (int32_t i = 0; i < st->fail_n; i++) vals[i] = st->fail_vals[i];
    return st->fail_text;
}

/* The points each component brought each owner of the score. */
void rg_credit(const rg_state *st, int64_t *out) { memcpy(out, st->credit, sizeof st->credit); }

/* One counter, by its slot. */
int64_t rg_counter(const rg_state *st, int32_t slot) { return st->counters[slot]; }

/* Every counter, for the Python side's view of the state. */
void rg_counters(const rg_state *st, int64_t *out) { memcpy(out, st->counters, sizeof st->counters); }
