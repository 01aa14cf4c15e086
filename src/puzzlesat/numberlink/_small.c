/* puzzlesat.numberlink._small: a complete backtracking search for one-layer Numberlink boards.
 *
 * The cells are swept in a fixed order (by rows, or by columns on a wide board); each cell
 * chooses its edges to the right and down, so that its degree is 1 at an end, 2 on a free cell
 * under cover-all (0 or 2 otherwise); its edges up and left were chosen before it. The partial
 * paths are kept in a union-find, undone on the way back, whose parts know their pair once they
 * hold an end: a cell that would close a cycle or join two pairs is refused, and so, looking one
 * cell ahead along each new edge, is one whose edge leads into such a join. Under no-self-touch
 * two cells side by side in one part without an edge between them are refused, and under
 * cover-all and no-self-touch the corner rule holds (a cell turning between directions a and b
 * leaves the cell one step along a and b blocked, an end, or turning the same way), followed to
 * its end before the search (a turn whose diagonal ray leaves the board before a blocked cell or
 * an end is refused at once) and one cell ahead (a free cell left with no edge in must turn right
 * and down). Each answer is one choice of edges per cell, so it is reached exactly once; a full
 * board is checked for self-touch once more (parts that met late). Why each check is sound: encodings/numberlink.md,
 * "A compiled search for small boards (_small.c)".
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
#define CLOCK_EVERY 4096
#define MAX_CELLS 16384

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the sweep: cells in a fixed order (rows, or columns on a wide board), each deciding its
 * edges to the right and down; up and left were decided before it. Paths so far are joined in a
 * union-find (undone on the way back) that knows each part's pair once it holds an end. */
typedef struct {
    int n, w, h, npairs, cover_all, no_touch, corners, limit;
    int *order, *rank;     /* the cell swept i-th, and the turn of each cell */
    long long budget, nodes;
    double stop_at;
    int stopped, failed;
    const int32_t *cell;   /* -2 blocked, -1 free, k an end of pair k */
    const int32_t *ends;
    unsigned char *right, *down, *used;
    unsigned char *may_turn;   /* per free cell, the turns (edge masks) the corner rule leaves it */
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
static int sweep_index(const Sweep *s, int c) { return s->rank[c]; }

static int edge_mask(const Sweep *s, int z) {
    int col = z % s->w;
    return (z >= s->w && s->down[z - s->w]) | (s->down[z] << 1) | ((col > 0 && s->right[z - 1]) << 2) | (s->right[z] << 3);
}

/* The four turns as edge masks: left and down, right and down (RIGHT_DOWN), up and right, up and left. */
static const int TURNS[4] = {4 | 2, 8 | 2, 1 | 8, 1 | 4};
#define RIGHT_DOWN 1

static int corner_ok(const Sweep *s, int c, int i) {
    int row = c / s->w, col = c % s->w, mask = edge_mask(s, c);
    for (int t = 0; t < 4; t++) {
        int turn = TURNS[t];
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

/* The corner rule followed to its end: a free cell turning between a and b needs the cells
 * X + k(a + b) to turn the same way until one is blocked or an end, so a turn whose diagonal
 * ray leaves the board first is never part of an answer. Bit t of may_turn[c]: turn t allowed. */
static void fill_may_turn(Sweep *s) {
    for (int c = 0; c < s->n; c++) {
        s->may_turn[c] = 0;
        if (s->cell[c] != FREE) continue;
        for (int t = 0; t < 4; t++) {
            int turn = TURNS[t];
            int dr = (turn & 2 ? 1 : 0) - (turn & 1 ? 1 : 0), dc = (turn & 8 ? 1 : 0) - (turn & 4 ? 1 : 0);
            int r = c / s->w + dr, col = c % s->w + dc;
            while (r >= 0 && r < s->h && col >= 0 && col < s->w && s->cell[r * s->w + col] == FREE) { r += dr; col += dc; }
            if (r >= 0 && r < s->h && col >= 0 && col < s->w) s->may_turn[c] |= (unsigned char)(1 << t);
        }
    }
}

/* Whether the edge mask (1 up, 2 down, 4 left, 8 right) of free cell c is a turn the ray allows. */
static int turn_allowed(const Sweep *s, int c, int mask) {
    for (int t = 0; t < 4; t++)
        if (mask == TURNS[t]) return s->may_turn[c] & (1 << t);
    return 1;
}

static int sweep_cell(const Sweep *s, int i) {
    return s->order[i];
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
        if (s->corners && code == FREE && !turn_allowed(s, c, in_up | (d << 1) | (in_left << 2) | (r << 3))) continue;
        if (s->corners && !r && can_right && s->cell[c + 1] == FREE && !(c + 1 >= w && s->down[c + 1 - w])
            && !(c + 1 + w < s->n && col + 2 < w && (s->may_turn[c + 1] & (1 << RIGHT_DOWN)))) continue;  /* c + 1 must turn right and down */
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
        if (ok && s->corners) ok = corner_ok(s, c, i);
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
    int npairs = (int)(ends.len / (Py_ssize_t)(2 * sizeof(int32_t)));
    if (w < 1 || h < 1 || (long long)w * h > MAX_CELLS) {  /* (one C stack frame per cell swept) */
        PyErr_SetString(PyExc_ValueError, "search: boards of at most 16384 cells");
        goto out;
    }
    int n = w * h;
    if (cells.len != (Py_ssize_t)n * (Py_ssize_t)sizeof(int32_t)
        || ends.len != (Py_ssize_t)npairs * 2 * (Py_ssize_t)sizeof(int32_t) || limit < 1) {
        PyErr_SetString(PyExc_ValueError, "sweep: cells must hold width * height int32 values and ends two per pair");
        goto out;
    }
    s.cell = (const int32_t *)cells.buf; s.ends = (const int32_t *)ends.buf;
    s.n = n; s.w = w; s.h = h; s.npairs = npairs; s.cover_all = cover_all; s.no_touch = no_touch; s.limit = limit;
    s.order = malloc(sizeof(int) * (size_t)n); s.rank = malloc(sizeof(int) * (size_t)n);
    if (s.order && s.rank) {  /* along the diagonals row + col = d, each from its top */
        int i = 0;
        for (int d = 0; d < w + h - 1; d++)
            for (int r = d < w ? 0 : d - w + 1; r <= d && r < h; r++) { s.order[i] = r * w + d - r; s.rank[r * w + d - r] = i; i++; }
    }
    s.budget = budget; s.stop_at = seconds < 0 ? -1.0 : now() + seconds;
    s.right = calloc((size_t)n, 1); s.down = calloc((size_t)n, 1); s.used = calloc((size_t)n, 1);
    s.may_turn = calloc((size_t)n, 1); s.corners = cover_all && no_touch;
    s.parent = malloc(sizeof(int) * (size_t)n); s.size = malloc(sizeof(int) * (size_t)n);
    s.colour = malloc(sizeof(int) * (size_t)n); s.hist = malloc(sizeof(int) * 6 * (size_t)n);
    s.answers = PyList_New(0);
    if (!s.order || !s.rank || !s.right || !s.down || !s.used || !s.may_turn || !s.parent || !s.size || !s.colour || !s.hist || !s.answers) {
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
    fill_may_turn(&s);
    sweep_dfs(&s, 0);
    if (s.failed) goto out;
    result = Py_BuildValue("(OOL)", s.answers, s.stopped ? Py_False : Py_True, s.nodes);
out:
    Py_XDECREF(s.answers);
    free(s.order); free(s.rank); free(s.right); free(s.down); free(s.used); free(s.may_turn); free(s.parent); free(s.size); free(s.colour); free(s.hist);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&ends);
    return result;
}

static PyMethodDef methods[] = {
    {"search", sweep, METH_VARARGS,
     "search(width, height, cells, ends, cover_all, no_self_touch, limit, budget, seconds) -> (answers, complete, nodes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_small", "A compiled backtracking search for small one-layer Numberlink boards.", -1, methods};

PyMODINIT_FUNC PyInit__small(void) { return PyModule_Create(&module); }
