/* The fast parser's loop in C: the grammar's LALR tables and contextual lexers, run over a
 * rules text, calling the same tree-building methods at each reduction as the loop in Python
 * (language/fastparse.py), which is the reference. language/native_parse.py builds, loads and
 * sets it up with the tables it reads from the Python loop's.
 *
 * It lexes, counts lines and columns, applies the indentation rules, shifts and reduces, and
 * makes each reduction's children, span and height as the Python loop does; only the calls
 * of the tree-building methods and of the token class are Python. Whatever the Python loop
 * would give up on (an unexpected character or token, a bad dedent, a tree deeper than the
 * bound), and anything unforeseen (a method's exception), makes `parse` return None, so that
 * the text is parsed again by Lark, which reports what is wrong. Nothing here runs
 * anything the text says: it reads characters and calls the methods it was set up with.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* how each terminal is matched: a list of literal texts, first matching wins (a keyword, an
 * operator, an alternation of them), or one of the patterns of the grammar's other terminals */
enum { M_LITERALS, M_NAME, M_DIGITS, M_STRING, M_COMMENT, M_NEWLINES, M_BLANKS };
/* rule kinds: what a reduction makes */
enum { R_UNIT, R_INLINE, R_EXPAND1, R_NODE, R_LARK }; /* fastparse.RuleKind */
/* kinds of stack entries, as the Python loop's */
enum { K_TOKEN, K_TREE, K_INLINE, K_NOTHING };

#define GIVE_UP 1 /* the text is left to Lark; -1 stands for an error (a Python exception set) */

typedef struct {
    int matcher;
    Py_ssize_t nlit;      /* M_LITERALS: the texts, in the order tried */
    Py_UCS4 **lit;
    Py_ssize_t *litlen;
    PyObject *name;       /* its type name, as Tokens carry it */
    int kept;             /* some rule keeps its token: a Token is made of it */
    int opening, closing; /* a bracket, for the indentation rules */
} Terminal;

typedef struct {
    Py_ssize_t n;
    int *terms;           /* the terminals tried, in order */
    char *ignored, *newlines; /* by terminal, within this lexer */
    PyObject **unless;    /* by terminal: dict word -> terminal id (a keyword matched as a name), or NULL */
} Lexer;

typedef struct {
    int size, origin, kind, wants_meta;
    Py_ssize_t ninclude, trailing;
    int *inc_index, *inc_expand, *inc_nones;
    PyObject *func;
} Rule;

/* A grammar's tables, as `setup` makes them: held by a capsule, freed with it. */
typedef struct {
    int nterms, nstates, nnonterms, nrules, nlexers;
    Terminal *terms;
    Lexer *lexers;
    Rule *rules;
    int *actions;   /* [state][terminal]: 0 error, k > 0 shift to k - 1, k < 0 reduce rule -k - 1 */
    int *gotos;     /* [state][nonterminal]: the state after a reduction, or -1 */
    int *lexer_of;  /* [state] */
    int t_nl, t_indent, t_dedent, t_end, tab_len, max_depth;
    PyObject *new_token, *meta_type, *nowhere;
} Grammar;

#define CAPSULE "regles LALR tables"

/* A stack entry: a token, a tree, the children of an inlined rule, or a placeholder. */
typedef struct Entry {
    PyObject *value;      /* owned; NULL stands for None */
    struct Entry *kids;   /* K_INLINE: owned */
    Py_ssize_t nkids;
    Py_ssize_t l0, c0, l1, c1; /* its span; l0 == 0: none */
    int height, kind;
} Entry;

static void clear_entry(Entry *e) {
    Py_CLEAR(e->value);
    if (e->kids != NULL) {
        for (Py_ssize_t i = 0; i < e->nkids; i++) clear_entry(&e->kids[i]);
        PyMem_Free(e->kids);
        e->kids = NULL;
    }
    e->nkids = 0;
}

typedef struct {
    int *states;
    Py_ssize_t nstates, capstates;
    Entry *entries;
    Py_ssize_t nentries, capentries;
} Stacks;

static int push_state(Stacks *s, int state) {
    if (s->nstates == s->capstates) {
        Py_ssize_t cap = s->capstates ? s->capstates * 2 : 64;
        int *grown = PyMem_Realloc(s->states, cap * sizeof(int));
        if (grown == NULL) return -1;
        s->states = grown;
        s->capstates = cap;
    }
    s->states[s->nstates++] = state;
    return 0;
}

static int push_entry(Stacks *s, Entry *e) { /* moves *e in */
    if (s->nentries == s->capentries) {
        Py_ssize_t cap = s->capentries ? s->capentries * 2 : 64;
        Entry *grown = PyMem_Realloc(s->entries, cap * sizeof(Entry));
        if (grown == NULL) return -1;
        s->entries = grown;
        s->capentries = cap;
    }
    s->entries[s->nentries++] = *e;
    memset(e, 0, sizeof(Entry));
    return 0;
}

/* ---- the lexer: Python's `re` semantics for the patterns it knows ---- */

static inline int is_word(Py_UCS4 c) { return Py_UNICODE_ISALNUM(c) || c == '_'; }   /* \w */
static inline int is_digit(Py_UCS4 c) { return Py_UNICODE_ISDECIMAL(c); }            /* \d */

/* the length matched by terminal `t` at `pos`, or 0 */
static Py_ssize_t match(const Terminal *t, int kind, const void *data, Py_ssize_t pos, Py_ssize_t end) {
    Py_ssize_t i = pos;
    Py_UCS4 c;
    switch (t->matcher) {
    case M_LITERALS:
        for (Py_ssize_t k = 0; k < t->nlit; k++) {
            Py_ssize_t n = t->litlen[k], j = 0;
            if (n > end - pos) continue;
            while (j < n && PyUnicode_READ(kind, data, pos + j) == t->lit[k][j]) j++;
            if (j == n && n > 0) return n;
        }
        return 0;
    case M_NAME: /* [^\W\d][\w']* */
        c = PyUnicode_READ(kind, data, i);
        if (!is_word(c) || is_digit(c)) return 0;
        for (i++; i < end; i++) {
            c = PyUnicode_READ(kind, data, i);
            if (!is_word(c) && c != '\'') break;
        }
        return i - pos;
    case M_DIGITS: /* \d+ */
        while (i < end && is_digit(PyUnicode_READ(kind, data, i))) i++;
        return i - pos;
    case M_STRING: /* "([^"\\\n]|\\.)*" */
        if (PyUnicode_READ(kind, data, i) != '"') return 0;
        for (i++; i < end; i++) {
            c = PyUnicode_READ(kind, data, i);
            if (c == '"') return i + 1 - pos;
            if (c == '\n') return 0;
            if (c == '\\') {
                if (i + 1 >= end || PyUnicode_READ(kind, data, i + 1) == '\n') return 0;
                i++;
            }
        }
        return 0;
    case M_COMMENT: /* #[^\n]* */
        if (PyUnicode_READ(kind, data, i) != '#') return 0;
        for (i++; i < end && PyUnicode_READ(kind, data, i) != '\n'; i++) {}
        return i - pos;
    case M_NEWLINES: /* (\r?\n[\t ]*|#[^\n]*)+ */
        while (i < end) {
            c = PyUnicode_READ(kind, data, i);
            if (c == '#') {
                for (i++; i < end && PyUnicode_READ(kind, data, i) != '\n'; i++) {}
            } else if (c == '\n' || (c == '\r' && i + 1 < end && PyUnicode_READ(kind, data, i + 1) == '\n')) {
                i += c == '\r' ? 2 : 1;
                while (i < end && ((c = PyUnicode_READ(kind, data, i)) == ' ' || c == '\t')) i++;
            } else {
                break;
            }
        }
        return i - pos;
    case M_BLANKS: /* [\t ]+ */
        while (i < end && ((c = PyUnicode_READ(kind, data, i)) == ' ' || c == '\t')) i++;
        return i - pos;
    }
    return 0;
}

/* ---- a reduction: the children, span and height the Python loop's builders make ---- */

static void span_of(Entry *kids, Py_ssize_t n, Entry *out) {
    Py_ssize_t first = -1, last = -1;
    for (Py_ssize_t i = 0; i < n; i++) if (kids[i].l0) { first = i; break; }
    for (Py_ssize_t i = n - 1; i >= 0; i--) if (kids[i].l0) { last = i; break; }
    if (first < 0) {
        out->l0 = out->c0 = out->l1 = out->c1 = 0;
        return;
    }
    out->l0 = kids[first].l0;
    out->c0 = kids[first].c0;
    out->l1 = kids[last].l1;
    out->c1 = kids[last].c1;
}

/* The children of rule `r` from its `kids` (moved out of them): those it keeps, the inlined
 * rules' children in their place, and placeholders for absent optional items. */
static int children_of(const Rule *r, Entry *kids, Entry **out, Py_ssize_t *nout) {
    Py_ssize_t cap = r->trailing, n = 0;
    for (Py_ssize_t k = 0; k < r->ninclude; k++)
        cap += r->inc_nones[k] + (r->inc_expand[k] ? kids[r->inc_index[k]].nkids : 1);
    Entry *children = PyMem_Calloc(cap ? cap : 1, sizeof(Entry));
    if (children == NULL) return -1;
    for (Py_ssize_t k = 0; k < r->ninclude; k++) {
        n += r->inc_nones[k]; /* placeholders: zeroed entries of kind K_TOKEN... */
        for (Py_ssize_t j = n - r->inc_nones[k]; j < n; j++) children[j].kind = K_NOTHING;
        Entry *kid = &kids[r->inc_index[k]];
        if (r->inc_expand[k]) {
            if (kid->kind != K_INLINE) { /* an inlined rule that is not a list: left to the Python loop */
                for (Py_ssize_t j = 0; j < n; j++) clear_entry(&children[j]);
                PyMem_Free(children);
                return GIVE_UP;
            }
            for (Py_ssize_t j = 0; j < kid->nkids; j++) children[n++] = kid->kids[j];
            PyMem_Free(kid->kids);
            kid->kids = NULL;
            kid->nkids = 0;
        } else {
            children[n++] = *kid;
            memset(kid, 0, sizeof(Entry));
        }
    }
    for (Py_ssize_t j = 0; j < r->trailing; j++) children[n++].kind = K_NOTHING;
    *out = children;
    *nout = n;
    return 0;
}

static PyObject *meta_of(const Grammar *g, const Entry *span) {
    if (!span->l0) {
        Py_INCREF(g->nowhere);
        return g->nowhere;
    }
    /* the _Meta named tuple, made as tuple.__new__(_Meta, ...) makes it */
    PyObject *m = ((PyTypeObject *)g->meta_type)->tp_alloc((PyTypeObject *)g->meta_type, 4);
    if (m == NULL) return NULL;
    Py_ssize_t v[4] = {span->l0, span->c0, span->l1, span->c1};
    for (int i = 0; i < 4; i++) {
        PyObject *n = PyLong_FromSsize_t(v[i]);
        if (n == NULL) { Py_DECREF(m); return NULL; }
        PyTuple_SET_ITEM(m, i, n);
    }
    return m;
}

/* Reduce the top `size` entries by rule `r` into `out` (moved); 0, GIVE_UP or -1 (error). */
static int reduce(const Grammar *g, const Rule *r, Entry *kids, PyObject *tn, Entry *out) {
    Entry *children = NULL;
    Py_ssize_t n = 0;
    int rc;
    memset(out, 0, sizeof(Entry));
    if (r->kind == R_LARK) return GIVE_UP;
    Entry span;
    span_of(kids, r->size, &span);
    if ((rc = children_of(r, kids, &children, &n)) != 0) return rc;
    if (r->kind == R_INLINE) {
        out->kids = children;
        out->nkids = n;
        out->l0 = span.l0; out->c0 = span.c0; out->l1 = span.l1; out->c1 = span.c1;
        out->kind = K_INLINE;
        return 0;
    }
    if (r->kind == R_EXPAND1) {
        rc = GIVE_UP;
        if (n == 1) {
            *out = children[0];
            memset(&children[0], 0, sizeof(Entry));
            rc = 0;
            if (out->kind == K_TREE && span.l0) {
                if (!out->l0) rc = GIVE_UP; /* an empty tree given a place afterwards */
                out->l0 = span.l0; out->c0 = span.c0; out->l1 = span.l1; out->c1 = span.c1;
            }
            if (rc != 0) clear_entry(out);
        }
        for (Py_ssize_t j = 0; j < n; j++) clear_entry(&children[j]);
        PyMem_Free(children);
        return rc;
    }
    /* R_NODE: the tree-building method of the rule, given the children's values */
    int height = 0;
    PyObject *values = PyList_New(n);
    rc = values == NULL ? -1 : 0;
    for (Py_ssize_t j = 0; j < n && rc == 0; j++) {
        if (children[j].kind == K_INLINE) { rc = GIVE_UP; break; }
        PyObject *v = children[j].value ? children[j].value : Py_None;
        Py_INCREF(v);
        PyList_SET_ITEM(values, j, v);
        if (children[j].height > height) height = children[j].height;
    }
    for (Py_ssize_t j = 0; j < n; j++) clear_entry(&children[j]);
    PyMem_Free(children);
    if (rc != 0) {
        Py_XDECREF(values);
        return rc;
    }
    PyObject *made;
    if (r->wants_meta) {
        PyObject *meta = meta_of(g, &span);
        if (meta == NULL) { Py_DECREF(values); return -1; }
        PyObject *args[3] = {tn, meta, values};
        made = PyObject_Vectorcall(r->func, args, 3, NULL);
        Py_DECREF(meta);
    } else {
        PyObject *args[2] = {tn, values};
        made = PyObject_Vectorcall(r->func, args, 2, NULL);
    }
    Py_DECREF(values);
    if (made == NULL) return -1;
    out->value = made == Py_None ? (Py_DECREF(made), (PyObject *)NULL) : made;
    out->l0 = span.l0; out->c0 = span.c0; out->l1 = span.l1; out->c1 = span.c1;
    out->height = height + 1;
    out->kind = K_TREE;
    return 0;
}

/* ---- the parser: one token fed, as Lark's LALR parser takes it ---- */

/* 0: shifted; 2: the text's tree is made (in *root); GIVE_UP; -1: error */
static int feed(const Grammar *g, Stacks *s, Entry *tok, int has_entry, int type, int done, int end_state, PyObject *tn, PyObject **root) {
    for (;;) {
        int top = s->states[s->nstates - 1];
        int a = g->actions[top * g->nterms + type];
        if (a == 0) return GIVE_UP; /* an unexpected token: Lark says which */
        if (a > 0) {
            if (!has_entry) return GIVE_UP;
            if (push_state(s, a - 1) < 0 || push_entry(s, tok) < 0) return -1;
            return 0;
        }
        const Rule *r = &g->rules[-a - 1];
        if (r->kind == R_UNIT) { /* `?rule: child`: the child stands for the rule */
            int below = s->states[s->nstates - 2];
            int next = g->gotos[below * g->nnonterms + r->origin];
            if (next < 0) return GIVE_UP;
            s->states[s->nstates - 1] = next;
        } else {
            Entry made;
            Entry *kids = &s->entries[s->nentries - r->size];
            int rc = reduce(g, r, kids, tn, &made);
            for (int j = 0; j < r->size; j++) clear_entry(&kids[j]);
            s->nentries -= r->size;
            s->nstates -= r->size;
            if (rc != 0) return rc;
            int next = g->gotos[s->states[s->nstates - 1] * g->nnonterms + r->origin];
            if (next < 0) { clear_entry(&made); return GIVE_UP; }
            if (push_state(s, next) < 0 || push_entry(s, &made) < 0) { clear_entry(&made); return -1; }
        }
        if (done && s->states[s->nstates - 1] == end_state && type == g->t_end) {
            Entry *e = &s->entries[s->nentries - 1];
            if (e->height > g->max_depth) return GIVE_UP; /* Lark's tree is checked and refused */
            *root = e->value ? e->value : Py_None;
            Py_INCREF(*root);
            return 2;
        }
    }
}

static PyObject *make_token(const Grammar *g, int type, PyObject *text, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t line,
                            Py_ssize_t column, Py_ssize_t end_line, Py_ssize_t end_column) {
    PyObject *value = PyUnicode_Substring(text, start, stop);
    if (value == NULL) return NULL;
    PyObject *nums[6] = {PyLong_FromSsize_t(start), PyLong_FromSsize_t(line), PyLong_FromSsize_t(column),
                         PyLong_FromSsize_t(end_line), PyLong_FromSsize_t(end_column), PyLong_FromSsize_t(stop)};
    PyObject *tok = NULL;
    if (nums[0] && nums[1] && nums[2] && nums[3] && nums[4] && nums[5]) {
        PyObject *args[8] = {g->terms[type].name, value, nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]};
        tok = PyObject_Vectorcall(g->new_token, args, 8, NULL);
    }
    for (int i = 0; i < 6; i++) Py_XDECREF(nums[i]);
    Py_DECREF(value);
    return tok;
}

/* The tree of `text` (ending with a newline) from the start state, or GIVE_UP / -1. */
static int run(const Grammar *g, PyObject *text, int start_state, int end_state, PyObject *tn, PyObject **root) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t end = PyUnicode_GET_LENGTH(text);
    Py_ssize_t pos = 0, line = 1, line_start = 0;
    Py_ssize_t *levels = NULL, nlevels = 1, caplevels = 16;
    Py_ssize_t paren = 0, tok_start = 0;
    Entry last = {0}; /* the span of the last token (the end's dedents take it) */
    int has_last = 0, done = 0, rc = 0;
    Stacks s = {0};
    levels = PyMem_Malloc(caplevels * sizeof(Py_ssize_t));
    if (levels == NULL || push_state(&s, start_state) < 0) { rc = -1; goto out; }
    levels[0] = 0;
    while (!done && rc == 0) {
        const Lexer *lx = &g->lexers[g->lexer_of[s.states[s.nstates - 1]]];
        Entry tok = {0};
        int type = -1, found = 0;
        while (pos < end) {
            Py_ssize_t n = 0;
            int t = -1;
            for (Py_ssize_t k = 0; k < lx->n; k++) {
                n = match(&g->terms[lx->terms[k]], kind, data, pos, end);
                if (n > 0) { t = lx->terms[k]; break; }
            }
            if (t < 0) { rc = GIVE_UP; break; } /* Lark reports the unexpected character */
            Py_ssize_t tok_line = line, tok_column = pos - line_start + 1, tok_pos = pos;
            if (lx->newlines[t]) {
                for (Py_ssize_t i = pos; i < pos + n; i++)
                    if (PyUnicode_READ(kind, data, i) == '\n') { line++; line_start = i + 1; }
            }
            pos += n;
            if (lx->ignored[t]) continue;
            if (lx->unless[t] != NULL) { /* a keyword read as a name: its own terminal */
                PyObject *word = PyUnicode_Substring(text, tok_pos, pos);
                if (word == NULL) { rc = -1; break; }
                PyObject *other = PyDict_GetItemWithError(lx->unless[t], word);
                Py_DECREF(word);
                if (other != NULL) t = (int)PyLong_AsLong(other);
                else if (PyErr_Occurred()) { rc = -1; break; }
            }
            Py_ssize_t tok_end = pos - line_start + 1;
            if (g->terms[t].kept) {
                tok.value = make_token(g, t, text, tok_pos, pos, tok_line, tok_column, line, tok_end);
                if (tok.value == NULL) { rc = -1; break; }
            }
            tok.l0 = tok_line; tok.c0 = tok_column; tok.l1 = line; tok.c1 = tok_end;
            tok.kind = K_TOKEN;
            tok_start = tok_pos;
            type = t;
            found = 1;
            break;
        }
        if (rc != 0) break;
        /* the tokens fed to the parser for this one: the Indenter's, then it */
        Entry borrowed = {0};
        if (!found) { /* the end of the text: the Indenter closes the open blocks, then $END */
            borrowed.l0 = last.l0; borrowed.c0 = last.c0; borrowed.l1 = last.l1; borrowed.c1 = last.c1;
            if (nlevels > 1 && !has_last) { rc = GIVE_UP; break; }
            done = 1;
            for (Py_ssize_t k = 1; k < nlevels && rc == 0; k++) {
                Entry d = borrowed;
                rc = feed(g, &s, &d, 1, g->t_dedent, done, end_state, tn, root);
            }
            if (rc == 0) {
                Entry none = {0};
                rc = feed(g, &s, &none, 0, g->t_end, done, end_state, tn, root);
            }
            if (rc == 0) rc = GIVE_UP; /* $END reached no accepting state */
            break;
        }
        last.l0 = tok.l0; last.c0 = tok.c0; last.l1 = tok.l1; last.c1 = tok.c1;
        has_last = 1;
        if (type == g->t_nl) { /* Lark's Indenter */
            if (paren) { clear_entry(&tok); continue; }
            Py_ssize_t newline = -1, indent = 0;
            for (Py_ssize_t i = pos - 1; i >= tok_start; i--)
                if (PyUnicode_READ(kind, data, i) == '\n') { newline = i; break; }
            if (newline < 0) { clear_entry(&tok); rc = GIVE_UP; break; }
            for (Py_ssize_t i = newline + 1; i < pos; i++) {
                Py_UCS4 c = PyUnicode_READ(kind, data, i);
                indent += c == ' ' ? 1 : c == '\t' ? g->tab_len : 0;
            }
            /* INDENT and DEDENT take the place of the newline token */
            Entry borrowed = {0};
            borrowed.l0 = tok.l0; borrowed.c0 = tok.c0; borrowed.l1 = tok.l1; borrowed.c1 = tok.c1;
            Py_ssize_t dedents = 0;
            int indents = 0;
            if (indent > levels[nlevels - 1]) {
                if (nlevels == caplevels) {
                    Py_ssize_t *grown = PyMem_Realloc(levels, 2 * caplevels * sizeof(Py_ssize_t));
                    if (grown == NULL) { clear_entry(&tok); rc = -1; break; }
                    levels = grown;
                    caplevels *= 2;
                }
                levels[nlevels++] = indent;
                indents = 1;
            } else {
                while (indent < levels[nlevels - 1]) { nlevels--; dedents++; }
                if (indent != levels[nlevels - 1]) { clear_entry(&tok); rc = GIVE_UP; break; } /* DedentError */
            }
            rc = feed(g, &s, &tok, 1, type, done, end_state, tn, root);
            clear_entry(&tok);
            if (rc == 0 && indents) {
                Entry b = borrowed;
                rc = feed(g, &s, &b, 1, g->t_indent, done, end_state, tn, root);
            }
            for (Py_ssize_t k = 0; k < dedents && rc == 0; k++) {
                Entry b = borrowed;
                rc = feed(g, &s, &b, 1, g->t_dedent, done, end_state, tn, root);
            }
            continue;
        }
        if (g->terms[type].opening) paren++;
        else if (g->terms[type].closing) {
            paren--;
            if (paren < 0) { clear_entry(&tok); rc = GIVE_UP; break; }
        }
        rc = feed(g, &s, &tok, 1, type, done, end_state, tn, root);
        clear_entry(&tok);
    }
out:
    for (Py_ssize_t i = 0; i < s.nentries; i++) clear_entry(&s.entries[i]);
    PyMem_Free(s.entries);
    PyMem_Free(s.states);
    PyMem_Free(levels);
    return rc;
}

/* ---- the module: set up once with the tables, then parse ---- */

static int int_at(PyObject *seq, Py_ssize_t i, int *out) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = (int)v;
    return 0;
}

/* a list of ints as a C array of `n` of them */
static int *ints(PyObject *list, Py_ssize_t n) {
    PyObject *seq = PySequence_Fast(list, "a list of numbers");
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a table of the wrong size");
        return NULL;
    }
    int *out = PyMem_Calloc(n ? n : 1, sizeof(int));
    for (Py_ssize_t i = 0; out != NULL && i < n; i++)
        if (int_at(seq, i, &out[i]) < 0) { PyMem_Free(out); out = NULL; }
    Py_DECREF(seq);
    return out;
}

static int set_terminal(Terminal *t, PyObject *spec) {
    PyObject *name, *lits;
    int matcher, kept, opening, closing;
    if (!PyArg_ParseTuple(spec, "UiOppp", &name, &matcher, &lits, &kept, &opening, &closing)) return -1;
    Py_INCREF(name);
    t->name = name;
    t->matcher = matcher;
    t->kept = kept;
    t->opening = opening;
    t->closing = closing;
    PyObject *seq = PySequence_Fast(lits, "a list of literal texts");
    if (seq == NULL) return -1;
    t->nlit = PySequence_Fast_GET_SIZE(seq);
    t->lit = PyMem_Calloc(t->nlit ? t->nlit : 1, sizeof(Py_UCS4 *));
    t->litlen = PyMem_Calloc(t->nlit ? t->nlit : 1, sizeof(Py_ssize_t));
    if (t->lit == NULL || t->litlen == NULL) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t k = 0; k < t->nlit; k++) {
        PyObject *lit = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyUnicode_Check(lit) || (t->lit[k] = PyUnicode_AsUCS4Copy(lit)) == NULL) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a literal that is no text");
            return -1;
        }
        t->litlen[k] = PyUnicode_GET_LENGTH(lit);
    }
    Py_DECREF(seq);
    return 0;
}

static int set_lexer(const Grammar *g, Lexer *lx, PyObject *spec) {
    PyObject *order, *ignored, *newlines, *unless;
    if (!PyArg_ParseTuple(spec, "OOOO!", &order, &ignored, &newlines, &PyDict_Type, &unless)) return -1;
    PyObject *seq = PySequence_Fast(order, "a list of terminals");
    if (seq == NULL) return -1;
    lx->n = PySequence_Fast_GET_SIZE(seq);
    Py_DECREF(seq);
    if ((lx->terms = ints(order, lx->n)) == NULL) return -1;
    lx->ignored = PyMem_Calloc(g->nterms, 1);
    lx->newlines = PyMem_Calloc(g->nterms, 1);
    lx->unless = PyMem_Calloc(g->nterms, sizeof(PyObject *));
    if (lx->ignored == NULL || lx->newlines == NULL || lx->unless == NULL) { PyErr_NoMemory(); return -1; }
    PyObject *sets[2] = {ignored, newlines};
    char *flags[2] = {lx->ignored, lx->newlines};
    for (int s = 0; s < 2; s++) {
        PyObject *it = PySequence_Fast(sets[s], "a list of terminals");
        if (it == NULL) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(it); i++) {
            int t;
            if (int_at(it, i, &t) < 0 || t < 0 || t >= g->nterms) {
                Py_DECREF(it);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no such terminal");
                return -1;
            }
            flags[s][t] = 1;
        }
        Py_DECREF(it);
    }
    for (Py_ssize_t k = 0; k < lx->n; k++)
        if (lx->terms[k] < 0 || lx->terms[k] >= g->nterms) { PyErr_SetString(PyExc_ValueError, "no such terminal"); return -1; }
    PyObject *key, *value;
    Py_ssize_t i = 0;
    while (PyDict_Next(unless, &i, &key, &value)) {
        long t = PyLong_AsLong(key);
        if (t == -1 && PyErr_Occurred()) return -1;
        if (t < 0 || t >= g->nterms || !PyDict_Check(value)) { PyErr_SetString(PyExc_ValueError, "no such terminal"); return -1; }
        Py_INCREF(value);
        lx->unless[t] = value;
    }
    return 0;
}

static int set_rule(const Grammar *g, Rule *r, PyObject *spec) {
    PyObject *include, *func;
    Py_ssize_t trailing;
    if (!PyArg_ParseTuple(spec, "iiipOnO", &r->size, &r->origin, &r->kind, &r->wants_meta, &include, &trailing, &func))
        return -1;
    if (r->origin < 0 || r->origin >= g->nnonterms || r->size < 0 || r->kind < R_UNIT || r->kind > R_LARK) {
        PyErr_SetString(PyExc_ValueError, "a rule out of the tables");
        return -1;
    }
    if (r->kind == R_NODE && !PyCallable_Check(func)) { PyErr_SetString(PyExc_TypeError, "a rule's method"); return -1; }
    Py_INCREF(func);
    r->func = func;
    r->trailing = trailing;
    PyObject *seq = PySequence_Fast(include, "the children a rule keeps");
    if (seq == NULL) return -1;
    r->ninclude = PySequence_Fast_GET_SIZE(seq);
    r->inc_index = PyMem_Calloc(r->ninclude + 1, sizeof(int));
    r->inc_expand = PyMem_Calloc(r->ninclude + 1, sizeof(int));
    r->inc_nones = PyMem_Calloc(r->ninclude + 1, sizeof(int));
    if (r->inc_index == NULL || r->inc_expand == NULL || r->inc_nones == NULL) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t k = 0; k < r->ninclude; k++) {
        int expand;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "ipi", &r->inc_index[k], &expand, &r->inc_nones[k])) {
            Py_DECREF(seq);
            return -1;
        }
        r->inc_expand[k] = expand;
        if (r->inc_index[k] < 0 || r->inc_index[k] >= r->size || r->inc_nones[k] < 0) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a child out of its rule");
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static void free_grammar(Grammar *g) {
    if (g == NULL) return;
    for (int i = 0; g->terms != NULL && i < g->nterms; i++) {
        Terminal *t = &g->terms[i];
        Py_XDECREF(t->name);
        for (Py_ssize_t k = 0; t->lit != NULL && k < t->nlit; k++) PyMem_Free(t->lit[k]);
        PyMem_Free(t->lit);
        PyMem_Free(t->litlen);
    }
    for (int i = 0; g->lexers != NULL && i < g->nlexers; i++) {
        Lexer *lx = &g->lexers[i];
        for (int t = 0; lx->unless != NULL && t < g->nterms; t++) Py_XDECREF(lx->unless[t]);
        PyMem_Free(lx->terms);
        PyMem_Free(lx->ignored);
        PyMem_Free(lx->newlines);
        PyMem_Free(lx->unless);
    }
    for (int i = 0; g->rules != NULL && i < g->nrules; i++) {
        Rule *r = &g->rules[i];
        Py_XDECREF(r->func);
        PyMem_Free(r->inc_index);
        PyMem_Free(r->inc_expand);
        PyMem_Free(r->inc_nones);
    }
    PyMem_Free(g->terms);
    PyMem_Free(g->lexers);
    PyMem_Free(g->rules);
    PyMem_Free(g->actions);
    PyMem_Free(g->gotos);
    PyMem_Free(g->lexer_of);
    Py_XDECREF(g->new_token);
    Py_XDECREF(g->meta_type);
    Py_XDECREF(g->nowhere);
    PyMem_Free(g);
}

static void free_capsule(PyObject *capsule) {
    free_grammar(PyCapsule_GetPointer(capsule, CAPSULE));
}

/* the grammar's tables read into C; NULL with an exception set when they do not hold together */
static Grammar *read_tables(PyObject *args) {
    PyObject *terminals, *lexer_specs, *lexer_list, *action_list, *goto_list, *rule_specs;
    PyObject *new_token, *meta_type, *nowhere;
    Grammar *g = PyMem_Calloc(1, sizeof(Grammar));
    if (g == NULL) return (Grammar *)PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!iO!(iiiii)OOOi", &PyList_Type, &terminals, &PyList_Type, &lexer_specs,
                          &PyList_Type, &lexer_list, &PyList_Type, &action_list, &PyList_Type, &goto_list, &g->nnonterms,
                          &PyList_Type, &rule_specs, &g->t_nl, &g->t_indent, &g->t_dedent, &g->t_end, &g->tab_len,
                          &new_token, &meta_type, &nowhere, &g->max_depth)) {
        PyMem_Free(g);
        return NULL;
    }
    Py_INCREF(new_token);
    Py_INCREF(meta_type);
    Py_INCREF(nowhere);
    g->new_token = new_token;
    g->meta_type = meta_type;
    g->nowhere = nowhere;
    if (!PyType_Check(meta_type) || !PyTuple_Check(nowhere)) { PyErr_SetString(PyExc_TypeError, "the span class"); goto fail; }
    g->nterms = (int)PyList_GET_SIZE(terminals);
    g->nlexers = (int)PyList_GET_SIZE(lexer_specs);
    g->nstates = (int)PyList_GET_SIZE(lexer_list);
    g->nrules = (int)PyList_GET_SIZE(rule_specs);
    if (g->t_nl < 0 || g->t_nl >= g->nterms || g->t_indent < 0 || g->t_indent >= g->nterms || g->t_dedent < 0
        || g->t_dedent >= g->nterms || g->t_end < 0 || g->t_end >= g->nterms || g->nnonterms <= 0) {
        PyErr_SetString(PyExc_ValueError, "the indentation's terminals");
        goto fail;
    }
    g->terms = PyMem_Calloc(g->nterms + 1, sizeof(Terminal));
    g->lexers = PyMem_Calloc(g->nlexers + 1, sizeof(Lexer));
    g->rules = PyMem_Calloc(g->nrules + 1, sizeof(Rule));
    if (g->terms == NULL || g->lexers == NULL || g->rules == NULL) { PyErr_NoMemory(); goto fail; }
    for (int i = 0; i < g->nterms; i++)
        if (set_terminal(&g->terms[i], PyList_GET_ITEM(terminals, i)) < 0) goto fail;
    for (int i = 0; i < g->nlexers; i++)
        if (set_lexer(g, &g->lexers[i], PyList_GET_ITEM(lexer_specs, i)) < 0) goto fail;
    for (int i = 0; i < g->nrules; i++)
        if (set_rule(g, &g->rules[i], PyList_GET_ITEM(rule_specs, i)) < 0) goto fail;
    if ((g->lexer_of = ints(lexer_list, g->nstates)) == NULL
        || (g->actions = ints(action_list, (Py_ssize_t)g->nstates * g->nterms)) == NULL
        || (g->gotos = ints(goto_list, (Py_ssize_t)g->nstates * g->nnonterms)) == NULL)
        goto fail;
    for (int i = 0; i < g->nstates; i++)
        if (g->lexer_of[i] < 0 || g->lexer_of[i] >= g->nlexers) { PyErr_SetString(PyExc_ValueError, "a state's lexer"); goto fail; }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)g->nstates * g->nterms; i++)
        if (g->actions[i] > g->nstates || g->actions[i] < -g->nrules) { PyErr_SetString(PyExc_ValueError, "an action"); goto fail; }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)g->nstates * g->nnonterms; i++)
        if (g->gotos[i] >= g->nstates) { PyErr_SetString(PyExc_ValueError, "a goto"); goto fail; }
    return g;
fail:
    free_grammar(g);
    return NULL;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    Grammar *g = read_tables(args);
    if (g == NULL) return NULL;
    PyObject *capsule = PyCapsule_New(g, CAPSULE, free_capsule);
    if (capsule == NULL) free_grammar(g);
    return capsule;
}

static PyObject *parse(PyObject *self, PyObject *args) {
    PyObject *capsule, *text, *tn, *root = NULL;
    int start_state, end_state;
    if (!PyArg_ParseTuple(args, "O!UiiO", &PyCapsule_Type, &capsule, &text, &start_state, &end_state, &tn)) return NULL;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) return NULL; /* a string made by the old API is read once made ready */
#endif
    const Grammar *g = PyCapsule_GetPointer(capsule, CAPSULE);
    if (g == NULL) return NULL;
    if (start_state < 0 || start_state >= g->nstates) {
        PyErr_SetString(PyExc_ValueError, "no such state");
        return NULL;
    }
    int rc = run(g, text, start_state, end_state, tn, &root);
    if (rc == 2) return root;
    Py_XDECREF(root);
    if (rc == -1 && !PyErr_Occurred()) PyErr_NoMemory();
    if (rc == -1 && !PyErr_ExceptionMatches(PyExc_Exception)) return NULL; /* KeyboardInterrupt: on its way */
    PyErr_Clear(); /* whatever it is, Lark meets it as the Python loop would leave it to Lark */
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "setup(the grammar's tables...): the tables read into C, as a capsule."},
    {"parse", parse, METH_VARARGS, "parse(tables, text, start state, end state, tree builder): the tree, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_regles_lalr", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__regles_lalr(void) { return PyModule_Create(&module); }
