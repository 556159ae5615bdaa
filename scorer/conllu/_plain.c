/* The compiled plain lane: pairs of plain sentences checked and counted
 * straight from their UTF-8 bytes, with no Python object per word.
 *
 * count_pairs(system_texts, gold_texts) takes what `bulk.PlainPairs` takes
 * (the token lines of each sentence, comments cut off, or None) and returns
 * (passed, totals, each): which pairs it counted, the sum of their 29 raw
 * counts (the order of `counts.Counts.values`), and each pair's counts as
 * int64s in one bytes object (zeros for a pair not counted).
 *
 * Every check is the Python lane's or stricter (ASCII digits only in IDs
 * and HEADs, at most MAX_ITEMS features or enhanced edges per cell): a pair
 * refused here goes to the Python lane, which counts it or refuses it in
 * turn.  So what this lane counts, the Python lane would count the same
 * (the lane-equality tests hold the two to it).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    TOKENS_CORRECT, TOKENS_GOLD, TOKENS_SYSTEM,
    SENTENCES_CORRECT, SENTENCES_GOLD, SENTENCES_SYSTEM,
    WORDS_GOLD, WORDS_SYSTEM, WORDS_ALIGNED,
    UPOS, XPOS, UFEATS, ALLTAGS, LEMMAS, UAS, LAS, UFEATS_ALL, ALLTAGS_ALL, LAS_FULL,
    CONTENT_GOLD, CONTENT_SYSTEM, CONTENT_ALIGNED, CLAS, MLAS, BLEX,
    EDEPS_GOLD, EDEPS_SYSTEM, ELAS, EULAS, N_VALUES
};

enum { F_ID, F_FORM, F_LEMMA, F_UPOS, F_XPOS, F_FEATS, F_HEAD, F_DEPREL, F_DEPS, F_MISC, N_FIELDS };

#define MAX_ITEMS 64
#define MAX_HEAD 100000000L

typedef struct { const char *p; Py_ssize_t n; } Span;

typedef struct { Span f[N_FIELDS]; } Row;

/* Per-side scratch, grown as needed and kept between calls. */
typedef struct {
    Row *rows; Py_ssize_t rows_cap;
    long *heads; Py_ssize_t heads_cap;
    signed char *state; Py_ssize_t state_cap;
} Side;

typedef struct {
    Py_ssize_t *word_rows; Py_ssize_t cap;
    char *flags; Py_ssize_t flags_cap;
} Shared;

static Side sides[2];
static Shared shared;

static int grow(void **buffer, Py_ssize_t *cap, Py_ssize_t need, size_t size) {
    if (need <= *cap)
        return 0;
    Py_ssize_t n = need < 256 ? 256 : need * 2;
    void *p = realloc(*buffer, (size_t)n * size);
    if (!p)
        return -1;
    *buffer = p;
    *cap = n;
    return 0;
}

static inline int span_eq(Span a, Span b) {
    return a.n == b.n && memcmp(a.p, b.p, (size_t)a.n) == 0;
}

static inline int span_is(Span a, const char *s) {
    size_t n = strlen(s);
    return (size_t)a.n == n && memcmp(a.p, s, n) == 0;
}

/* The rows of a sentence's token lines, each with exactly ten columns;
 * -1 when a line has not (or memory ran out), else the number of rows. */
static Py_ssize_t cut_rows(Side *side, const char *text, Py_ssize_t size) {
    Py_ssize_t lines = 1;
    for (const char *q = memchr(text, '\n', (size_t)size); q;
         q = memchr(q + 1, '\n', (size_t)(text + size - q - 1)))
        lines++;
    if (grow((void **)&side->rows, &side->rows_cap, lines, sizeof(Row)) < 0)
        return -1;
    const char *p = text, *end = text + size;
    for (Py_ssize_t r = 0; r < lines; r++) {
        Row *row = &side->rows[r];
        for (int f = 0; f < N_FIELDS; f++) {
            const char *q = p;
            while (q < end && *q != '\t' && *q != '\n')
                q++;
            row->f[f].p = p;
            row->f[f].n = q - p;
            if (f < N_FIELDS - 1) {
                if (q >= end || *q != '\t')
                    return -1;
            } else if (q < end && *q != '\n') {
                return -1;
            }
            p = q + 1;
        }
    }
    return lines;
}

/* An ASCII decimal number (at most 9 digits), or -1. */
static long number(Span s) {
    if (s.n == 0 || s.n > 9)
        return -1;
    long v = 0;
    for (Py_ssize_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

/* Whether a decimal ID is exactly str(expected). */
static int id_is(Span s, long expected) {
    char buffer[24];
    int n = snprintf(buffer, sizeof buffer, "%ld", expected);
    return s.n == n && memcmp(s.p, buffer, (size_t)n) == 0;
}

/* Whether a FORM holds a Zs character (the official scorer's spaces). */
static int has_spaces(Span s) {
    const unsigned char *p = (const unsigned char *)s.p;
    for (Py_ssize_t i = 0; i < s.n; i++) {
        unsigned char c = p[i];
        if (c == ' ')
            return 1;
        if (c < 0x80)
            continue;
        Py_ssize_t left = s.n - i;
        if (c == 0xC2 && left >= 2 && p[i + 1] == 0xA0)
            return 1;
        if (c == 0xE1 && left >= 3 && p[i + 1] == 0x9A && p[i + 2] == 0x80)
            return 1;
        if (c == 0xE2 && left >= 3 && p[i + 1] == 0x80 && ((p[i + 2] >= 0x80 && p[i + 2] <= 0x8A) || p[i + 2] == 0xAF))
            return 1;
        if (c == 0xE2 && left >= 3 && p[i + 1] == 0x81 && p[i + 2] == 0x9F)
            return 1;
        if (c == 0xE3 && left >= 3 && p[i + 1] == 0x80 && p[i + 2] == 0x80)
            return 1;
    }
    return 0;
}

/* The span up to the first `stop` (all of it when there is none). */
static inline Span before(Span s, char stop) {
    const char *q = memchr(s.p, stop, (size_t)s.n);
    Span out = {s.p, q ? q - s.p : s.n};
    return out;
}

/* --- Enhanced dependencies ------------------------------------------------ */

typedef struct { long head; Span path; } Edge;

/* The edges of a DEPS cell with a word head (empty-node heads are dropped,
 * as the official scorer does); -1 when it cannot be read plainly or a head
 * is past `words`, else the number of edges. */
static int read_edges(Span deps, long words, Edge *edges) {
    if (deps.n == 0 || span_is(deps, "_"))
        return 0;
    int count = 0, items = 0;
    const char *p = deps.p, *end = deps.p + deps.n;
    while (1) {
        const char *q = p;
        while (q < end && *q != '|')
            q++;
        Span edge = {p, q - p};
        if (++items > MAX_ITEMS)
            return -1;
        const char *colon = memchr(edge.p, ':', (size_t)edge.n);
        if (!colon)
            return -1;
        Span head = {edge.p, colon - edge.p};
        Span path = {colon + 1, edge.p + edge.n - colon - 1};
        const char *dot = memchr(head.p, '.', (size_t)head.n);
        if (dot) {
            Span whole = {head.p, dot - head.p}, part = {dot + 1, head.p + head.n - dot - 1};
            if (number(whole) < 0 || number(part) < 0)
                return -1;
        } else {
            long h = number(head);
            if (h < 0 || h > words)
                return -1;
            edges[count].head = h;
            edges[count].path = path;
            count++;
        }
        if (q >= end)
            break;
        p = q + 1;
    }
    return count;
}

/* Whether two paths are equal with their steps' subtypes cut off. */
static int same_base_path(Span a, Span b) {
    const char *p = a.p, *pe = a.p + a.n, *q = b.p, *qe = b.p + b.n;
    while (1) {
        const char *p2 = p, *q2 = q;
        while (p2 < pe && *p2 != '>')
            p2++;
        while (q2 < qe && *q2 != '>')
            q2++;
        Span sa = before((Span){p, p2 - p}, ':'), sb = before((Span){q, q2 - q}, ':');
        if (!span_eq(sa, sb))
            return 0;
        int a_done = p2 >= pe, b_done = q2 >= qe;
        if (a_done || b_done)
            return a_done && b_done;
        p = p2 + 1;
        q = q2 + 1;
    }
}

/* The official double loop, heads compared as numbers (word i aligns with word i). */
static void match_edges(const Edge *gold, int ng, const Edge *system, int ns, long *elas, long *eulas) {
    for (int i = 0; i < ng; i++)
        for (int j = 0; j < ns; j++) {
            if (gold[i].head != system[j].head)
                continue;
            if (span_eq(gold[i].path, system[j].path)) {
                (*elas)++;
                (*eulas)++;
            } else if (same_base_path(gold[i].path, system[j].path)) {
                (*eulas)++;
            }
        }
}

/* --- Features --------------------------------------------------------------- */

static const char *UNIVERSAL[] = {
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender",
    "Animacy", "Number", "Case", "Definite", "Degree", "VerbForm", "Mood",
    "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person", "Polite", NULL,
};

static int universal(Span name) {
    for (const char **u = UNIVERSAL; *u; u++)
        if (span_is(name, *u))
            return 1;
    return 0;
}

/* Python's str order is code point order, which is UTF-8 byte order. */
static int span_order(const void *x, const void *y) {
    const Span *a = x, *b = y;
    Py_ssize_t n = a->n < b->n ? a->n : b->n;
    int c = memcmp(a->p, b->p, (size_t)n);
    return c ? c : (a->n > b->n) - (a->n < b->n);
}

/* A FEATS cell's features, sorted: only the universal ones (UFeats), or
 * all ("_" and "" have none). */
static int feature_list(Span feats, int only_universal, Span *out) {
    int n = 0;
    if (!only_universal && (feats.n == 0 || span_is(feats, "_")))
        return 0;
    const char *p = feats.p, *end = feats.p + feats.n;
    while (1) {
        const char *q = memchr(p, '|', (size_t)(end - p));
        if (!q)
            q = end;
        Span item = {p, q - p};
        if (!only_universal || universal(before(item, '=')))
            out[n++] = item;
        if (q >= end)
            break;
        p = q + 1;
    }
    qsort(out, (size_t)n, sizeof(Span), span_order);
    return n;
}

static int same_features(Span a, Span b, int only_universal) {
    Span x[MAX_ITEMS], y[MAX_ITEMS];
    int nx = feature_list(a, only_universal, x), ny = feature_list(b, only_universal, y);
    if (nx != ny)
        return 0;
    for (int i = 0; i < nx; i++)
        if (!span_eq(x[i], y[i]))
            return 0;
    return 1;
}

static int items_within(Span s) {
    int n = 1;
    for (Py_ssize_t i = 0; i < s.n; i++)
        n += s.p[i] == '|';
    return n <= MAX_ITEMS;
}

/* --- Relations -------------------------------------------------------------- */

static const char *CONTENT[] = {
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative",
    "expl", "dislocated", "advcl", "advmod", "discourse", "nmod", "appos",
    "nummod", "acl", "amod", "conj", "fixed", "flat", "compound", "list",
    "parataxis", "orphan", "goeswith", "reparandum", "root", "dep", NULL,
};
static const char *FUNCTIONAL[] = {"aux", "cop", "mark", "det", "clf", "case", "cc", NULL};

static int listed(Span s, const char **names) {
    for (const char **u = names; *u; u++)
        if (span_is(s, *u))
            return 1;
    return 0;
}

/* --- One pair --------------------------------------------------------------- */

/* HEADs: numbers within the sentence forming a tree (one root, every word
 * reaching it).  Fills side->heads. */
static int tree_ok(Side *side, const Py_ssize_t *word_rows, Py_ssize_t words) {
    long *heads = side->heads;
    signed char *state = side->state;
    int roots = 0;
    for (Py_ssize_t w = 0; w < words; w++) {
        long h = number(side->rows[word_rows[w]].f[F_HEAD]);
        if (h < 0 || h > words)
            return 0;
        heads[w] = h;
        roots += h == 0;
        state[w] = 0;
    }
    if (roots != 1)
        return 0;
    /* state: 0 not seen, 1 on the current walk, 2 reaches the root. */
    for (Py_ssize_t w = 0; w < words; w++) {
        Py_ssize_t x = w;
        while (state[x] == 0) {
            state[x] = 1;
            if (heads[x] == 0) {
                state[x] = 2;
                break;
            }
            x = heads[x] - 1;
        }
        if (state[x] == 1)
            return 0; /* a cycle */
        for (Py_ssize_t y = w; state[y] == 1; y = heads[y] - 1)
            state[y] = 2;
    }
    return 1;
}

static int deps_ok(Side *side, const Py_ssize_t *word_rows, Py_ssize_t words) {
    Edge edges[MAX_ITEMS];
    for (Py_ssize_t w = 0; w < words; w++) {
        const Row *row = &side->rows[word_rows[w]];
        if (read_edges(row->f[F_DEPS], (long)words, edges) < 0 || !items_within(row->f[F_FEATS]))
            return 0;
    }
    return 1;
}

/* 1 and the counts in v when the pair is plain with the same tokens, 0 when
 * it is not, -1 on a memory error. */
static int count_pair(const char *gtext, Py_ssize_t gsize, const char *stext, Py_ssize_t ssize, int64_t *v) {
    Side *gold = &sides[0], *system = &sides[1];
    Py_ssize_t rows = cut_rows(gold, gtext, gsize);
    if (rows < 0)
        return 0;
    if (cut_rows(system, stext, ssize) != rows)
        return 0;
    if (grow((void **)&shared.word_rows, &shared.cap, rows, sizeof(Py_ssize_t)) < 0)
        return -1;
    Py_ssize_t *word_rows = shared.word_rows, words = 0, tokens = 0;
    /* The same IDs and FORMs: word i aligns with word i. */
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (!span_eq(gold->rows[r].f[F_ID], system->rows[r].f[F_ID]) ||
            !span_eq(gold->rows[r].f[F_FORM], system->rows[r].f[F_FORM]))
            return 0;
        Span form = gold->rows[r].f[F_FORM];
        if (form.n == 0 || has_spaces(form))
            return 0;
    }
    /* IDs 1..n, multiword ranges a-b right before their words a..b. */
    for (Py_ssize_t r = 0; r < rows;) {
        Span id = gold->rows[r].f[F_ID];
        const char *dash = memchr(id.p, '-', (size_t)id.n);
        if (!dash) {
            if (!id_is(id, (long)words + 1))
                return 0;
            word_rows[words++] = r++;
            tokens++;
            continue;
        }
        long a = number((Span){id.p, dash - id.p}), b = number((Span){dash + 1, id.p + id.n - dash - 1});
        if (a < 0 || b < a || a != words + 1 || r + 1 + (b - a) >= rows)
            return 0;
        tokens++;
        r++;
        for (long k = a; k <= b; k++, r++) {
            if (!id_is(gold->rows[r].f[F_ID], k))
                return 0;
            word_rows[words++] = r;
        }
    }
    for (int s = 0; s < 2; s++) {
        Side *side = &sides[s];
        if (grow((void **)&side->heads, &side->heads_cap, words, sizeof(long)) < 0 ||
            grow((void **)&side->state, &side->state_cap, words, 1) < 0)
            return -1;
        if (!tree_ok(side, word_rows, words) || !deps_ok(side, word_rows, words))
            return 0;
    }
    /* flags per word: bit 0 counts for MLAS, bit 1 broken (a functional child differs). */
    if (grow((void **)&shared.flags, &shared.flags_cap, words, 1) < 0)
        return -1;
    char *flags = shared.flags;
    memset(flags, 0, (size_t)words);
    memset(v, 0, N_VALUES * sizeof(int64_t));
    v[TOKENS_CORRECT] = v[TOKENS_GOLD] = v[TOKENS_SYSTEM] = tokens;
    v[SENTENCES_CORRECT] = v[SENTENCES_GOLD] = v[SENTENCES_SYSTEM] = 1;
    v[WORDS_GOLD] = v[WORDS_SYSTEM] = v[WORDS_ALIGNED] = words;
    Edge gold_edges[MAX_ITEMS], system_edges[MAX_ITEMS];
    for (Py_ssize_t w = 0; w < words; w++) {
        const Row *g = &gold->rows[word_rows[w]], *s = &system->rows[word_rows[w]];
        long gh = gold->heads[w], sh = system->heads[w];
        Span g_base = before(g->f[F_DEPREL], ':'), s_base = before(s->f[F_DEPREL], ':');
        int content = listed(g_base, CONTENT);
        v[CONTENT_GOLD] += content;
        v[CONTENT_ALIGNED] += content;
        v[CONTENT_SYSTEM] += listed(s_base, CONTENT);
        int upos = span_eq(g->f[F_UPOS], s->f[F_UPOS]);
        int xpos = span_eq(g->f[F_XPOS], s->f[F_XPOS]);
        int same_feats = span_eq(g->f[F_FEATS], s->f[F_FEATS]);
        int same_lemma = span_eq(g->f[F_LEMMA], s->f[F_LEMMA]);
        int same_deprel = span_eq(g->f[F_DEPREL], s->f[F_DEPREL]);
        int head = gh == sh;
        if (upos && xpos && same_feats && same_lemma && same_deprel && head) {
            for (int m = UPOS; m <= LAS_FULL; m++)
                v[m]++;
            v[CLAS] += content;
            v[BLEX] += content;
            flags[w] |= (char)content;
        } else {
            int ufeats = same_feats || same_features(g->f[F_FEATS], s->f[F_FEATS], 1);
            int feats_all = same_feats || same_features(g->f[F_FEATS], s->f[F_FEATS], 0);
            int lemma = same_lemma || span_is(g->f[F_LEMMA], "_");
            int same_base = span_eq(g_base, s_base);
            int las = head && same_base;
            int clas = las && content;
            v[UPOS] += upos;
            v[XPOS] += xpos;
            v[UFEATS] += ufeats;
            v[ALLTAGS] += upos && xpos && ufeats;
            v[LEMMAS] += lemma;
            v[UAS] += head;
            v[LAS] += las;
            v[UFEATS_ALL] += feats_all;
            v[ALLTAGS_ALL] += upos && xpos && feats_all;
            v[LAS_FULL] += head && same_deprel;
            v[CLAS] += clas;
            v[BLEX] += clas && lemma;
            flags[w] |= (char)(clas && upos && ufeats);
            int g_functional = listed(g_base, FUNCTIONAL), s_functional = listed(s_base, FUNCTIONAL);
            int alike = g_functional == s_functional && head && same_base && upos && ufeats;
            if ((g_functional || s_functional) && !alike) {
                if (g_functional && gh)
                    flags[gh - 1] |= 2;
                if (s_functional && sh)
                    flags[sh - 1] |= 2;
            }
        }
        int ng = read_edges(g->f[F_DEPS], (long)words, gold_edges);
        int ns = read_edges(s->f[F_DEPS], (long)words, system_edges);
        v[EDEPS_GOLD] += ng;
        v[EDEPS_SYSTEM] += ns;
        long elas = 0, eulas = 0;
        match_edges(gold_edges, ng, system_edges, ns, &elas, &eulas);
        v[ELAS] += elas;
        v[EULAS] += eulas;
    }
    for (Py_ssize_t w = 0; w < words; w++)
        v[MLAS] += flags[w] == 1;
    return 1;
}

static const char *utf8(PyObject *text, Py_ssize_t *size) {
    if (!PyUnicode_Check(text))
        return NULL;
    const char *p = PyUnicode_AsUTF8AndSize(text, size);
    if (!p)
        PyErr_Clear(); /* (lone surrogates: the Python lane decides) */
    return p;
}

static PyObject *count_pairs(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *system_texts, *gold_texts;
    if (!PyArg_ParseTuple(args, "OO:count_pairs", &system_texts, &gold_texts))
        return NULL;
    PyObject *system_seq = PySequence_Fast(system_texts, "system_texts must be a sequence");
    if (!system_seq)
        return NULL;
    PyObject *gold_seq = PySequence_Fast(gold_texts, "gold_texts must be a sequence");
    if (!gold_seq) {
        Py_DECREF(system_seq);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(system_seq);
    if (PySequence_Fast_GET_SIZE(gold_seq) != n) {
        PyErr_SetString(PyExc_ValueError, "as many gold texts as system texts");
        goto fail;
    }
    PyObject *passed = PyList_New(n);
    PyObject *each = PyBytes_FromStringAndSize(NULL, n * N_VALUES * (Py_ssize_t)sizeof(int64_t));
    if (!passed || !each) {
        Py_XDECREF(passed);
        Py_XDECREF(each);
        goto fail;
    }
    int64_t *values = (int64_t *)PyBytes_AS_STRING(each), totals[N_VALUES] = {0};
    memset(values, 0, (size_t)n * N_VALUES * sizeof(int64_t));
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t gsize, ssize;
        const char *s = utf8(PySequence_Fast_GET_ITEM(system_seq, k), &ssize);
        const char *g = s ? utf8(PySequence_Fast_GET_ITEM(gold_seq, k), &gsize) : NULL;
        int ok = 0;
        if (s && g && ssize && gsize) {
            ok = count_pair(g, gsize, s, ssize, values + k * N_VALUES);
            if (ok < 0) {
                Py_DECREF(passed);
                Py_DECREF(each);
                PyErr_NoMemory();
                goto fail;
            }
            if (ok)
                for (int m = 0; m < N_VALUES; m++)
                    totals[m] += values[k * N_VALUES + m];
            else
                memset(values + k * N_VALUES, 0, N_VALUES * sizeof(int64_t));
        }
        PyObject *flag = ok ? Py_True : Py_False;
        Py_INCREF(flag);
        PyList_SET_ITEM(passed, k, flag);
    }
    Py_DECREF(system_seq);
    Py_DECREF(gold_seq);
    PyObject *total = PyList_New(N_VALUES);
    if (!total) {
        Py_DECREF(passed);
        Py_DECREF(each);
        return NULL;
    }
    for (int m = 0; m < N_VALUES; m++)
        PyList_SET_ITEM(total, m, PyLong_FromLongLong(totals[m]));
    return Py_BuildValue("(NNN)", passed, total, each);
fail:
    Py_DECREF(system_seq);
    Py_DECREF(gold_seq);
    return NULL;
}

/* tree_verdicts(heads, extents, words) -> (fine, numbers) | None: for
 * `bulk._values_ok`, sentences laid end to end (``words`` per sentence):
 * whether each one's HEADs form a tree and its DEPS extents (None: all "_")
 * stay within it, and the HEADs as numbers.  None when a HEAD is not a
 * plain ASCII number (then the Python lane reads it as int() does). */
static PyObject *tree_verdicts(PyObject *module, PyObject *args) {
    PyObject *heads, *extents, *words;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!OO!:tree_verdicts", &PyList_Type, &heads, &extents, &PyList_Type, &words))
        return NULL;
    if (extents != Py_None && (!PyList_Check(extents) || PyList_GET_SIZE(extents) != PyList_GET_SIZE(heads))) {
        PyErr_SetString(PyExc_ValueError, "extents: None or one per word");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(heads), sentences = PyList_GET_SIZE(words);
    Side *side = &sides[0];
    if (grow((void **)&side->heads, &side->heads_cap, n, sizeof(long)) < 0 ||
        grow((void **)&side->state, &side->state_cap, n, 1) < 0 ||
        grow((void **)&shared.word_rows, &shared.cap, n, sizeof(Py_ssize_t)) < 0)
        return PyErr_NoMemory();
    for (Py_ssize_t w = 0; w < n; w++) {
        PyObject *cell = PyList_GET_ITEM(heads, w);
        Py_ssize_t size;
        const char *p = PyUnicode_Check(cell) && PyUnicode_IS_ASCII(cell) ? PyUnicode_AsUTF8AndSize(cell, &size) : NULL;
        long h = p ? number((Span){p, size}) : -1;
        if (h < 0)
            Py_RETURN_NONE;
        side->heads[w] = h;
    }
    PyObject *fine = PyList_New(sentences), *numbers = PyList_New(n);
    if (!fine || !numbers) {
        Py_XDECREF(fine);
        Py_XDECREF(numbers);
        return NULL;
    }
    Py_ssize_t start = 0;
    for (Py_ssize_t k = 0; k < sentences; k++) {
        Py_ssize_t length = PyLong_AsSsize_t(PyList_GET_ITEM(words, k));
        if (length < 0 || start + length > n) {
            Py_DECREF(fine);
            Py_DECREF(numbers);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "words: lengths adding up to the HEADs");
            return NULL;
        }
        int ok = 1, roots = 0;
        long *h = side->heads + start;
        signed char *state = side->state + start;
        for (Py_ssize_t w = 0; w < length; w++) {
            if (h[w] > length)
                ok = 0;
            roots += h[w] == 0;
            state[w] = 0;
            if (extents != Py_None) {
                long e = PyLong_AsLong(PyList_GET_ITEM(extents, start + w));
                if (e < 0 || e > length)
                    ok = 0;
            }
        }
        if (PyErr_Occurred()) {
            Py_DECREF(fine);
            Py_DECREF(numbers);
            return NULL;
        }
        ok = ok && roots == 1;
        for (Py_ssize_t w = 0; ok && w < length; w++) {
            Py_ssize_t x = w;
            while (state[x] == 0) {
                state[x] = 1;
                if (h[x] == 0) {
                    state[x] = 2;
                    break;
                }
                x = h[x] - 1;
            }
            if (state[x] == 1)
                ok = 0;
            for (Py_ssize_t y = w; state[y] == 1; y = h[y] - 1)
                state[y] = 2;
        }
        PyObject *flag = ok ? Py_True : Py_False;
        Py_INCREF(flag);
        PyList_SET_ITEM(fine, k, flag);
        start += length;
    }
    for (Py_ssize_t w = 0; w < n; w++) {
        PyObject *number_object = PyLong_FromLong(side->heads[w]);
        if (!number_object) {
            Py_DECREF(fine);
            Py_DECREF(numbers);
            return NULL;
        }
        PyList_SET_ITEM(numbers, w, number_object);
    }
    return Py_BuildValue("(NN)", fine, numbers);
}

/* code_cells(cells, index) -> bytes: `agreement.annotation`'s coder.  Each
 * cell (a str) as its number in ``index`` (a dict str -> int), a cell not
 * in it added with the next number, len(index): the numbers are the
 * values' places in order of first use, as the Python coder gives them.
 * The codes as int64s in one bytes object.  One dict lookup per cell and
 * no int object per cell: the Python coder's map() over the cells made an
 * int for each code above 256 (most LEMMA codes). */
static PyObject *code_cells(PyObject *module, PyObject *args) {
    PyObject *cells, *index;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!:code_cells", &PyList_Type, &cells, &PyDict_Type, &index))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(cells);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (!out)
        return NULL;
    int64_t *codes = (int64_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *cell = PyList_GET_ITEM(cells, k);
        PyObject *found = PyDict_GetItemWithError(index, cell); /* borrowed */
        if (found) {
            long long code = PyLong_AsLongLong(found);
            if (code == -1 && PyErr_Occurred())
                goto fail;
            codes[k] = (int64_t)code;
            continue;
        }
        if (PyErr_Occurred())
            goto fail;
        Py_ssize_t next = PyDict_GET_SIZE(index);
        PyObject *number = PyLong_FromSsize_t(next);
        if (!number)
            goto fail;
        int failed = PyDict_SetItem(index, cell, number);
        Py_DECREF(number);
        if (failed < 0)
            goto fail;
        codes[k] = (int64_t)next;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* --- the validator's plain sentence (scorer.validation.level1.plain_sentence) --- */

/* Whether a cell of UTF-8 holds whitespace the validator reports in a cell:
 * a space, the ASCII controls of str.isspace but tab and newline, or a
 * non-ASCII one (U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000). */
static int cell_space(const unsigned char *p, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == ' ' || c == '\r' || c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1f))
            return 1;
        if (c < 0x80 || i + 1 >= n)
            continue;
        unsigned char d = p[i + 1], e = i + 2 < n ? p[i + 2] : 0;
        if (c == 0xc2 && (d == 0x85 || d == 0xa0))
            return 1;
        if (c == 0xe1 && d == 0x9a && e == 0x80)
            return 1;
        if (c == 0xe2 && d == 0x80 && ((e >= 0x80 && e <= 0x8a) || e == 0xa8 || e == 0xa9 || e == 0xaf))
            return 1;
        if (c == 0xe2 && d == 0x81 && e == 0x9f)
            return 1;
        if (c == 0xe3 && d == 0x80 && e == 0x80)
            return 1;
    }
    return 0;
}

/* A number as the validator's tables write one: "0", "1", ... below 4096
 * (no sign, no leading zero), or -1. */
static long table_number(const char *p, Py_ssize_t n) {
    if (n == 0 || n > 4 || (n > 1 && p[0] == '0'))
        return -1;
    long v = number((Span){p, n});
    return v < 4096 ? v : -1;
}

/* Whether the HEADs (numbers, or -1) of words 1..n form a tree: each at
 * most n, one 0, every word reaching it. */
static int is_tree(const long *h, signed char *state, Py_ssize_t n) {
    int roots = 0;
    for (Py_ssize_t w = 0; w < n; w++) {
        if (h[w] < 0 || h[w] > n)
            return 0;
        roots += h[w] == 0;
        state[w] = 0;
    }
    if (roots != 1)
        return 0;
    for (Py_ssize_t w = 0; w < n; w++) {
        Py_ssize_t x = w;
        while (state[x] == 0) {
            state[x] = 1;
            if (h[x] == 0) {
                state[x] = 2;
                break;
            }
            x = h[x] - 1;
        }
        if (state[x] == 1)
            return 0;
        for (Py_ssize_t y = w; state[y] == 1; y = h[y] - 1)
            state[y] = 2;
    }
    return 1;
}

/* The cells of the token lines (all after the comment lines) into rows
 * (lists) and columns (tuples), the same str objects in both; 0 when a
 * line has not ten non-empty cells or a cell holds whitespace. */
static int cut_cells(const char *p, const char *end, Py_ssize_t n_rows, PyObject *rows, PyObject **cols,
                     long *heads, int *numbered) {
    for (Py_ssize_t r = 0; r < n_rows; r++) {
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        if (!line_end)
            line_end = end;
        PyObject *row = PyList_New(N_FIELDS);
        if (!row)
            return -1;
        PyList_SET_ITEM(rows, r, row);
        for (int f = 0; f < N_FIELDS; f++) {
            const char *q = f < N_FIELDS - 1 ? memchr(p, '\t', (size_t)(line_end - p)) : line_end;
            if (!q || q == p || (f == N_FIELDS - 1 && memchr(p, '\t', (size_t)(line_end - p))))
                return 0;
            if (cell_space((const unsigned char *)p, q - p))
                return 0;
            PyObject *cell = PyUnicode_DecodeUTF8(p, q - p, NULL);
            if (!cell)
                return -1;
            PyList_SET_ITEM(row, f, cell);
            Py_INCREF(cell);
            PyTuple_SET_ITEM(cols[f], r, cell);
            if (f == F_ID && *numbered)
                *numbered = id_is((Span){p, q - p}, (long)r + 1);
            else if (f == F_HEAD)
                heads[r] = table_number(p, q - p);
            p = q + 1;
        }
        p = line_end + 1;
    }
    return 1;
}

/* plain_sentence(block) -> (n_comments, rows, cols, words, heads) | None:
 * a block of lines (no line end after the last) cut as
 * `level1.plain_sentence` cuts it: the comment lines at its head, then
 * token lines of ten non-empty cells without whitespace; None when it is
 * not so (or not UTF-8).  ``words``: whether the IDs are exactly 1..n
 * (n < 4096); ``heads``: then [None, HEAD of word 1, ...] when the HEADs
 * form a tree, False when they do not; else None. */
static PyObject *plain_sentence(PyObject *module, PyObject *block) {
    (void)module;
    Py_ssize_t size;
    const char *text = utf8(block, &size);
    if (!text)
        Py_RETURN_NONE;
    const char *p = text, *end = text + size;
    const int ascii = PyUnicode_IS_ASCII(block);
    Py_ssize_t n_comments = 0, n_rows = 0;
    while (p < end && *p == '#') {
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        n_comments++;
        if (!line_end)
            Py_RETURN_NONE; /* no token line */
        for (const char *c = p; ascii && c < line_end; c++)
            if (*c == '\r' || *c == 0x0b || *c == 0x0c || (*c >= 0x1c && *c <= 0x1f))
                Py_RETURN_NONE; /* (the Python way refuses them in an ASCII block's comments) */
        p = line_end + 1;
    }
    if (p >= end)
        Py_RETURN_NONE;
    const char *body = p;
    for (const char *q = body; q; q = memchr(q, '\n', (size_t)(end - q)), q = q ? q + 1 : NULL)
        n_rows++;
    if (n_rows >= 4096)
        Py_RETURN_NONE;
    Side *side = &sides[1];
    if (grow((void **)&side->heads, &side->heads_cap, n_rows, sizeof(long)) < 0 ||
        grow((void **)&side->state, &side->state_cap, n_rows, 1) < 0)
        return PyErr_NoMemory();
    PyObject *rows = PyList_New(n_rows), *cols[N_FIELDS] = {NULL}, *col_tuple = PyTuple_New(N_FIELDS);
    if (!rows || !col_tuple)
        goto fail;
    for (int f = 0; f < N_FIELDS; f++) {
        cols[f] = PyTuple_New(n_rows);
        if (!cols[f])
            goto fail;
        PyTuple_SET_ITEM(col_tuple, f, cols[f]);
    }
    int numbered = 1;
    int cut = cut_cells(body, end, n_rows, rows, cols, side->heads, &numbered);
    if (cut < 0)
        goto fail;
    if (cut == 0) {
        Py_DECREF(rows);
        Py_DECREF(col_tuple);
        Py_RETURN_NONE;
    }
    PyObject *heads;
    if (!numbered) {
        heads = Py_None;
        Py_INCREF(heads);
    } else if (!is_tree(side->heads, side->state, n_rows)) {
        heads = Py_False;
        Py_INCREF(heads);
    } else {
        heads = PyList_New(n_rows + 1);
        if (!heads)
            goto fail;
        Py_INCREF(Py_None);
        PyList_SET_ITEM(heads, 0, Py_None);
        for (Py_ssize_t w = 0; w < n_rows; w++) {
            PyObject *h = PyLong_FromLong(side->heads[w]);
            if (!h) {
                Py_DECREF(heads);
                goto fail;
            }
            PyList_SET_ITEM(heads, w + 1, h);
        }
    }
    return Py_BuildValue("(nNNON)", n_comments, rows, col_tuple, numbered ? Py_True : Py_False, heads);
fail:
    Py_XDECREF(rows);
    if (col_tuple)
        Py_DECREF(col_tuple);
    else
        for (int f = 0; f < N_FIELDS; f++)
            Py_XDECREF(cols[f]);
    return NULL;
}

/* An AVX2 clone beside the default where the compiler makes clones for
 * x86-64 (GCC); elsewhere (another CPU, another compiler) the plain loop,
 * so that the extension builds on every machine with a C compiler. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define FAST_LOOP __attribute__((optimize("O3"), target_clones("avx2", "default")))
#else
#define FAST_LOOP
#endif

/* resampled_squares(weights, rows, units, entry_units, entry_counts, starts,
 * owners, vectors, out): `agreement.squares`'s sums of squares of resampled
 * category totals, the categories in two units or more.  ``weights``:
 * float64 rows x units (how often each unit was drawn, integers);
 * category c's entries are ``starts[c] .. starts[c + 1] - 1`` of
 * ``entry_units`` and ``entry_counts`` (int32), its vector ``owners[c]``
 * (int32).  Adds ``T_c^2``, ``T_c = sum_e w[r, unit_e] count_e``, to
 * ``out[r, owners[c]]`` (float64 rows x vectors).  Totals are int32 (the
 * caller checks largest |count| x units < 2^31, so no partial sum
 * overflows), their squares float64 as numpy makes them: integers, exact
 * below 2^53 in any order of addition, so the same numbers as the
 * products.  The weights are transposed first (units x rows), so that an
 * entry adds one contiguous row of a block's resamples. */
FAST_LOOP
static void add_rows(int32_t *restrict acc, const int16_t *restrict row, int32_t count, Py_ssize_t rows) {
    if (count == 1)
        for (Py_ssize_t r = 0; r < rows; r++)
            acc[r] += row[r];
    else
        for (Py_ssize_t r = 0; r < rows; r++)
            acc[r] += count * row[r];
}

FAST_LOOP
static void add_squares(double *restrict out, const int32_t *restrict acc, Py_ssize_t rows) {
    for (Py_ssize_t r = 0; r < rows; r++) {
        double t = (double)acc[r];
        out[r] += t * t;
    }
}

static PyObject *resampled_squares(PyObject *module, PyObject *args) {
    Py_buffer w, eu, ec, st, ow, out;
    Py_ssize_t rows, units, vectors;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*nny*y*y*y*nw*:resampled_squares", &w, &rows, &units, &eu, &ec, &st, &ow,
                          &vectors, &out))
        return NULL;
    PyObject *result = NULL;
    int16_t *wt = NULL;
    int32_t *acc = NULL;
    double *sq = NULL;
    Py_ssize_t categories = ow.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t entries = eu.len / (Py_ssize_t)sizeof(int32_t);
    if (rows < 0 || units < 0 || vectors < 0 || w.len != rows * units * (Py_ssize_t)sizeof(double)
        || ec.len != eu.len || st.len != (categories + 1) * (Py_ssize_t)sizeof(int64_t)
        || out.len != rows * vectors * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "resampled_squares: sizes do not match");
        goto done;
    }
    const double *weights = (const double *)w.buf;
    const int32_t *unit = (const int32_t *)eu.buf, *count = (const int32_t *)ec.buf, *owner = (const int32_t *)ow.buf;
    const int64_t *start = (const int64_t *)st.buf;
    for (Py_ssize_t c = 0; c < categories; c++)
        if (start[c] < 0 || start[c] > start[c + 1] || start[c + 1] > entries || owner[c] < 0 || owner[c] >= vectors) {
            PyErr_SetString(PyExc_ValueError, "resampled_squares: a category's entries or vector out of range");
            goto done;
        }
    for (Py_ssize_t e = 0; e < entries; e++)
        if (unit[e] < 0 || unit[e] >= units) {
            PyErr_SetString(PyExc_ValueError, "resampled_squares: a unit out of range");
            goto done;
        }
    for (Py_ssize_t k = 0; k < rows * units; k++)
        if (!(weights[k] >= 0 && weights[k] <= INT16_MAX && weights[k] == (double)(int16_t)weights[k])) {
            PyErr_SetString(PyExc_ValueError, "resampled_squares: a weight is not a whole number 0 .. 32767");
            goto done;
        }
    wt = malloc((size_t)(units * rows + 1) * sizeof(int16_t));
    acc = malloc((size_t)(rows + 1) * sizeof(int32_t));
    sq = calloc((size_t)(vectors * rows + 1), sizeof(double));
    if (!wt || !acc || !sq) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++)
        for (Py_ssize_t u = 0; u < units; u++)
            wt[u * rows + r] = (int16_t)weights[r * units + u];
    for (Py_ssize_t c = 0; c < categories; c++) {
        memset(acc, 0, (size_t)rows * sizeof(int32_t));
        for (int64_t e = start[c]; e < start[c + 1]; e++)
            add_rows(acc, wt + (Py_ssize_t)unit[e] * rows, count[e], rows);
        add_squares(sq + (Py_ssize_t)owner[c] * rows, acc, rows);
    }
    double *o = (double *)out.buf;
    for (Py_ssize_t r = 0; r < rows; r++)
        for (Py_ssize_t v = 0; v < vectors; v++)
            o[r * vectors + v] += sq[v * rows + r];
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    free(wt);
    free(acc);
    free(sq);
    PyBuffer_Release(&w);
    PyBuffer_Release(&eu);
    PyBuffer_Release(&ec);
    PyBuffer_Release(&st);
    PyBuffer_Release(&ow);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"count_pairs", count_pairs, METH_VARARGS,
     "count_pairs(system_texts, gold_texts) -> (passed, totals, each): the plain pairs with the "
     "same tokens, their summed raw counts, and each pair's counts (int64s, 29 per pair)."},
    {"tree_verdicts", tree_verdicts, METH_VARARGS,
     "tree_verdicts(heads, extents, words) -> (fine, numbers) or None: per sentence, whether its HEADs "
     "form a tree and its DEPS stay within it; the HEADs as numbers."},
    {"code_cells", code_cells, METH_VARARGS,
     "code_cells(cells, index) -> bytes: each cell's number in index (new cells added with the next "
     "number, in order of first use), as int64s."},
    {"resampled_squares", resampled_squares, METH_VARARGS,
     "resampled_squares(weights, rows, units, entry_units, entry_counts, starts, owners, vectors, out): adds "
     "each resample's squared category totals to out[resample, vector] (see agreement.squares)."},
    {"plain_sentence", plain_sentence, METH_O,
     "plain_sentence(block) -> (n_comments, rows, cols, words, heads) or None: a one-sentence block cut "
     "into cells for the validator's quick way (see scorer.validation.level1.plain_sentence)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_plain", "The compiled plain lane (see _plain.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__plain(void) {
    PyObject *module = PyModule_Create(&definition);
    if (module && PyModule_AddIntConstant(module, "N_VALUES", N_VALUES) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
