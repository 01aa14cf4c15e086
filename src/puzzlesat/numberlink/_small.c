/* puzzlesat.numberlink._small: a complete backtracking search for one-layer Numberlink boards.
 *
 * The design, its pruning and why each check is sound are in encodings/numberlink.md, "A
 * compiled search for small boards (_small.c)". In short: every pair grows a head from each of
 * its two ends; at each node the most constrained head is extended (a cell only it can thread
 * forces it), so each answer is reached exactly once. A node is cut when a necessary condition
 * fails: a free cell no path can thread (cover-all), an open pair whose heads share no free
 * region, or (cover-all) free regions that the open pairs cannot fill, each pair serving at
 * most one region and the chessboard colours of each region balanced (a matching). Under
 * no-self-touch rules a step beside its own path is never made.
 *
 * search(width, height, cells, ends, cover_all, no_self_touch, limit, budget, seconds)
 *   cells: int32 buffer, one per cell (row * width + col): -2 blocked, -1 free, k an end of pair k;
 *   ends:  int32 buffer, 2 per pair (the first end, then the second);
 *   -> (answers, complete, nodes): answers a list (at most limit) of tuples with one path per
 *   pair, each a tuple of (row, col) from the first end to the second; complete is True when
 *   the whole search ran (or limit answers were found), False when the node budget or the
 *   time (seconds < 0: none) stopped it first.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FREE (-1)
#define WALL (-2)
#define STEP 0
#define JOIN 1
#define STEP_JOIN 2
#define CLOCK_EVERY 4096

typedef struct { int k, side, cell, kind; } Move;

typedef struct {
    int n, w, npairs, cover_all, no_touch, limit;
    long long budget, nodes;
    double stop_at;
    int stopped, failed;
    int *nb;          /* 4 neighbours per cell, -1 for none */
    int *owner;       /* FREE, WALL or the pair */
    int *prev;        /* the cell a path came from (its end: itself) */
    unsigned char *black;
    int *head;        /* 2 per pair */
    unsigned char *done;
    int free_count, open_pairs;
    /* scratch of the feasibility check */
    int *reg, *stack, *rsize, *rblack;
    int *claims;      /* 4 regions per pair, -1 for none */
    int *surplus;     /* per pair: black minus white its remaining stretch adds */
    int *slot_region, *pair_slot, *seen;
    int seen_mark;
    PyObject *answers;
} Search;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int is_head(const Search *s, int q) {
    int o = s->owner[q];
    return o >= 0 && !s->done[o] && (s->head[2 * o] == q || s->head[2 * o + 1] == q);
}

static int adjacent(const Search *s, int a, int b) {
    const int *nb = s->nb + 4 * a;
    return nb[0] == b || nb[1] == b || nb[2] == b || nb[3] == b;
}

/* The legal moves of one head, joins first, then steps into cells with fewer free neighbours. */
static int moves_of(const Search *s, int k, int side, Move *out) {
    int here = s->head[2 * k + side], other = s->head[2 * k + 1 - side];
    int count = 0, exits[4];
    if (s->no_touch && adjacent(s, here, other)) {  /* adjacent heads must join, or the path touches itself */
        out[0].k = k; out[0].side = side; out[0].cell = other; out[0].kind = JOIN;
        return 1;
    }
    for (int i = 0; i < 4; i++) {
        int m = s->nb[4 * here + i];
        if (m < 0) continue;
        if (m == other) {
            for (int j = count; j > 0; j--) { out[j] = out[j - 1]; exits[j] = exits[j - 1]; }
            out[0].k = k; out[0].side = side; out[0].cell = m; out[0].kind = JOIN; exits[0] = -1;
            count++;
            continue;
        }
        if (s->owner[m] != FREE) continue;
        int kind = STEP, bad = 0, free_around = 0;
        for (int j = 0; j < 4; j++) {
            int q = s->nb[4 * m + j];
            if (q < 0 || q == here) continue;
            if (s->owner[q] == FREE) free_around++;
            else if (s->no_touch && s->owner[q] == k) {
                if (q == other) kind = STEP_JOIN; else bad = 1;
            }
        }
        if (bad) continue;
        int j = count;
        while (j > 0 && exits[j - 1] > free_around) { out[j] = out[j - 1]; exits[j] = exits[j - 1]; j--; }
        out[j].k = k; out[j].side = side; out[j].cell = m; out[j].kind = kind; exits[j] = free_around;
        count++;
    }
    return count;
}

/* The moves of the most constrained head (0 moves: a dead end). Under cover-all a free cell
 * beside a head with at most two ways left to be threaded (free neighbours or open heads) can
 * only be entered from that head: it forces the head; two such cells around one head are a
 * dead end (a head has one edge left). */
static int choose(const Search *s, Move *out) {
    Move tmp[4];
    int best = 5;
    for (int k = 0; k < s->npairs; k++) {
        if (s->done[k]) continue;
        for (int side = 0; side < 2; side++) {
            int here = s->head[2 * k + side];
            if (s->cover_all) {
                int forced = -1;
                for (int i = 0; i < 4; i++) {
                    int m = s->nb[4 * here + i];
                    if (m < 0 || s->owner[m] != FREE) continue;
                    int ways = 0;
                    for (int j = 0; j < 4; j++) {
                        int q = s->nb[4 * m + j];
                        if (q >= 0 && (s->owner[q] == FREE || is_head(s, q))) ways++;
                    }
                    if (ways <= 2) {
                        if (forced >= 0) return 0;
                        forced = m;
                    }
                }
                if (forced >= 0) {
                    int c = moves_of(s, k, side, tmp);
                    for (int i = 0; i < c; i++)
                        if (tmp[i].cell == forced) { out[0] = tmp[i]; return 1; }
                    return 0;
                }
            }
            int c = moves_of(s, k, side, tmp);
            if (c == 0) return 0;
            if (c < best) {
                best = c;
                memcpy(out, tmp, sizeof(Move) * (size_t)c);
                if (c == 1 && !s->cover_all) return 1;
            }
        }
    }
    return best == 5 ? 0 : best;
}

/* Kuhn's augmenting path from a slot (a place in a region a pair must fill) to a free pair. */
static int augment(Search *s, int slot) {
    int r = s->slot_region[slot], d = 2 * s->rblack[r] - s->rsize[r];
    for (int k = 0; k < s->npairs; k++) {
        if (s->done[k] || s->seen[k] == s->seen_mark) continue;
        if (d > 0 && s->surplus[k] <= 0) continue;
        if (d < 0 && s->surplus[k] >= 0) continue;
        const int *c = s->claims + 4 * k;
        if (c[0] != r && c[1] != r && c[2] != r && c[3] != r) continue;
        s->seen[k] = s->seen_mark;
        if (s->pair_slot[k] < 0 || augment(s, s->pair_slot[k])) {
            s->pair_slot[k] = slot;
            return 1;
        }
    }
    return 0;
}

/* Whether the node may still hold an answer: only necessary conditions, see the header. */
static int feasible(Search *s) {
    int n = s->n, nreg = 0;
    for (int c = 0; c < n; c++) s->reg[c] = -1;
    for (int c = 0; c < n; c++) {
        if (s->owner[c] != FREE || s->reg[c] >= 0) continue;
        int top = 0, size = 0, blacks = 0;
        s->stack[top++] = c;
        s->reg[c] = nreg;
        while (top) {
            int x = s->stack[--top];
            size++;
            blacks += s->black[x];
            for (int i = 0; i < 4; i++) {
                int m = s->nb[4 * x + i];
                if (m >= 0 && s->owner[m] == FREE && s->reg[m] < 0) { s->reg[m] = nreg; s->stack[top++] = m; }
            }
        }
        s->rsize[nreg] = size;
        s->rblack[nreg] = blacks;
        nreg++;
    }
    if (s->cover_all) {  /* every free cell can still be threaded */
        for (int c = 0; c < n; c++) {
            if (s->owner[c] != FREE) continue;
            int free_n = 0, nh = 0, hp[4];
            for (int i = 0; i < 4; i++) {
                int q = s->nb[4 * c + i];
                if (q < 0) continue;
                if (s->owner[q] == FREE) free_n++;
                else if (is_head(s, q)) hp[nh++] = s->owner[q];
            }
            if (free_n + nh < 2) return 0;
            if (free_n == 0) {  /* its two path neighbours must be the two heads of one pair */
                int same = 0;
                for (int i = 0; i < nh; i++)
                    for (int j = i + 1; j < nh; j++) if (hp[i] == hp[j]) same = 1;
                if (!same) return 0;
            }
        }
    }
    int open_serving = 0;
    for (int k = 0; k < s->npairs; k++) {
        int *cl = s->claims + 4 * k;
        cl[0] = cl[1] = cl[2] = cl[3] = -1;
        if (s->done[k]) continue;
        int a = s->head[2 * k], b = s->head[2 * k + 1];
        int adj = adjacent(s, a, b);
        if (s->no_touch && adj) continue;  /* they must join: no stretch left */
        int near_a[4], na = 0, nc = 0;
        for (int i = 0; i < 4; i++) {
            int m = s->nb[4 * a + i];
            if (m >= 0 && s->owner[m] == FREE) near_a[na++] = s->reg[m];
        }
        for (int i = 0; i < 4; i++) {
            int m = s->nb[4 * b + i];
            if (m < 0 || s->owner[m] != FREE) continue;
            int r = s->reg[m], in_a = 0, dup = 0;
            for (int j = 0; j < na; j++) if (near_a[j] == r) in_a = 1;
            for (int j = 0; j < nc; j++) if (cl[j] == r) dup = 1;
            if (in_a && !dup) cl[nc++] = r;
        }
        if (nc == 0 && !adj) return 0;
        if (nc) open_serving++;
        s->surplus[k] = s->black[a] != s->black[b] ? 0 : (s->black[a] ? -1 : 1);
    }
    if (!s->cover_all || nreg == 0) return 1;
    /* every region needs max(1, |d|) pairs of its own (d: black minus white cells; a pair's
     * stretch lies in one region and adds its surplus there) */
    int slots = 0;
    for (int r = 0; r < nreg; r++) {
        int d = 2 * s->rblack[r] - s->rsize[r];
        int need = d > 0 ? d : (d < 0 ? -d : 1);
        if (slots + need > open_serving) return 0;
        for (int i = 0; i < need; i++) s->slot_region[slots++] = r;
    }
    for (int k = 0; k < s->npairs; k++) s->pair_slot[k] = -1;
    for (int slot = 0; slot < slots; slot++) {
        s->seen_mark++;
        if (!augment(s, slot)) return 0;
    }
    return 1;
}

static void apply(Search *s, const Move *m) {
    if (m->kind != JOIN) {
        int here = s->head[2 * m->k + m->side];
        s->owner[m->cell] = m->k;
        s->prev[m->cell] = here;
        s->head[2 * m->k + m->side] = m->cell;
        s->free_count--;
    }
    if (m->kind != STEP) { s->done[m->k] = 1; s->open_pairs--; }
}

static void undo(Search *s, const Move *m) {
    if (m->kind != STEP) { s->done[m->k] = 0; s->open_pairs++; }
    if (m->kind != JOIN) {
        s->head[2 * m->k + m->side] = s->prev[m->cell];
        s->owner[m->cell] = FREE;
        s->free_count++;
    }
}

static PyObject *cell_tuple(const Search *s, int c) {
    return Py_BuildValue("(ii)", c / s->w, c % s->w);
}

/* The answer on the board now: per pair, its first end's chain reversed, then the second's. */
static int record(Search *s) {
    PyObject *answer = PyTuple_New(s->npairs);
    if (answer == NULL) return -1;
    int *chain = s->stack;
    for (int k = 0; k < s->npairs; k++) {
        int len0 = 0, len = 0;
        for (int c = s->head[2 * k];; c = s->prev[c]) { chain[len0++] = c; if (s->prev[c] == c) break; }
        PyObject *path;
        int len1 = 0;
        for (int c = s->head[2 * k + 1];; c = s->prev[c]) { len1++; if (s->prev[c] == c) break; }
        path = PyTuple_New(len0 + len1);
        if (path == NULL) { Py_DECREF(answer); return -1; }
        for (int i = len0 - 1; i >= 0; i--) {
            PyObject *cell = cell_tuple(s, chain[i]);
            if (cell == NULL) { Py_DECREF(path); Py_DECREF(answer); return -1; }
            PyTuple_SET_ITEM(path, len++, cell);
        }
        for (int c = s->head[2 * k + 1];; c = s->prev[c]) {
            PyObject *cell = cell_tuple(s, c);
            if (cell == NULL) { Py_DECREF(path); Py_DECREF(answer); return -1; }
            PyTuple_SET_ITEM(path, len++, cell);
            if (s->prev[c] == c) break;
        }
        PyTuple_SET_ITEM(answer, k, path);
    }
    int failed = PyList_Append(s->answers, answer);
    Py_DECREF(answer);
    return failed;
}

/* Depth first from the current node; 1 when the search is to end (limit, budget, time, error). */
static int dfs(Search *s) {
    if (s->open_pairs == 0) {
        if (s->cover_all && s->free_count > 0) return 0;
        if (record(s) < 0) { s->failed = 1; return 1; }
        return PyList_GET_SIZE(s->answers) >= s->limit;
    }
    Move moves[4];
    int count = choose(s, moves);
    for (int i = 0; i < count; i++) {
        if (s->nodes >= s->budget) { s->stopped = 1; return 1; }
        s->nodes++;
        if (s->stop_at >= 0 && s->nodes % CLOCK_EVERY == 0 && now() > s->stop_at) { s->stopped = 1; return 1; }
        apply(s, &moves[i]);
        int end = feasible(s) ? dfs(s) : 0;
        undo(s, &moves[i]);
        if (end) return 1;
    }
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    int w, h, cover_all, no_touch, limit;
    long long budget;
    double seconds;
    Py_buffer cells, ends;
    if (!PyArg_ParseTuple(args, "iiy*y*ppiLd", &w, &h, &cells, &ends, &cover_all, &no_touch, &limit, &budget, &seconds))
        return NULL;
    PyObject *result = NULL;
    Search s;
    memset(&s, 0, sizeof s);
    int n = w * h, npairs = (int)(ends.len / (Py_ssize_t)(2 * sizeof(int32_t)));
    if (w < 1 || h < 1 || cells.len != (Py_ssize_t)n * (Py_ssize_t)sizeof(int32_t)
        || ends.len != (Py_ssize_t)npairs * 2 * (Py_ssize_t)sizeof(int32_t) || limit < 1) {
        PyErr_SetString(PyExc_ValueError, "search: cells must hold width * height int32 values and ends two per pair");
        goto out;
    }
    const int32_t *cell = (const int32_t *)cells.buf, *end = (const int32_t *)ends.buf;
    s.n = n; s.w = w; s.npairs = npairs; s.cover_all = cover_all; s.no_touch = no_touch; s.limit = limit;
    s.budget = budget; s.stop_at = seconds < 0 ? -1.0 : now() + seconds;
    s.nb = malloc(sizeof(int) * 4 * (size_t)n);
    s.owner = malloc(sizeof(int) * (size_t)n);
    s.prev = malloc(sizeof(int) * (size_t)n);
    s.black = malloc((size_t)n);
    s.reg = malloc(sizeof(int) * (size_t)n);
    s.stack = malloc(sizeof(int) * (size_t)n);
    s.rsize = malloc(sizeof(int) * (size_t)n);
    s.rblack = malloc(sizeof(int) * (size_t)n);
    s.slot_region = malloc(sizeof(int) * (size_t)(npairs + 1));
    s.head = malloc(sizeof(int) * 2 * (size_t)(npairs + 1));
    s.done = calloc((size_t)(npairs + 1), 1);
    s.claims = malloc(sizeof(int) * 4 * (size_t)(npairs + 1));
    s.surplus = malloc(sizeof(int) * (size_t)(npairs + 1));
    s.pair_slot = malloc(sizeof(int) * (size_t)(npairs + 1));
    s.seen = calloc((size_t)(npairs + 1), sizeof(int));
    s.answers = PyList_New(0);
    if (!s.nb || !s.owner || !s.prev || !s.black || !s.reg || !s.stack || !s.rsize || !s.rblack || !s.slot_region
        || !s.head || !s.done || !s.claims || !s.surplus || !s.pair_slot || !s.seen || !s.answers) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto out;
    }
    for (int c = 0; c < n; c++) {
        int r = c / w, col = c % w;
        s.nb[4 * c] = r > 0 ? c - w : -1;
        s.nb[4 * c + 1] = r + 1 < h ? c + w : -1;
        s.nb[4 * c + 2] = col > 0 ? c - 1 : -1;
        s.nb[4 * c + 3] = col + 1 < w ? c + 1 : -1;
        s.black[c] = (unsigned char)((r + col) % 2 == 0);
        s.owner[c] = cell[c] < 0 ? (cell[c] == WALL ? WALL : FREE) : cell[c];
        s.prev[c] = c;
        if (cell[c] >= npairs || cell[c] < WALL) {
            PyErr_SetString(PyExc_ValueError, "search: a cell names no pair");
            goto out;
        }
        if (s.owner[c] == FREE) s.free_count++;
    }
    for (int k = 0; k < 2 * npairs; k++) {
        if (end[k] < 0 || end[k] >= n || cell[end[k]] != k / 2) {
            PyErr_SetString(PyExc_ValueError, "search: an end is not a cell of its pair");
            goto out;
        }
        s.head[k] = end[k];
    }
    s.open_pairs = npairs;
    if (feasible(&s)) dfs(&s);
    if (s.failed) goto out;
    result = Py_BuildValue("(OOL)", s.answers, s.stopped ? Py_False : Py_True, s.nodes);
out:
    Py_XDECREF(s.answers);
    free(s.nb); free(s.owner); free(s.prev); free(s.black); free(s.reg); free(s.stack); free(s.rsize);
    free(s.rblack); free(s.slot_region); free(s.head); free(s.done); free(s.claims); free(s.surplus);
    free(s.pair_slot); free(s.seen);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&ends);
    return result;
}


/* ---- the sweep: cells in a fixed order (rows, or columns on a wide board), each deciding its
 * edges to the right and down; up and left were decided before it. Paths so far are joined in a
 * union-find (undone on the way back) that knows each part's pair once it holds an end. */
typedef struct {
    int n, w, h, npairs, cover_all, no_touch, limit, columns;
    long long budget, nodes;
    double stop_at;
    int stopped, failed;
    const int32_t *cell;   /* -2 blocked, -1 free, k an end of pair k */
    const int32_t *ends;
    unsigned char *right, *down, *used;
    int *parent, *size, *colour;
    int *hist, nhist;      /* 3 per union: the part joined, the part it joined, that part's old colour */
    PyObject *answers;
} Sweep;

static int root_of(const Sweep *s, int c) { while (s->parent[c] != c) c = s->parent[c]; return c; }

/* Join the parts of a and b: 0 on a cycle or two pairs in one path. */
static int join(Sweep *s, int a, int b) {
    a = root_of(s, a); b = root_of(s, b);
    if (a == b) return 0;
    int ca = s->colour[a], cb = s->colour[b];
    if (ca >= 0 && cb >= 0 && ca != cb) return 0;
    if (s->size[a] > s->size[b]) { int t = a; a = b; b = t; int tc = ca; ca = cb; cb = tc; }
    s->parent[a] = b; s->size[b] += s->size[a];
    s->hist[s->nhist++] = a; s->hist[s->nhist++] = b; s->hist[s->nhist++] = cb;
    if (cb < 0) s->colour[b] = ca;
    return 1;
}

static void unjoin_to(Sweep *s, int mark) {
    while (s->nhist > mark) {
        int old = s->hist[--s->nhist], b = s->hist[--s->nhist], a = s->hist[--s->nhist];
        s->colour[b] = old; s->size[b] -= s->size[a]; s->parent[a] = a;
    }
}

/* Two used cells side by side without an edge between them in one path: it touches itself. */
static int touching(const Sweep *s, int a, int b) {
    if (!s->used[a] || !s->used[b]) return 0;
    int ra = root_of(s, a), rb = root_of(s, b);
    return ra == rb || (s->colour[ra] >= 0 && s->colour[ra] == s->colour[rb]);
}

/* Looking ahead from c along its new edge into t (not yet swept): t's other neighbour before it,
 * when swept, either sends an edge into t too (then t joins both parts: no cycle, one pair, and
 * t is no pair's end) or, under no-self-touch, must not lie in c's part beside t. An end of pair
 * j takes only a part of pair j. (Unswept cells have no edges and are not used.) */
static int ahead(const Sweep *s, int c, int t) {
    int rc = root_of(s, c), col = t % s->w;
    int others[2] = {col > 0 ? t - 1 : -1, t >= s->w ? t - s->w : -1};
    for (int i = 0; i < 2; i++) {
        int o = others[i];
        if (o < 0 || o == c) continue;
        int into = i == 0 ? s->right[o] : s->down[o];
        if (into) {
            int ro = root_of(s, o);
            if (s->cell[t] >= 0 || ro == rc || (s->colour[ro] >= 0 && s->colour[rc] >= 0 && s->colour[ro] != s->colour[rc]))
                return 0;
        } else if (s->no_touch && touching(s, c, o)) {
            return 0;
        }
    }
    return s->cell[t] < 0 || s->colour[rc] < 0 || s->colour[rc] == s->cell[t];
}

/* The corner rule (cover-all and no-self-touch): a free cell turning between directions a and b
 * leaves the cell one step along a and one along b either blocked, an end, or turning the same
 * way (anything else would be a path beside itself or an uncovered cell). Checked for each pair
 * of such cells once both are swept. Edges: 1 up, 2 down, 4 left, 8 right. */
static int sweep_index(const Sweep *s, int c) { return s->columns ? (c % s->w) * s->h + c / s->w : c; }

static int edge_mask(const Sweep *s, int z) {
    int col = z % s->w;
    return (z >= s->w && s->down[z - s->w]) | (s->down[z] << 1) | ((col > 0 && s->right[z - 1]) << 2) | (s->right[z] << 3);
}

static int corner_ok(const Sweep *s, int c, int i) {
    static const int turns[4] = {4 | 2, 8 | 2, 1 | 8, 1 | 4};
    int row = c / s->w, col = c % s->w, mask = edge_mask(s, c);
    for (int t = 0; t < 4; t++) {
        int turn = turns[t];
        int dr = (turn & 2 ? 1 : 0) - (turn & 1 ? 1 : 0), dc = (turn & 8 ? 1 : 0) - (turn & 4 ? 1 : 0);
        if (mask == turn && s->cell[c] == FREE) {  /* c turns: the cell inside its turn */
            int r2 = row + dr, c2 = col + dc, y = r2 * s->w + c2;
            if (r2 >= 0 && r2 < s->h && c2 >= 0 && c2 < s->w && sweep_index(s, y) < i && s->cell[y] == FREE && edge_mask(s, y) != turn)
                return 0;
        }
        int r0 = row - dr, c0 = col - dc, z = r0 * s->w + c0;  /* a swept cell turning towards c */
        if (r0 >= 0 && r0 < s->h && c0 >= 0 && c0 < s->w && sweep_index(s, z) < i && s->cell[z] == FREE
            && edge_mask(s, z) == turn && s->cell[c] == FREE && mask != turn)
            return 0;
    }
    return 1;
}

static int sweep_cell(const Sweep *s, int i) {
    return s->columns ? (i % s->h) * s->w + i / s->h : i;
}

static int sweep_record(Sweep *s) {
    PyObject *answer = PyTuple_New(s->npairs);
    if (answer == NULL) return -1;
    for (int k = 0; k < s->npairs; k++) {
        PyObject *path = PyList_New(0);
        if (path == NULL) { Py_DECREF(answer); return -1; }
        int prev = -1, c = s->ends[2 * k];
        while (1) {
            PyObject *cell = Py_BuildValue("(ii)", c / s->w, c % s->w);
            if (cell == NULL || PyList_Append(path, cell) < 0) { Py_XDECREF(cell); Py_DECREF(path); Py_DECREF(answer); return -1; }
            Py_DECREF(cell);
            if (c == s->ends[2 * k + 1]) break;
            int col = c % s->w, next = -1;
            if (s->right[c] && c + 1 != prev) next = c + 1;
            else if (col > 0 && s->right[c - 1] && c - 1 != prev) next = c - 1;
            else if (s->down[c] && c + s->w != prev) next = c + s->w;
            else if (c >= s->w && s->down[c - s->w] && c - s->w != prev) next = c - s->w;
            if (next < 0) { Py_DECREF(path); Py_DECREF(answer); PyErr_SetString(PyExc_RuntimeError, "sweep: a broken path"); return -1; }
            prev = c; c = next;
        }
        PyObject *tuple = PyList_AsTuple(path);
        Py_DECREF(path);
        if (tuple == NULL) { Py_DECREF(answer); return -1; }
        PyTuple_SET_ITEM(answer, k, tuple);
    }
    int failed = PyList_Append(s->answers, answer);
    Py_DECREF(answer);
    return failed;
}

/* Whether no path touches itself anywhere (at a full board: parts are whole paths now). */
static int sweep_untouched(const Sweep *s) {
    for (int c = 0; c < s->n; c++) {
        if (c % s->w + 1 < s->w && !s->right[c] && touching(s, c, c + 1)) return 0;
        if (c + s->w < s->n && !s->down[c] && touching(s, c, c + s->w)) return 0;
    }
    return 1;
}

static int sweep_dfs(Sweep *s, int i) {
    if (i == s->n) {
        if (s->no_touch && !sweep_untouched(s)) return 0;
        if (sweep_record(s) < 0) { s->failed = 1; return 1; }
        return PyList_GET_SIZE(s->answers) >= s->limit;
    }
    int c = sweep_cell(s, i), w = s->w, col = c % w, code = s->cell[c];
    int left = col > 0 ? c - 1 : -1, up = c >= w ? c - w : -1;
    int in_left = left >= 0 && s->right[left], in_up = up >= 0 && s->down[up];
    int in = in_left + in_up;
    if (code == WALL) return sweep_dfs(s, i + 1);  /* (no edge enters a blocked cell) */
    int can_right = col + 1 < w && s->cell[c + 1] != WALL;
    int can_down = c + w < s->n && s->cell[c + w] != WALL;
    for (int option = 0; option < 4; option++) {
        int r = option & 1, d = option >> 1, degree = in + r + d;
        if ((r && !can_right) || (d && !can_down)) continue;
        if (code >= 0 ? degree != 1 : (s->cover_all ? degree != 2 : (degree != 0 && degree != 2))) continue;
        if (s->nodes >= s->budget) { s->stopped = 1; return 1; }
        s->nodes++;
        if (s->stop_at >= 0 && s->nodes % CLOCK_EVERY == 0 && now() > s->stop_at) { s->stopped = 1; return 1; }
        int mark = s->nhist, ok = 1;
        s->right[c] = (unsigned char)r; s->down[c] = (unsigned char)d; s->used[c] = degree > 0;
        s->parent[c] = c; s->size[c] = 1; s->colour[c] = code;
        if (in_left) ok = join(s, c, left);
        if (ok && in_up) ok = join(s, c, up);
        if (ok && s->no_touch && degree > 0)
            ok = !(left >= 0 && !in_left && touching(s, c, left)) && !(up >= 0 && !in_up && touching(s, c, up));
        if (ok && s->no_touch && s->cover_all) ok = corner_ok(s, c, i);
        if (ok && r) ok = ahead(s, c, c + 1);
        if (ok && d) ok = ahead(s, c, c + w);
        int end = ok ? sweep_dfs(s, i + 1) : 0;
        unjoin_to(s, mark);
        s->right[c] = s->down[c] = s->used[c] = 0;
        if (end) return 1;
    }
    return 0;
}

static PyObject *sweep(PyObject *self, PyObject *args) {
    int w, h, cover_all, no_touch, limit;
    long long budget;
    double seconds;
    Py_buffer cells, ends;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiy*y*ppiLd", &w, &h, &cells, &ends, &cover_all, &no_touch, &limit, &budget, &seconds))
        return NULL;
    PyObject *result = NULL;
    Sweep s;
    memset(&s, 0, sizeof s);
    int n = w * h, npairs = (int)(ends.len / (Py_ssize_t)(2 * sizeof(int32_t)));
    if (w < 1 || h < 1 || cells.len != (Py_ssize_t)n * (Py_ssize_t)sizeof(int32_t)
        || ends.len != (Py_ssize_t)npairs * 2 * (Py_ssize_t)sizeof(int32_t) || limit < 1) {
        PyErr_SetString(PyExc_ValueError, "sweep: cells must hold width * height int32 values and ends two per pair");
        goto out;
    }
    s.cell = (const int32_t *)cells.buf; s.ends = (const int32_t *)ends.buf;
    s.n = n; s.w = w; s.h = h; s.npairs = npairs; s.cover_all = cover_all; s.no_touch = no_touch; s.limit = limit;
    s.columns = w > h;
    s.budget = budget; s.stop_at = seconds < 0 ? -1.0 : now() + seconds;
    s.right = calloc((size_t)n, 1); s.down = calloc((size_t)n, 1); s.used = calloc((size_t)n, 1);
    s.parent = malloc(sizeof(int) * (size_t)n); s.size = malloc(sizeof(int) * (size_t)n);
    s.colour = malloc(sizeof(int) * (size_t)n); s.hist = malloc(sizeof(int) * 6 * (size_t)n);
    s.answers = PyList_New(0);
    if (!s.right || !s.down || !s.used || !s.parent || !s.size || !s.colour || !s.hist || !s.answers) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto out;
    }
    for (int c = 0; c < n; c++) {
        if (s.cell[c] >= npairs || s.cell[c] < WALL) { PyErr_SetString(PyExc_ValueError, "sweep: a cell names no pair"); goto out; }
        s.parent[c] = c;
    }
    for (int k = 0; k < 2 * npairs; k++)
        if (s.ends[k] < 0 || s.ends[k] >= n || s.cell[s.ends[k]] != k / 2) {
            PyErr_SetString(PyExc_ValueError, "sweep: an end is not a cell of its pair");
            goto out;
        }
    sweep_dfs(&s, 0);
    if (s.failed) goto out;
    result = Py_BuildValue("(OOL)", s.answers, s.stopped ? Py_False : Py_True, s.nodes);
out:
    Py_XDECREF(s.answers);
    free(s.right); free(s.down); free(s.used); free(s.parent); free(s.size); free(s.colour); free(s.hist);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&ends);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(width, height, cells, ends, cover_all, no_self_touch, limit, budget, seconds) -> (answers, complete, nodes)"},
    {"sweep", sweep, METH_VARARGS, "sweep(...): the same, by a sweep over the cells"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_small", "A compiled backtracking search for small one-layer Numberlink boards.", -1, methods};

PyMODINIT_FUNC PyInit__small(void) { return PyModule_Create(&module); }
