/* The run-time of the native backend: the state as slots, the random draws, moves,
   counters, the record of events, decisions and the machine that runs the game's
   procedures. The generated part of a game (its sizes, tables and procedures) is written
   before this file (RG_* sizes and tables) and after it (the procedures, the menus and
   the entry points) by interpreter/native/emit.py; nothing here knows any game.

   A fault of the rules (a runaway loop, procedures nested too deeply, a choice with no
   option, a number too large, a full zone) jumps back to `rg_run`, which returns its code;
   the Python side turns it into the same GameFault the Python backend raises. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>


typedef struct {
    int32_t proc, pc, me, you;
    int32_t arena;        /* the top of the arena when the frame began: its loops' lists lie above */
    v_t loc[RG_LOCALS];
} rg_frame;

typedef struct {
    int32_t n;            /* players */
    int32_t depth;        /* frames running */
    int32_t pending;      /* 1 while a decision waits */
    int32_t chooser;      /* the seat (from 0) who decides */
    int32_t menu;         /* the menu asked (its index in RG_MENU_*) */
    int32_t nopt;         /* its options */
    int32_t winners;      /* a bit per winning seat, once some won */
    int32_t won;          /* 1 once a `win` ended the game */
    int32_t fault, fault_pos;
    int32_t nteams;
    int32_t team_of[RG_PLAYERS];
    int32_t nmade;        /* zones made so far, in the order they were made (RG_ZONE order of in_play) */
    int32_t made[RG_ZONES];
    int8_t is_made[RG_ZONES];
    int8_t ntags[RG_COMPS];
    int8_t tags[RG_COMPS][RG_TAGS];  /* each component's tags, in the order they were given */
    int32_t arena_top;
    v_t arena[RG_ARENA];  /* the lists loops that wait walk over, a stack */
    int8_t tapped[RG_COMPS];
    int8_t used[RG_COMPS * RG_MAXA];  /* actions used since the event that limits them */
    int64_t credit[RG_COMPS * RG_SCORE_OWNERS];  /* points each component brought each owner of the score */
    v_t over[RG_OVER * RG_COMPS];  /* attributes the rules set, RG_MISSING where they did not */
    int32_t fail_text, fail_n;     /* the text of a `fail` that nothing caught, and its values */
    v_t fail_vals[8];
    int64_t fuel;
    int64_t decisions;
    uint64_t rng;
    int32_t opt_option[RG_MAX_OPTIONS];
    v_t opt_val[RG_MAX_OPTIONS];
    v_t options[RG_OPTIONS];
    v_t counters[RG_COUNTERS];
    int8_t changed[RG_COUNTERS];  /* 1 once a counter changed: the Python backend's dict holds it since */
    int32_t zlen[RG_ZONES];
    int32_t where[RG_COMPS];
    int32_t zitems[RG_ZONES * RG_COMPS];
    rg_frame frames[RG_MAX_DEPTH];
} rg_state;

/* one event of the trace: its kind, the position that caused it, and its fields; the
   values of the texts it carries (a prompt's and a label's parts) are in `vals` */
typedef struct {
    int32_t kind, pos;
    int64_t a, b, c, d, e, f;
    int32_t text, nvals;
    int64_t vals;  /* offset of the first value in rg_log.vals */
} rg_event;

typedef struct {
    int32_t on;   /* 0: no trace is kept */
    int32_t n, cap;
    rg_event *ev;
    int64_t nvals, capvals;
    int64_t *vals;
} rg_log;

/* What a watched game did (rg_random_play_watched; runs.results.record reads it): its record,
   and the moves of the step being played. Grown with realloc, freed by rg_unwatch. */
typedef struct {
    int64_t n, cap;
    int64_t *rec;
    int32_t nmv, capmv;
    int32_t *mv;       /* component, from, to: each move into another zone during the step */
    int32_t overflow;  /* out of memory: the record is incomplete */
} rg_watch;

typedef struct {
    rg_log *log;
    rg_watch *watch;  /* NULL: no one watches the moves */
    int32_t depth;  /* game functions running, one in another */
    char *stack;    /* the C stack where the run began: the rules' lists lie on it */
    jmp_buf jb;
} rg_cx;

#define RG_STACK (4 << 20)  /* of C stack the rules may use (a thread's is 8 MB on Linux) */

enum { EV_SHUFFLE = 1, EV_COUNTER, EV_CHOICE, EV_MOVE, EV_WIN, EV_SIGNAL, EV_LOG, EV_TAG, EV_ACTION, EV_UNUSED, EV_TAP,
       EV_REVEAL, EV_SET, EV_FAIL, EV_ROLL, EV_DECIDE };
enum { F_RUNAWAY = 1, F_TOO_DEEP, F_NO_OPTION, F_TOO_BIG, F_FULL, F_NO_MEMORY, F_NOT_COMPONENT, F_NOT_ZONE,
       F_NOT_PLAYER, F_TOO_MANY_OPTIONS, F_TOO_LONG, F_NONE, F_TYPE, F_DIVISION, F_INDEX, F_KEYS, F_NO_NODE, F_FAILED, F_NESTED, F_SIDES,
       F_NOT_NATIVE };
enum { R_SET = 0, R_ADD, R_REMOVE, R_GAIN, R_LOSE, R_SCORE, R_PAY, R_SPEND };

static void rg_fault(rg_state *st, rg_cx *cx, int code, int pos) {
    st->fault = code;
    st->fault_pos = pos;
    longjmp(cx->jb, 1);
}

/* the record ------------------------------------------------------------------------- */
static rg_event *rg_emit(rg_state *st, rg_cx *cx, int kind, int pos) {
    rg_log *lg = cx->log;
    if (lg->n >= lg->cap) {
        int32_t cap = lg->cap ? lg->cap * 2 : 256;
        rg_event *ev = realloc(lg->ev, sizeof(rg_event) * (size_t)cap);
        if (!ev) rg_fault(st, cx, F_NO_MEMORY, pos);
        lg->ev = ev;
        lg->cap = cap;
    }
    rg_event *e = &lg->ev[lg->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->pos = pos;
    e->text = -1;
    e->vals = lg->nvals;
    return e;
}

static void rg_watch_move(rg_watch *w, int32_t c, int32_t from, int32_t to) {
    if (w->nmv * 3 + 3 > w->capmv) {
        int32_t cap = w->capmv ? w->capmv * 2 : 96;
        int32_t *mv = realloc(w->mv, sizeof(int32_t) * (size_t)cap);
        if (!mv) { w->overflow = 1; return; }
        w->mv = mv;
        w->capmv = cap;
    }
    w->mv[w->nmv * 3] = c; w->mv[w->nmv * 3 + 1] = from; w->mv[w->nmv * 3 + 2] = to;
    w->nmv++;
}

static void rg_rec(rg_watch *w, int64_t v) {
    if (w->n >= w->cap) {
        int64_t cap = w->cap ? w->cap * 2 : 1024;
        int64_t *rec = realloc(w->rec, sizeof(int64_t) * (size_t)cap);
        if (!rec) { w->overflow = 1; return; }
        w->rec = rec;
        w->cap = cap;
    }
    w->rec[w->n++] = v;
}

static void rg_value(rg_state *st, rg_cx *cx, rg_event *e, v_t v) {
    rg_log *lg = cx->log;
    if (lg->nvals >= lg->capvals) {
        int64_t cap = lg->capvals ? lg->capvals * 2 : 256;
        int64_t *vals = realloc(lg->vals, sizeof(int64_t) * (size_t)cap);
        if (!vals) rg_fault(st, cx, F_NO_MEMORY, e->pos);
        lg->vals = vals;
        lg->capvals = cap;
    }
    lg->vals[lg->nvals++] = v;
    e->nvals++;
}

/* random draws: SplitMix64, as the Python backend's (engine.values.Rng) ---------------- */
static uint64_t rg_next64(uint64_t *state) {
    uint64_t z;
    *state += 0x9E3779B97F4A7C15ULL;
    z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int64_t rg_below_of(uint64_t *state, int64_t n) {
    uint64_t un = (uint64_t)n, r = (0 - un) % un;  /* 2**64 mod n: draws past the last whole range are drawn again */
    for (;;) {
        uint64_t x = rg_next64(state);
        if (r == 0 || x < 0 - r) return (int64_t)(x % un);
    }
}

static inline int64_t rg_below(rg_state *st, int64_t n) { return rg_below_of(&st->rng, n); }

/* lists nested in lists, functions in functions: stopped before the C stack runs out */
static inline void rg_stack(rg_state *st, rg_cx *cx, int pos) {
    char here;
    if (cx->stack - &here > RG_STACK) rg_fault(st, cx, F_NESTED, pos);
}

/* a game function called in another, 100 deep at most (a function calling itself without end) */
static inline void rg_deeper(rg_state *st, rg_cx *cx, int pos) {
    if (++cx->depth > 100) rg_fault(st, cx, F_NESTED, pos);
    rg_stack(st, cx, pos);
}

/* the budget of work between two decisions (interpreter.limits) ------------------------ */
static inline void rg_work(rg_state *st, rg_cx *cx, int64_t units, int pos) {
    st->fuel -= units;
    if (st->fuel < 0) rg_fault(st, cx, F_RUNAWAY, pos);
}


/* zones ------------------------------------------------------------------------------ */
static inline int32_t *rg_items(rg_state *st, int z) { return &st->zitems[(int64_t)z * RG_COMPS]; }

static inline v_t rg_top(rg_state *st, int z) {
    int32_t n = st->zlen[z];
    return n ? rg_items(st, z)[n - 1] : -1;
}

static void rg_shuffle(rg_state *st, rg_cx *cx, int z, int pos) {
    int32_t n = st->zlen[z], *it = rg_items(st, z);
    if (n) {
        rg_work(st, cx, n, pos);
        for (int32_t i = n - 1; i > 0; i--) {
            int32_t j = (int32_t)rg_below(st, i + 1), t = it[i];
            it[i] = it[j];
            it[j] = t;
        }
    }
    if (cx->log->on) rg_emit(st, cx, EV_SHUFFLE, pos)->a = z;
}

/* counters ---------------------------------------------------------------------------- */
static v_t rg_set(rg_state *st, rg_cx *cx, int k, v_t value, int pos, int reason) {
    v_t old = st->counters[k], v = value;
    if (v < -RG_MAX_NUMBER || v > RG_MAX_NUMBER) rg_fault(st, cx, F_TOO_BIG, pos);
    if (RG_COUNTER_MAX[k] != RG_NO_BOUND && v > RG_COUNTER_MAX[k]) v = RG_COUNTER_MAX[k];
    if (RG_COUNTER_MIN[k] != RG_NO_BOUND && v < RG_COUNTER_MIN[k]) v = RG_COUNTER_MIN[k];
    int32_t s = RG_COUNTER_SUPPLY[k];
    if (s >= 0 && v > old && v - old > st->counters[s]) v = old + st->counters[s];
    v_t delta = v - old;
    if (delta == 0) return 0;
    if (s >= 0) {
        st->counters[s] -= delta;
        st->changed[s] = 1;
    }
    st->counters[k] = v;
    st->changed[k] = 1;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_COUNTER, pos);
        e->a = k; e->b = delta; e->c = v; e->d = reason;
    }
    return delta;
}

static inline v_t rg_add(rg_state *st, rg_cx *cx, int k, v_t amount, int pos, int reason) {
    return rg_set(st, cx, k, st->counters[k] + amount, pos, reason);
}

static void rg_take_out(rg_state *st, int z, v_t c) {
    int32_t n = st->zlen[z], *it = rg_items(st, z);
    if (n && it[n - 1] == c) {  /* most moves take the top */
        st->zlen[z] = n - 1;
        return;
    }
    for (int32_t i = 0; i < n; i++)
        if (it[i] == c) {
            memmove(&it[i], &it[i + 1], sizeof(int32_t) * (size_t)(n - 1 - i));
            st->zlen[z] = n - 1;
            return;
        }
}

static void rg_put(rg_state *st, int z, v_t c, int bottom) {
    int32_t n = st->zlen[z], *it = rg_items(st, z);
    if (bottom) {
        memmove(&it[1], &it[0], sizeof(int32_t) * (size_t)n);
        it[0] = (int32_t)c;
    } else {
        it[n] = (int32_t)c;
    }
    st->zlen[z] = n + 1;
}

static void rg_move(rg_state *st, rg_cx *cx, v_t c, int z, int bottom, int pos) {
    if (c < 0) return;  /* none moves nowhere */
    int32_t old = st->where[c];
    if (old == z) {  /* already there: it goes on top (or to the bottom) */
        int32_t n = st->zlen[z], *it = rg_items(st, z);
        if (bottom ? it[0] != c : it[n - 1] != c) {
            rg_take_out(st, z, c);
            rg_put(st, z, c, bottom);
            if (cx->log->on) {
                rg_event *e = rg_emit(st, cx, EV_MOVE, pos);
                e->a = c; e->b = z; e->c = z;
            }
        }
        return;
    }
    if (!st->is_made[z]) {  /* the Python backend makes a zone's list on the first move into it */
        st->is_made[z] = 1;
        st->made[st->nmade++] = z;
    }
    if (RG_ZONE_CAPACITY[z] >= 0 && st->zlen[z] >= RG_ZONE_CAPACITY[z]) rg_fault(st, cx, F_FULL, pos);
    if (old >= 0) rg_take_out(st, old, c);
    rg_put(st, z, c, bottom);
    st->where[c] = z;
    if (st->tapped[c] && !RG_ZONE_IN_PLAY[z]) st->tapped[c] = 0;  /* out of play, a card stands up, unsaid */
    if (st->ntags[c] && !RG_ZONE_KEEPS_TAGS[z]) {  /* tags are kept only in some zones */
        for (int32_t i = 0; i < st->ntags[c]; i++)
            if (cx->log->on) {
                rg_event *e = rg_emit(st, cx, EV_TAG, pos);
                e->a = c; e->b = st->tags[c][i]; e->c = 0;
            }
        st->ntags[c] = 0;
    }
    for (int32_t i = RG_LOST_FIRST[z]; i < RG_LOST_FIRST[z + 1]; i++) {  /* counters not kept there */
        int32_t k = RG_LOST[i] + (int32_t)c;
        if (st->counters[k] != 0) rg_set(st, cx, k, 0, pos, R_SET);
    }
    if (cx->watch) rg_watch_move(cx->watch, (int32_t)c, old, z);
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_MOVE, pos);
        e->a = c; e->b = old; e->c = z;
    }
}

/* numbers as the Python backend checks them (limits.MAX_NUMBER) */
static inline v_t rg_big(rg_state *st, rg_cx *cx, v_t v, int pos) {
    if (v < -RG_MAX_NUMBER || v > RG_MAX_NUMBER) rg_fault(st, cx, F_TOO_BIG, pos);
    return v;
}

/* frames and the end of the game ----------------------------------------------------- */
static rg_frame *rg_push(rg_state *st, rg_cx *cx, int proc, int32_t me, int32_t you, int pos) {
    if (st->depth >= RG_MAX_DEPTH) rg_fault(st, cx, F_TOO_DEEP, pos);
    rg_frame *fr = &st->frames[st->depth++];
    fr->arena = st->arena_top;
    fr->proc = proc;
    fr->pc = 0;
    fr->me = me;
    fr->you = you;
    return fr;
}

static void rg_win(rg_state *st, rg_cx *cx, int32_t mask, int pos) {
    st->winners = mask;
    st->won = 1;
    st->depth = 0;
    st->pending = 0;
    if (cx->log->on) rg_emit(st, cx, EV_WIN, pos)->a = mask;
}

static inline int32_t rg_seat(rg_state *st, rg_cx *cx, v_t p, int pos) {
    if (p < 0 || p >= st->n) rg_fault(st, cx, F_NOT_PLAYER, pos);
    return (int32_t)p;
}

static inline int rg_flag_of(const rg_state *st, const int8_t *flags, v_t p) {  /* a seat's flag; none's is 0 */
    return p >= 0 && p < st->n && flags[p];
}

static inline int64_t rg_mod(v_t a, v_t n) {
    v_t r = a % n;
    return r < 0 ? r + n : r;  /* Python's %: the sign of the divisor */
}

/* decisions -------------------------------------------------------------------------- */
static void rg_resolve(rg_state *st, rg_cx *cx, int index, int autom);  /* in machine.c */

static inline void rg_option(rg_state *st, rg_cx *cx, int k, v_t x, int pos) {
    if (st->nopt >= RG_MAX_OPTIONS) rg_fault(st, cx, F_TOO_MANY_OPTIONS, pos);
    st->opt_option[st->nopt] = k;
    st->opt_val[st->nopt] = x;
    st->nopt++;
}

/* values ------------------------------------------------------------------------------ */
static inline v_t rg_some(rg_state *st, rg_cx *cx, v_t v, int pos) {
    if (v < 0) rg_fault(st, cx, F_NONE, pos);
    return v;
}

static inline int64_t rg_all(int32_t n) { return n >= 64 ? -1 : (int64_t)((1ULL << n) - 1); }

static inline v_t rg_lowest(int64_t mask) { return mask ? (v_t)__builtin_ctzll((uint64_t)mask) : -1; }
static inline v_t rg_highest(int64_t mask) { return mask ? (v_t)(63 - __builtin_clzll((uint64_t)mask)) : -1; }

static inline int rg_in_mask(v_t x, int64_t mask) { return x >= 0 && x < 64 && (mask >> x & 1); }

static inline v_t rg_nth(rg_state *st, rg_cx *cx, v_t k, int32_t count, int pos) {
    if (k < 1 || k > count) rg_fault(st, cx, F_INDEX, pos);
    return k - 1;
}

static inline v_t rg_mod_of(rg_state *st, rg_cx *cx, v_t a, v_t b, int pos) {
    if (b == 0) rg_fault(st, cx, F_DIVISION, pos);
    v_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;  /* Python's %: the sign of the divisor */
}

static inline v_t rg_div(rg_state *st, rg_cx *cx, v_t a, v_t b, int pos) {
    if (b == 0) rg_fault(st, cx, F_DIVISION, pos);
    v_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;  /* Python's //: towards minus infinity */
}

/* players and teams as bit masks of seats */
static inline int64_t rg_members(rg_state *st, v_t t) {
    int64_t m = 0;
    for (int32_t s = 0; s < st->n; s++) if (st->team_of[s] == t) m |= 1LL << s;
    return m;
}
static inline int64_t rg_partners(rg_state *st, v_t p) { return rg_members(st, st->team_of[p]) & ~(1LL << p); }
static inline int64_t rg_opponents(rg_state *st, v_t p) { return rg_all(st->n) & ~rg_members(st, st->team_of[p]); }

/* zones and where components lie */
static inline int rg_in_zone(rg_state *st, v_t c, v_t z) { return c >= 0 && z >= 0 && st->where[c] == z; }
static inline v_t rg_first_in(rg_state *st, v_t z) { return st->zlen[z] ? rg_items(st, (int)z)[0] : -1; }
static inline v_t rg_zone_of(rg_state *st, v_t c) { return c >= 0 ? st->where[c] : -1; }


/* the player whose zone holds c, following components that hold components; -1 for none */
static inline v_t rg_controller(rg_state *st, v_t c) {
    for (int seen = 0; c >= 0 && seen < 64; seen++) {
        int32_t z = st->where[c];
        if (z < 0) return -1;
        if (RG_ZONE_HOLDER_KIND[z] == 1) return RG_ZONE_HOLDER[z];
        if (RG_ZONE_HOLDER_KIND[z] != 4) return -1;
        c = RG_ZONE_HOLDER[z];
    }
    return -1;
}

/* whether component c lies in play: in an in-play zone of something in play */
static inline int rg_live(rg_state *st, v_t c) {
    for (int seen = 0; seen < 64; seen++) {
        int32_t z = st->where[c];
        if (z < 0 || !RG_ZONE_IN_PLAY[z]) return 0;
        if (RG_ZONE_HOLDER_KIND[z] != 4) return 1;
        c = RG_ZONE_HOLDER[z];
    }
    return 0;
}

/* the components in play (of player `who`, or all for -1), zone by zone in the order the
   zones were made, as the Python backend lists them */
static int32_t rg_in_play(rg_state *st, rg_cx *cx, v_t *out, v_t who) {
    int32_t n = 0;
    for (int32_t i = 0; i < st->nmade; i++) {
        int32_t z = st->made[i], len = st->zlen[z];
        if (!len || !RG_ZONE_IN_PLAY[z]) continue;
        v_t h = -1;
        int held = RG_ZONE_HOLDER_KIND[z] == 4;
        if (held && !rg_live(st, RG_ZONE_HOLDER[z])) continue;
        if (who >= 0) {
            if (held) h = rg_controller(st, RG_ZONE_HOLDER[z]);
            else if (RG_ZONE_HOLDER_KIND[z] == 1) h = RG_ZONE_HOLDER[z];
            if (h != who) continue;
        }
        if (n + len > RG_LIST) rg_fault(st, cx, F_TOO_LONG, -1);
        for (int32_t k = 0; k < len; k++) out[n++] = rg_items(st, z)[k];
    }
    return n;
}

/* tags */
static inline int rg_tagged(rg_state *st, v_t c, int tag) {
    for (int32_t i = 0; i < st->ntags[c]; i++) if (st->tags[c][i] == tag) return 1;
    return 0;
}

static void rg_tag(rg_state *st, rg_cx *cx, v_t c, int tag, int on, int pos) {
    if (c < 0) rg_fault(st, cx, F_NONE, pos);
    int has = rg_tagged(st, c, tag);
    if (on == has) return;  /* nothing changes */
    if (on) {
        st->tags[c][st->ntags[c]++] = (int8_t)tag;
    } else {
        int32_t j = 0;
        for (int32_t i = 0; i < st->ntags[c]; i++) if (st->tags[c][i] != tag) st->tags[c][j++] = st->tags[c][i];
        st->ntags[c] = (int8_t)j;
    }
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_TAG, pos);
        e->a = c; e->b = tag; e->c = on;
    }
}

/* most(): the value met strictly most often, as it was first met; none on a tie */
static int32_t rg_count_in(rg_state *st, rg_cx *cx, v_t *vals, int64_t *counts, int32_t n, v_t x) {
    for (int32_t i = 0; i < n; i++) if (vals[i] == x) { counts[i]++; return n; }
    if (n >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, -1);
    vals[n] = x;
    counts[n] = 1;
    return n + 1;
}

static v_t rg_most(const v_t *vals, const int64_t *counts, int32_t n) {
    int64_t best = 0;
    v_t found = -1;
    int ties = 0;
    for (int32_t i = 0; i < n; i++) {
        if (counts[i] > best) { best = counts[i]; found = vals[i]; ties = 0; }
        else if (counts[i] == best) ties = 1;
    }
    return ties ? -1 : found;
}

/* a frame ends: the lists its loops and variables kept in the arena go with it */
static inline void rg_pop(rg_state *st) {
    st->depth--;
    st->arena_top = st->frames[st->depth].arena;
}

/* leave procedure `proc` and all it called; with none running, stop everything */
static void rg_exit(rg_state *st, int proc) {
    for (int32_t i = st->depth - 1; i >= 0; i--)
        if (st->frames[i].proc == proc) {
            st->depth = i;
            st->arena_top = st->frames[i].arena;
            return;
        }
    st->depth = 0;
    st->arena_top = 0;
}

/* taps */
static inline int rg_is_tapped(rg_state *st, v_t c) { return c >= 0 && st->tapped[c]; }

static void rg_tap(rg_state *st, rg_cx *cx, v_t c, int on, int pos) {
    if (c < 0) rg_fault(st, cx, F_NONE, pos);
    if (st->tapped[c] == on) return;
    st->tapped[c] = (int8_t)on;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_TAP, pos);
        e->a = c; e->c = on;
    }
}

/* points scored, credited to the component that brought them */
static void rg_score(rg_state *st, rg_cx *cx, int k, v_t amount, int pos, v_t c) {
    v_t given = rg_add(st, cx, k, amount, pos, R_SCORE);
    if (given && c >= 0) st->credit[c * RG_SCORE_OWNERS + (k - RG_SCORE_BASE)] += given;
}

/* sorted(): the order of n values by their keys, ascending, equal keys in their order
   (a stable insertion sort: the lists of the rules are short), each step a unit of work */
static void rg_sort(rg_state *st, rg_cx *cx, const v_t *keys, int32_t *idx, int32_t n, int pos) {
    for (int32_t i = 0; i < n; i++) {
        int32_t j = i;
        rg_work(st, cx, 1, pos);
        while (j > 0 && keys[idx[j - 1]] > keys[i]) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
}

/* distinct(): the values in their order, each once */
static int32_t rg_distinct(v_t *vals, int32_t n) {
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        int seen = 0;
        for (int32_t j = 0; j < m; j++) if (vals[j] == vals[i]) { seen = 1; break; }
        if (!seen) vals[m++] = vals[i];
    }
    return m;
}

/* node(name): the node whose id is that name */
static inline v_t rg_node_of(rg_state *st, rg_cx *cx, v_t name, int pos) {
    if (name < 0 || name >= RG_NODE_NAMES || RG_NODE_OF_NAME[name] < 0) rg_fault(st, cx, F_NO_NODE, pos);
    return RG_NODE_OF_NAME[name];
}

/* owner(c): the seat a component belongs to, else the player whose zone holds it */
static inline v_t rg_owner(rg_state *st, v_t c) {
    if (c < 0) return -1;
    return RG_OWNER[c] >= 0 ? RG_OWNER[c] : rg_controller(st, c);
}

/* lists kept in variables ------------------------------------------------------------
   A kept list lies in the arena, its handle (offset << 24 | length) in a slot of its frame.
   The arena is a stack: a frame's lists lie above its caller's, and go when it ends. When it
   fills, it is compacted: the lists the frames still hold are moved down, in order. */
#define RG_OFF(h) ((int32_t)((h) >> 24))
#define RG_LEN(h) ((int32_t)((h) & 0xFFFFFF))
#define RG_HANDLE(off, len) (((v_t)(off) << 24) | (v_t)(len))

static void rg_compact(rg_state *st) {
    static int32_t at[RG_MAX_DEPTH * RG_LOCALS], dep[RG_MAX_DEPTH * RG_LOCALS], slot[RG_MAX_DEPTH * RG_LOCALS];
    int32_t n = 0;
    for (int32_t d = 0; d < st->depth; d++) {
        rg_frame *fr = &st->frames[d];
        for (int32_t i = RG_REF_FIRST[fr->proc]; i < RG_REF_FIRST[fr->proc + 1]; i++) {
            v_t h = fr->loc[RG_REFS[i]];
            if (h <= 0 || RG_LEN(h) == 0) continue;
            int32_t j = n++;  /* insertion by offset: the arena's lists in their order */
            while (j > 0 && at[j - 1] > RG_OFF(h)) {
                at[j] = at[j - 1]; dep[j] = dep[j - 1]; slot[j] = slot[j - 1];
                j--;
            }
            at[j] = RG_OFF(h); dep[j] = d; slot[j] = RG_REFS[i];
        }
    }
    int32_t top = 0, last_old = -1, last_new = 0, last_len = 0, f = 0;
    for (int32_t k = 0; k < n; k++) {
        v_t *cell = &st->frames[dep[k]].loc[slot[k]];
        int32_t len = RG_LEN(*cell), off = at[k];
        while (f < st->depth && st->frames[f].arena <= off) st->frames[f++].arena = top;
        if (off == last_old && len == last_len) {  /* a list two slots hold: moved once */
            *cell = RG_HANDLE(last_new, len);
            continue;
        }
        if (off < last_old + last_len) {  /* part of the list before it: it moved with it */
            *cell = RG_HANDLE(last_new + (off - last_old), len);
            continue;
        }
        memmove(&st->arena[top], &st->arena[off], sizeof(v_t) * (size_t)len);
        last_old = off; last_new = top; last_len = len;
        *cell = RG_HANDLE(top, len);
        top += len;
    }
    while (f < st->depth) st->frames[f++].arena = top;
    st->arena_top = top;
}

/* a list of `n` values (in `buf`, on the C stack) kept in the arena: its handle */
static v_t rg_keep(rg_state *st, rg_cx *cx, const v_t *buf, int32_t n, int pos) {
    if (n == 0) return 0;
    if (st->arena_top + n > RG_ARENA) rg_compact(st);
    if (st->arena_top + n > RG_ARENA || n > 0xFFFFFF) rg_fault(st, cx, F_TOO_LONG, pos);
    int32_t off = st->arena_top;
    memcpy(&st->arena[off], buf, sizeof(v_t) * (size_t)n);
    st->arena_top = off + n;
    return RG_HANDLE(off, n);
}

static inline v_t rg_kept_at(rg_state *st, rg_cx *cx, v_t h, v_t k, int pos) {
    if (k < 1 || k > RG_LEN(h)) rg_fault(st, cx, F_INDEX, pos);
    return st->arena[RG_OFF(h) + k - 1];
}

/* attributes the rules set: the value set, else the card's */
static inline v_t rg_attr(rg_state *st, int a, v_t c, v_t printed) {
    v_t v = st->over[a * RG_COMPS + c];
    return v != RG_MISSING ? v : printed;
}

static void rg_set_attr(rg_state *st, rg_cx *cx, int a, v_t c, v_t v, int pos) {
    if (c < 0) rg_fault(st, cx, F_NOT_COMPONENT, pos);
    st->over[a * RG_COMPS + c] = v;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_SET, pos);
        e->a = c; e->b = a; e->c = v;
    }
}

/* a number only some cards or nodes have, read on one that has it */
static inline v_t rg_present(rg_state *st, rg_cx *cx, v_t v, int pos) {
    if (v == RG_MISSING) rg_fault(st, cx, F_TYPE, pos);
    return v;
}

/* `fail`: the running ability is abandoned (its effect is impossible, so it is lost): frames
   end down to the ability or action's own; with none running, the game stops */
static void rg_fail(rg_state *st, rg_cx *cx, int text, const v_t *vals, int n, int pos) {
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_FAIL, pos);
        e->text = text;
        for (int i = 0; i < n; i++) rg_value(st, cx, e, vals[i]);
    }
    st->fail_text = text;
    st->fail_n = n < 8 ? n : 8;
    for (int i = 0; i < st->fail_n; i++) st->fail_vals[i] = vals[i];
    while (st->depth > 0) {
        int32_t proc = st->frames[st->depth - 1].proc;
        rg_pop(st);
        if (RG_IS_ABILITY[proc]) return;
    }
    rg_fault(st, cx, F_FAILED, pos);
}

/* holder(): the slot of the zone a component lies in, when it belongs to someone (-1: none);
   read as the kind of owner the rules use it as, a fault if it is of another kind */
static inline v_t rg_holder_zone(rg_state *st, v_t c) {
    if (c < 0) return -1;
    int32_t z = st->where[c];
    return (z < 0 || RG_ZONE_HOLDER_KIND[z] == 0) ? -1 : z;
}

static inline v_t rg_held(rg_state *st, rg_cx *cx, v_t h, int kind, int pos) {
    if (h < 0) return -1;
    if (RG_ZONE_HOLDER_KIND[h] != kind) rg_fault(st, cx, F_TYPE, pos);
    return RG_ZONE_HOLDER[h];
}

static inline int rg_holder_is(v_t h, int kind, v_t x) {
    return h >= 0 && RG_ZONE_HOLDER_KIND[h] == kind && RG_ZONE_HOLDER[h] == x;
}

static inline v_t rg_holder_is_comp(v_t h) {
    return (h >= 0 && RG_ZONE_HOLDER_KIND[h] == 4) ? RG_ZONE_HOLDER[h] : -1;
}

static inline int rg_same_holder(v_t a, v_t b) {
    if (a < 0 || b < 0) return a == b;
    return RG_ZONE_HOLDER_KIND[a] == RG_ZONE_HOLDER_KIND[b] && RG_ZONE_HOLDER[a] == RG_ZONE_HOLDER[b];
}

/* `[a, b]` of two numbers as one value */
static inline v_t rg_pair(rg_state *st, rg_cx *cx, v_t a, v_t b, int pos) {
    if (a < INT32_MIN || a > INT32_MAX || b < INT32_MIN || b > INT32_MAX) rg_fault(st, cx, F_TYPE, pos);
    return (v_t)(((uint64_t)(uint32_t)a << 32) | (uint32_t)b);
}

/* a kept list a text shows: its length, then its members */
static void rg_value_list(rg_state *st, rg_cx *cx, rg_event *e, v_t h) {
    rg_value(st, cx, e, RG_LEN(h));
    for (int32_t i = 0; i < RG_LEN(h); i++) rg_value(st, cx, e, st->arena[RG_OFF(h) + i]);
}

/* a holder as an owner of a kind, or -1 when it is of another (never a member of its list) */
static inline v_t rg_holder_as(v_t h, int kind) {
    return (h >= 0 && RG_ZONE_HOLDER_KIND[h] == kind) ? RG_ZONE_HOLDER[h] : -1;
}
