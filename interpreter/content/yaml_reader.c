/* The YAML reader's native path: a content file read by libyaml and built into positioned
 * values in C (content/yaml_native.py builds and loads it; content/source.py calls it).
 *
 * It builds only what the Python path (source._Builder) would build the same way: texts,
 * mappings with text keys, sequences, plain decimal whole numbers, true/false and null, with
 * the same positions, styles and last lines; an alias is a copy of the value its anchor
 * names, as the Python path builds it again. Whatever else the file holds (a tag written
 * out, another kind of number, a duplicate key or anchor, a key that is no text, more values,
 * text or nesting than a file may hold with its aliases expanded, an alias inside the value
 * it names, more than one document, a YAML error) makes it give up: `read` returns None, and the Python path reads the file, so that every
 * error and every rarer value is found and said by one reader. Nothing here runs anything
 * the file says; it only makes strings, numbers, lists and dictionaries.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <yaml.h>
#include <string.h>

#define DONE 0
#define GIVE_UP 1
#define FAILED -1 /* a Python exception is set (memory) */

/* set by setup(): the classes of positioned values and what the tags are read with */
static PyObject *T_text, *T_mapping, *T_list, *T_number, *T_position;
static PyObject *resolved;   /* dict: a plain value's text -> its tag (source._Loader._resolved) */
static PyObject *plain_tag;  /* callable: a plain value's text -> its tag */
static PyObject *TAG_STR, *TAG_INT, *TAG_BOOL, *TAG_NULL;
static Py_ssize_t max_nodes = 0, max_depth = 0, max_text = 0, plain_digits = 0;

static PyObject *S_pos, *S_style, *S_end_line, *S_lines, *S_key_pos, *S_path, *S_line, *S_column, *S_end_column;
static PyObject *ST_PLAIN, *ST_SINGLE, *ST_DOUBLE, *ST_LITERAL, *ST_FOLDED;

typedef struct {
    PyObject *obj;      /* the mapping or list being filled */
    PyObject *key_pos;  /* of a mapping: key -> position */
    PyObject *key;      /* of a mapping: the key read, waiting for its value */
    PyObject *anchor;   /* the anchor naming it, or NULL */
    Py_ssize_t count, chars; /* the reader's, when it opened: its own size is what they grow by */
    int is_map;
} Frame;

typedef struct {
    PyObject *path;
    PyObject *root;
    PyObject *blocks;   /* the block texts, whose indent is found in Python: each holds (first line, last line) as `lines` */
    PyObject *anchors;  /* anchor -> (value, values, characters), or None while its collection is open */
    Frame *stack;
    Py_ssize_t depth, count, chars; /* values and characters of text so far, aliases expanded */
} Reader;

static PyObject *position(Reader *r, yaml_mark_t mark) {
    PyObject *p = ((PyTypeObject *)T_position)->tp_alloc((PyTypeObject *)T_position, 0);
    if (p == NULL) return NULL;
    PyObject *line = PyLong_FromSize_t(mark.line + 1), *column = PyLong_FromSize_t(mark.column + 1);
    /* set through the slots, as diagnostics.position does: the frozen class refuses setattr */
    if (line == NULL || column == NULL || PyObject_GenericSetAttr(p, S_path, r->path) < 0
        || PyObject_GenericSetAttr(p, S_line, line) < 0 || PyObject_GenericSetAttr(p, S_column, column) < 0
        || PyObject_GenericSetAttr(p, S_end_column, Py_None) < 0) {
        Py_XDECREF(line);
        Py_XDECREF(column);
        Py_DECREF(p);
        return NULL;
    }
    Py_DECREF(line);
    Py_DECREF(column);
    return p;
}

/* A plain decimal whole number within a game's bounds ('-12', '7', '0'; not '012', which
 * YAML 1.1 reads as octal, nor '1_000', '0x1F'), as source._Builder reads it without PyYAML. */
static int plain_decimal(const char *s, size_t n) {
    size_t i = 0;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) i = 1;
    size_t digits = n - i;
    if (digits == 0 || digits > (size_t)plain_digits) return 0;
    if (s[i] == '0' && digits > 1) return 0;
    for (size_t k = i; k < n; k++)
        if (s[k] < '0' || s[k] > '9') return 0;
    return 1;
}

static int same(PyObject *a, PyObject *b) {
    return a == b || (PyUnicode_Check(a) && PyUnicode_Compare(a, b) == 0);
}

/* The value of a scalar event, in *out (NULL for GIVE_UP). */
static int scalar(Reader *r, yaml_event_t *ev, PyObject **out) {
    *out = NULL;
    if (ev->data.scalar.tag != NULL) return GIVE_UP;
    const char *raw = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    PyObject *value = PyUnicode_DecodeUTF8(raw, (Py_ssize_t)n, "strict");
    if (value == NULL) return FAILED;
    yaml_scalar_style_t style = ev->data.scalar.style;
    PyObject *tag = TAG_STR, *owned = NULL;
    if (style == YAML_PLAIN_SCALAR_STYLE && ev->data.scalar.plain_implicit) {
        tag = PyDict_GetItemWithError(resolved, value); /* borrowed */
        if (tag == NULL) {
            if (PyErr_Occurred()) { Py_DECREF(value); return FAILED; }
            tag = owned = PyObject_CallOneArg(plain_tag, value);
            if (tag == NULL) { Py_DECREF(value); return FAILED; }
        }
    }
    int rc = DONE;
    PyObject *made = NULL;
    if (same(tag, TAG_STR)) {
        made = PyObject_CallOneArg(T_text, value);
        if (made == NULL) { rc = FAILED; goto end; }
        PyObject *pos = position(r, ev->start_mark);
        PyObject *st = style == YAML_SINGLE_QUOTED_SCALAR_STYLE ? ST_SINGLE
                       : style == YAML_DOUBLE_QUOTED_SCALAR_STYLE ? ST_DOUBLE
                       : style == YAML_LITERAL_SCALAR_STYLE ? ST_LITERAL
                       : style == YAML_FOLDED_SCALAR_STYLE ? ST_FOLDED : ST_PLAIN;
        if (pos == NULL || PyObject_SetAttr(made, S_pos, pos) < 0 || PyObject_SetAttr(made, S_style, st) < 0) {
            Py_XDECREF(pos);
            rc = FAILED;
            goto end;
        }
        Py_DECREF(pos);
        if (ev->end_mark.line != ev->start_mark.line) {
            PyObject *last = PyLong_FromSize_t(ev->end_mark.line + 1);
            if (last == NULL || PyObject_SetAttr(made, S_end_line, last) < 0) { Py_XDECREF(last); rc = FAILED; goto end; }
            Py_DECREF(last);
        }
        if (style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE) {
            PyObject *at = Py_BuildValue("(nn)", (Py_ssize_t)ev->start_mark.line, (Py_ssize_t)ev->end_mark.line);
            if (at == NULL || PyObject_SetAttr(made, S_lines, at) < 0 || PyList_Append(r->blocks, made) < 0) {
                Py_XDECREF(at);
                rc = FAILED;
                goto end;
            }
            Py_DECREF(at);
        }
    } else if (same(tag, TAG_INT)) {
        if (!plain_decimal(raw, n)) { rc = GIVE_UP; goto end; }
        char digits[40];
        memcpy(digits, raw, n);
        digits[n] = '\0';
        PyObject *number = PyLong_FromString(digits, NULL, 10);
        if (number == NULL) { rc = FAILED; goto end; }
        made = PyObject_CallOneArg(T_number, number);
        Py_DECREF(number);
        PyObject *pos = made == NULL ? NULL : position(r, ev->start_mark);
        if (pos == NULL || PyObject_SetAttr(made, S_pos, pos) < 0) { Py_XDECREF(pos); rc = FAILED; goto end; }
        Py_DECREF(pos);
    } else if (same(tag, TAG_BOOL)) {
        char low[8];
        if (n >= sizeof low) { rc = GIVE_UP; goto end; }
        for (size_t k = 0; k < n; k++) low[k] = (char)((raw[k] >= 'A' && raw[k] <= 'Z') ? raw[k] + 32 : raw[k]);
        low[n] = '\0';
        if (!strcmp(low, "yes") || !strcmp(low, "true") || !strcmp(low, "on")) made = Py_NewRef(Py_True);
        else if (!strcmp(low, "no") || !strcmp(low, "false") || !strcmp(low, "off")) made = Py_NewRef(Py_False);
        else rc = GIVE_UP;
    } else if (same(tag, TAG_NULL)) {
        made = Py_NewRef(Py_None);
    } else {
        rc = GIVE_UP; /* a float, a timestamp, a merge key...: the Python path reads them */
    }
end:
    Py_DECREF(value);
    Py_XDECREF(owned);
    if (rc != DONE) {
        Py_XDECREF(made);
        return rc;
    }
    *out = made;
    return DONE;
}

/* Name `value` by `anchor` (a new reference each), with its size; a second anchor of the same
 * name is a YAML error, said by the Python path. */
static int name_it(Reader *r, PyObject *anchor, PyObject *value, Py_ssize_t values, Py_ssize_t chars) {
    PyObject *entry = value == NULL ? Py_NewRef(Py_None) : Py_BuildValue("(Onn)", value, values, chars);
    int failed = entry == NULL || PyDict_SetItem(r->anchors, anchor, entry) < 0;
    Py_XDECREF(entry);
    return failed ? FAILED : DONE;
}

static PyObject *anchor_text(yaml_char_t *anchor) {
    return PyUnicode_DecodeUTF8((const char *)anchor, (Py_ssize_t)strlen((const char *)anchor), "strict");
}

/* A copy of a value built before, placed at `depth`, as the Python path builds an alias's
 * value again: new texts, numbers, lists and mappings at the same positions. */
static int copy(Reader *r, PyObject *value, Py_ssize_t depth, PyObject **out) {
    *out = NULL;
    if (depth > max_depth) return GIVE_UP;
    if (value == Py_None || value == Py_True || value == Py_False) {
        *out = Py_NewRef(value);
        return DONE;
    }
    int map = PyObject_TypeCheck(value, (PyTypeObject *)T_mapping), list = PyObject_TypeCheck(value, (PyTypeObject *)T_list);
    PyObject *made = NULL;
    if (map || list) {
        made = PyObject_CallNoArgs(map ? T_mapping : T_list);
        if (made == NULL) return FAILED;
    } else if (PyObject_TypeCheck(value, (PyTypeObject *)T_text)) {
        PyObject *plain = PyUnicode_FromObject(value);
        made = plain == NULL ? NULL : PyObject_CallOneArg(T_text, plain);
        Py_XDECREF(plain);
        if (made == NULL) return FAILED;
        PyObject *names[] = {S_style, S_end_line, S_lines};
        for (int k = 0; k < 3; k++) {
            PyObject *v = PyObject_GetAttr(value, names[k]);
            int failed = v == NULL || ((v != Py_None || k == 0) && PyObject_SetAttr(made, names[k], v) < 0);
            Py_XDECREF(v);
            if (failed) { Py_DECREF(made); return FAILED; }
            if (k == 2 && v != Py_None && PyList_Append(r->blocks, made) < 0) { Py_DECREF(made); return FAILED; }
        }
    } else {
        PyObject *number = PyNumber_Index(value);
        made = number == NULL ? NULL : PyObject_CallOneArg(T_number, number);
        Py_XDECREF(number);
        if (made == NULL) return FAILED;
    }
    PyObject *pos = PyObject_GetAttr(value, S_pos); /* a position is immutable: shared */
    if (pos == NULL || PyObject_SetAttr(made, S_pos, pos) < 0) { Py_XDECREF(pos); Py_DECREF(made); return FAILED; }
    Py_DECREF(pos);
    int rc = DONE;
    if (list) {
        for (Py_ssize_t i = 0; rc == DONE && i < PyList_GET_SIZE(value); i++) {
            PyObject *item;
            rc = copy(r, PyList_GET_ITEM(value, i), depth + 1, &item);
            if (rc == DONE && PyList_Append(made, item) < 0) rc = FAILED;
            Py_XDECREF(item);
        }
    } else if (map) {
        PyObject *key_pos = PyDict_New(), *k, *v;
        Py_ssize_t at = 0;
        if (key_pos == NULL || PyObject_SetAttr(made, S_key_pos, key_pos) < 0) rc = FAILED;
        while (rc == DONE && PyDict_Next(value, &at, &k, &v)) {
            PyObject *key = NULL, *item = NULL, *kpos = NULL;
            rc = copy(r, k, depth + 1, &key);
            if (rc == DONE) rc = copy(r, v, depth + 1, &item);
            if (rc == DONE && ((kpos = PyObject_GetAttr(key, S_pos)) == NULL || PyDict_SetItem(key_pos, key, kpos) < 0
                               || PyDict_SetItem(made, key, item) < 0))
                rc = FAILED;
            Py_XDECREF(kpos);
            Py_XDECREF(key);
            Py_XDECREF(item);
        }
        Py_XDECREF(key_pos);
    }
    if (rc != DONE) { Py_DECREF(made); return rc; }
    *out = made;
    return DONE;
}

/* Put `node` (a new reference, taken) where it goes: the root, an item of a list, a key
 * or the value of a key of a mapping. */
static int place(Reader *r, PyObject *node) {
    if (r->depth == 0) {
        if (r->root != NULL) { Py_DECREF(node); return GIVE_UP; }
        r->root = node;
        return DONE;
    }
    Frame *f = &r->stack[r->depth - 1];
    if (!f->is_map) {
        int failed = PyList_Append(f->obj, node);
        Py_DECREF(node);
        return failed < 0 ? FAILED : DONE;
    }
    if (f->key == NULL) { /* a key: a text, not yet in the mapping */
        if (!PyObject_TypeCheck(node, (PyTypeObject *)T_text)) { Py_DECREF(node); return GIVE_UP; }
        int has = PyDict_Contains(f->obj, node);
        if (has != 0) { Py_DECREF(node); return has < 0 ? FAILED : GIVE_UP; }
        f->key = node;
        return DONE;
    }
    PyObject *key = f->key;
    f->key = NULL;
    PyObject *pos = PyObject_GetAttr(key, S_pos);
    int failed = pos == NULL || PyDict_SetItem(f->key_pos, key, pos) < 0 || PyDict_SetItem(f->obj, key, node) < 0;
    Py_XDECREF(pos);
    Py_DECREF(key);
    Py_DECREF(node);
    return failed ? FAILED : DONE;
}

/* A node more: counted, and its depth bounded, as the Python path bounds them. */
static int another(Reader *r, Py_ssize_t chars) {
    r->count++;
    r->chars += chars;
    if (r->count > max_nodes || r->chars > max_text || r->depth > max_depth) return GIVE_UP;
    return DONE;
}

/* A scalar named by an anchor. */
static int name_scalar(Reader *r, yaml_event_t *ev, PyObject *node) {
    PyObject *name = anchor_text(ev->data.scalar.anchor);
    if (name == NULL) return FAILED;
    int has = PyDict_Contains(r->anchors, name);
    /* its size in bytes, at least its characters: the bound is never looser than the Python path's */
    int rc = has < 0 ? FAILED : has ? GIVE_UP : name_it(r, name, node, 1, (Py_ssize_t)ev->data.scalar.length);
    Py_DECREF(name);
    return rc;
}

/* An alias: a copy of the value its anchor names, counted as that value's size again. */
static int alias(Reader *r, yaml_event_t *ev) {
    PyObject *anchor = anchor_text(ev->data.alias.anchor);
    if (anchor == NULL) return FAILED;
    PyObject *entry = PyDict_GetItemWithError(r->anchors, anchor); /* borrowed */
    Py_DECREF(anchor);
    if (entry == NULL) return PyErr_Occurred() ? FAILED : GIVE_UP; /* no such anchor: a YAML error */
    if (entry == Py_None) return GIVE_UP; /* inside the value it names */
    r->count += PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 1));
    r->chars += PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 2));
    if (r->count > max_nodes || r->chars > max_text) return GIVE_UP;
    PyObject *made;
    int rc = copy(r, PyTuple_GET_ITEM(entry, 0), r->depth, &made);
    return rc == DONE ? place(r, made) : rc;
}

static int open_collection(Reader *r, yaml_event_t *ev, int is_map) {
    yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    yaml_char_t *tag = is_map ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
    if (tag != NULL) return GIVE_UP;
    Py_ssize_t count = r->count, chars = r->chars;
    int rc = another(r, 0);
    if (rc != DONE) return rc;
    PyObject *name = NULL;
    if (anchor != NULL) {
        if ((name = anchor_text(anchor)) == NULL) return FAILED;
        int has = PyDict_Contains(r->anchors, name);
        if (has != 0 || (rc = name_it(r, name, NULL, 0, 0)) != DONE) { Py_DECREF(name); return has < 0 ? FAILED : has ? GIVE_UP : rc; }
    }
    PyObject *obj = PyObject_CallNoArgs(is_map ? T_mapping : T_list);
    PyObject *pos = obj == NULL ? NULL : position(r, ev->start_mark);
    PyObject *key_pos = is_map && pos != NULL ? PyDict_New() : NULL;
    if (pos == NULL || (is_map && key_pos == NULL) || PyObject_SetAttr(obj, S_pos, pos) < 0
        || (is_map && PyObject_SetAttr(obj, S_key_pos, key_pos) < 0)) {
        Py_XDECREF(obj);
        Py_XDECREF(pos);
        Py_XDECREF(key_pos);
        Py_XDECREF(name);
        return FAILED;
    }
    Py_DECREF(pos);
    Frame *f = &r->stack[r->depth++];
    f->obj = obj;
    f->key_pos = key_pos;
    f->key = NULL;
    f->anchor = name;
    f->count = count;
    f->chars = chars;
    f->is_map = is_map;
    return DONE;
}

static int close_collection(Reader *r) {
    Frame f = r->stack[--r->depth];
    Py_XDECREF(f.key_pos);
    if (f.key != NULL) { /* a key with no value: libyaml gives one, always */
        Py_DECREF(f.key);
        Py_DECREF(f.obj);
        Py_XDECREF(f.anchor);
        return GIVE_UP;
    }
    if (f.anchor != NULL) {
        int rc = name_it(r, f.anchor, f.obj, r->count - f.count, r->chars - f.chars);
        Py_DECREF(f.anchor);
        if (rc != DONE) { Py_DECREF(f.obj); return rc; }
    }
    return place(r, f.obj);
}

static PyObject *reader_read(PyObject *self, PyObject *args) {
    const char *data;
    Py_ssize_t size;
    PyObject *path;
    if (!PyArg_ParseTuple(args, "y#U", &data, &size, &path)) return NULL;
    if (T_text == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the YAML reader is not set up");
        return NULL;
    }
    Reader r = {path, NULL, PyList_New(0), PyDict_New(), NULL, 0, 0, 0};
    if (r.blocks == NULL || r.anchors == NULL) { Py_XDECREF(r.blocks); Py_XDECREF(r.anchors); return NULL; }
    r.stack = PyMem_Calloc((size_t)max_depth + 2, sizeof(Frame));
    if (r.stack == NULL) { Py_DECREF(r.blocks); Py_DECREF(r.anchors); return PyErr_NoMemory(); }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        PyMem_Free(r.stack);
        Py_DECREF(r.blocks);
        Py_DECREF(r.anchors);
        return PyErr_NoMemory();
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)data, (size_t)size);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    int rc = DONE, documents = 0, finished = 0;
    while (rc == DONE && !finished) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) { rc = GIVE_UP; break; } /* a YAML error: said by the Python path */
        PyObject *node = NULL;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: finished = 1; break;
        case YAML_DOCUMENT_START_EVENT: if (++documents > 1) rc = GIVE_UP; break;
        case YAML_SCALAR_EVENT:
            rc = another(&r, (Py_ssize_t)ev.data.scalar.length); /* bytes: at least its characters */
            if (rc == DONE) rc = scalar(&r, &ev, &node);
            if (rc == DONE && ev.data.scalar.anchor != NULL) rc = name_scalar(&r, &ev, node);
            if (rc == DONE) rc = place(&r, node);
            else Py_XDECREF(node);
            break;
        case YAML_MAPPING_START_EVENT: rc = open_collection(&r, &ev, 1); break;
        case YAML_SEQUENCE_START_EVENT: rc = open_collection(&r, &ev, 0); break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT: rc = r.depth > 0 ? close_collection(&r) : GIVE_UP; break;
        case YAML_ALIAS_EVENT: rc = alias(&r, &ev); break;
        default: break; /* stream start, document end, no event */
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    while (r.depth > 0) { /* given up inside collections */
        Frame f = r.stack[--r.depth];
        Py_XDECREF(f.obj);
        Py_XDECREF(f.key_pos);
        Py_XDECREF(f.key);
        Py_XDECREF(f.anchor);
    }
    PyMem_Free(r.stack);
    Py_DECREF(r.anchors);
    if (rc == DONE && r.root == NULL) rc = GIVE_UP; /* an empty document */
    if (rc != DONE) {
        Py_XDECREF(r.root);
        Py_DECREF(r.blocks);
        if (rc == FAILED) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_Pack(2, r.root, r.blocks);
    Py_DECREF(r.root);
    Py_DECREF(r.blocks);
    return out;
}

static PyObject *reader_setup(PyObject *self, PyObject *args) {
    PyObject *text, *mapping, *list, *number, *pos, *res, *tagger, *s, *i, *b, *nl;
    Py_ssize_t nodes, depth, chars, digits;
    if (!PyArg_ParseTuple(args, "OOOOOO!OUUUUnnnn", &text, &mapping, &list, &number, &pos, &PyDict_Type, &res,
                          &tagger, &s, &i, &b, &nl, &nodes, &depth, &chars, &digits))
        return NULL;
    if (!PyType_Check(text) || !PyType_Check(mapping) || !PyType_Check(list) || !PyType_Check(number)
        || !PyType_Check(pos) || !PyCallable_Check(tagger) || digits < 1 || digits > 30 || depth < 0 || nodes < 0) {
        PyErr_SetString(PyExc_TypeError, "setup(text, mapping, list, number, position, resolved, plain_tag, "
                                         "str, int, bool, null, nodes, depth, chars, digits)");
        return NULL;
    }
    PyObject *kept[] = {text, mapping, list, number, pos, res, tagger, s, i, b, nl};
    PyObject **into[] = {&T_text, &T_mapping, &T_list, &T_number, &T_position, &resolved, &plain_tag,
                         &TAG_STR, &TAG_INT, &TAG_BOOL, &TAG_NULL};
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        Py_INCREF(kept[k]);
        Py_XSETREF(*into[k], kept[k]);
    }
    max_nodes = nodes;
    max_depth = depth;
    max_text = chars;
    plain_digits = digits;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"read", reader_read, METH_VARARGS, "read(utf8_bytes, path) -> (value, blocks), or None when the Python path must read it"},
    {"setup", reader_setup, METH_VARARGS, "setup(...): the classes and tags the reader builds with"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_regles_yaml", NULL, -1, methods};

PyMODINIT_FUNC PyInit__regles_yaml(void) {
#define NAME(var, text) if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL
    NAME(S_pos, "pos"); NAME(S_style, "style"); NAME(S_end_line, "end_line"); NAME(S_lines, "lines"); NAME(S_key_pos, "key_pos");
    NAME(S_path, "path"); NAME(S_line, "line"); NAME(S_column, "column"); NAME(S_end_column, "end_column");
    /* the styles as PyYAML's C parser gives them: '' for a plain value */
    NAME(ST_PLAIN, ""); NAME(ST_SINGLE, "'"); NAME(ST_DOUBLE, "\""); NAME(ST_LITERAL, "|"); NAME(ST_FOLDED, ">");
#undef NAME
    return PyModule_Create(&module);
}
