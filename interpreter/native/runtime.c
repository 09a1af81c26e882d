/* The run-time of the native backend: the state as slots, the random draws, moves,
   counters, the record of events, decisions and the machine that runs the game's
   procedures. The generated part of a game (its sizes, tables and procedures) is written
   before this file (RG_* sizes and tables) and after it (the procedures, the menus and
   the entry points) by interpreter/native/emit.py; nothing here knows any game.

   A fault of the rules (a runaway loop, procedures nested too deeply, a choice with no
   option, a number too large, a full zone) jumps back to `rg_run`, which returns its code;
   the Python side turns it into the same GameFault the Python backend raises. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>

typedef int64_t v_t;

typedef struct {
    int32_t proc, pc, me, you;
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
    int64_t fuel;
    int64_t decisions;
    uint64_t rng;
    int32_t opt_option[RG_MAX_OPTIONS];
    v_t opt_val[RG_MAX_OPTIONS];
    v_t options[RG_OPTIONS];
    v_t counters[RG_COUNTERS];
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

typedef struct {
    rg_log *log;
    jmp_buf jb;
} rg_cx;

enum { EV_SHUFFLE = 1, EV_COUNTER, EV_CHOICE, EV_MOVE, EV_WIN };
enum { F_RUNAWAY = 1, F_TOO_DEEP, F_NO_OPTION, F_TOO_BIG, F_FULL, F_NO_MEMORY, F_NOT_COMPONENT, F_NOT_ZONE,
       F_NOT_PLAYER, F_TOO_MANY_OPTIONS };
enum { R_SET = 0, R_ADD, R_REMOVE, R_GAIN, R_LOSE, R_SCORE, R_PAY };

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
    if (RG_ZONE_CAPACITY[z] >= 0 && st->zlen[z] >= RG_ZONE_CAPACITY[z]) rg_fault(st, cx, F_FULL, pos);
    if (old >= 0) rg_take_out(st, old, c);
    rg_put(st, z, c, bottom);
    st->where[c] = z;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_MOVE, pos);
        e->a = c; e->b = old; e->c = z;
    }
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
    if (s >= 0) st->counters[s] -= delta;
    st->counters[k] = v;
    if (cx->log->on) {
        rg_event *e = rg_emit(st, cx, EV_COUNTER, pos);
        e->a = k; e->b = delta; e->c = v; e->d = reason;
    }
    return delta;
}

static inline v_t rg_add(rg_state *st, rg_cx *cx, int k, v_t amount, int pos, int reason) {
    return rg_set(st, cx, k, st->counters[k] + amount, pos, reason);
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
