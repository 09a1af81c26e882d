/* The actions of components, after the game's tables of them (RG_ACT_*): which may be used
   now, their use, and the events that let them be used again. */

static void rg_clear_used(rg_state *st, int limit) {
    for (int32_t i = 0; i < RG_COMPS * RG_MAXA; i++)
        if (RG_ACT_LIMIT[i] == limit) st->used[i] = 0;
}

/* action a of component c started by `player`: its cost paid by its code, which runs next */
static void rg_start_action(rg_state *st, rg_cx *cx, v_t c, int32_t a, v_t player, int free, int pos) {
    int32_t row = (int32_t)c * RG_MAXA + a;
    if (RG_ACT_LIMIT[row] >= 0) st->used[row] = 1;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_ACTION, pos);
        e->a = c; e->b = a; e->c = player; e->d = free;
    }
    rg_frame *nf = rg_push(st, cx, RG_ACT_PROC[row], (int32_t)c, (int32_t)player, pos);
    nf->loc[0] = player;  /* cause */
    nf->loc[1] = free;
}

/* the actions `player` may use now in `window` (-1: any), as options `k` of a menu: the
   components the player has in play in their order, each action in its order */
static void rg_actions_into(rg_state *st, rg_cx *cx, int k, int window, v_t player, int pos) {
    v_t mine[RG_LIST];
    int32_t n = rg_in_play(st, cx, mine, player);
    for (int32_t i = 0; i < n; i++) {
        v_t c = mine[i];
        for (int32_t a = 0; a < RG_ACT_COUNT[c]; a++) {
            int32_t row = (int32_t)c * RG_MAXA + a;
            if (window >= 0 && RG_ACT_WINDOWS[row] && !(RG_ACT_WINDOWS[row] >> window & 1)) continue;
            if (RG_ACT_LIMIT[row] >= 0 && st->used[row]) continue;
            if (RG_ACT_USABLE[row](st, cx, c, player, 0)) rg_option(st, cx, k, row, pos);
        }
    }
}

/* `use c by player`: its first action that may be used now, started; 0 when none may */
static int rg_use(rg_state *st, rg_cx *cx, v_t c, v_t player, int free, int pos) {
    if (c < 0) rg_fault(st, cx, F_NOT_COMPONENT, pos);
    if (player < 0) rg_fault(st, cx, F_NOT_PLAYER, pos);
    for (int32_t a = 0; a < RG_ACT_COUNT[c]; a++) {
        int32_t row = (int32_t)c * RG_MAXA + a;
        if (RG_ACT_LIMIT[row] >= 0 && st->used[row]) continue;
        if (RG_ACT_USABLE[row](st, cx, c, player, free)) {
            rg_start_action(st, cx, c, a, player, free, pos);
            return 1;
        }
    }
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_UNUSED, pos);
        e->a = c; e->c = player;
    }
    return 0;
}

/* can_use(c, player): whether `use c by player free` would start an action now */
static int rg_can_use(rg_state *st, rg_cx *cx, v_t c, v_t player) {
    if (c < 0 || player < 0) return 0;
    for (int32_t a = 0; a < RG_ACT_COUNT[c]; a++) {
        int32_t row = (int32_t)c * RG_MAXA + a;
        if (RG_ACT_LIMIT[row] >= 0 && st->used[row]) continue;
        if (RG_ACT_USABLE[row](st, cx, c, player, 1)) return 1;
    }
    return 0;
}
