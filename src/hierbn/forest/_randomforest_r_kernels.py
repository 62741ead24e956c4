"""Numba kernels of R ``randomForest``'s classification forest on factor predictors; the Python
API, and the numbered decisions (D1-D16) these kernels follow, are in
:mod:`hierbn.forest.randomforest_r`.

A tree is grown as ``buildtree`` of randomForest's ``rfsub.f`` grows it: nodes are numbered in
the order they are made (the root 0, the children of a split node ``ncur`` and ``ncur + 1``),
each node holds a contiguous run of the in-bag cases (``ncase``), and a split node's cases are
partitioned stably, left cases first. Per node the arrays are: the split variable (-1 at a
leaf), the uint64 mask of the levels that go left, the left child (the right child is the next
node) and, at a leaf, the class. The arithmetic of the split criterion repeats the source's
order of operations, so with the same in-bag weights the same split wins, to the last bit.

Hand-written because no library grows R's categorical subset splits; scikit-learn's trees split
integer codes as ordered numbers.

Every tree seeds Numba's generator of the calling thread with its own seed before its first
draw, so the forest does not depend on how many threads run the ``prange`` over trees.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

MAX_LEVELS = 53  # randomForest.default: "more than 53 categories" is an error (D1)
EXHAUSTIVE_MAX_LEVELS = 10  # ncmax in findbestsplit (rfsub.f): above it, no exhaustive search
RANDOM_SUBSETS = 512  # ncsplit in findbestsplit: random subsets tried above ncmax (D9)
NO_SPLIT = -1.0e25  # critmax before the first candidate (findbestsplit)
BAG_ATTEMPTS = 31  # classRF (rf.c): a bag with < 2 classes is redrawn while ntry <= 30 (D3)
ROOT_ATTEMPTS = 1000  # ours: R redraws a root-only tree without bound (D4)
EMPTY_LEFT = 1.0e-8  # catmax (classTree.c): a left side of weight <= 1e-8 is no split
EMPTY_SIDE = 1.0e-5  # catmax, catmaxb: a side of weight <= 1e-5 is no split
TO_SPLIT, TERMINAL, SPLIT = 2, -1, 1  # nodestatus codes of buildtree
GROWN, BAG_FAILED, ROOT_ONLY = 0, 1, 2  # tree status returned to Python
# rows predicted together, tree after tree: a block reads every tree once (the forest, tens of
# MB, does not stay in cache), and 8,192 rows of codes stay in cache for the whole forest
ROW_BLOCK = 8192


@njit(cache=True, nogil=True)
def draw_bag(cl, classwt, replace, jin, win, tclasspop) -> bool:
    """The in-bag sample of classRF (rf.c): n cases drawn with replacement as
    ``(int)(unif_rand() * n)`` (sampleWithReplacement, rfutils.c), each draw adding its class
    weight to the case's weight ``win`` and to ``tclasspop``; without replacement every case
    once. Redrawn while fewer than two classes are in the bag, at most BAG_ATTEMPTS draws;
    returns whether two classes were reached."""
    n = cl.size
    for _ in range(BAG_ATTEMPTS):
        jin[:] = 0
        win[:] = 0.0
        tclasspop[:] = 0.0
        for i in range(n):
            k = int(np.random.random() * n) if replace else i
            win[k] += classwt[cl[k]]
            tclasspop[cl[k]] += classwt[cl[k]]
            jin[k] += 1
        if (tclasspop > 0.0).sum() >= 2:
            return True
    return False


@njit(cache=True, nogil=True)
def gini_crit(left, tclasspop, parent_den) -> float:
    """catmax's criterion of the split whose left class weights are ``left``:
    sum(left^2)/left_weight + sum(right^2)/right_weight (the Gini decrease plus a constant of
    the node), NO_SPLIT when one side is empty."""
    left_num = 0.0
    left_den = 0.0
    for j in range(left.size):
        left_num += left[j] * left[j]
        left_den += left[j]
    if left_den <= EMPTY_LEFT or parent_den - left_den <= EMPTY_SIDE:
        return NO_SPLIT
    right_num = 0.0
    for j in range(left.size):
        right = tclasspop[j] - left[j]
        right_num += right * right
    return left_num / left_den + right_num / (parent_den - left_den)


@njit(cache=True, nogil=True)
def exhaustive_split(tcc, present, m, n_levels, tclasspop, parent_den, critmax, sums, masks, pos):
    """catmax's exhaustive search (D8) over the ``m`` levels present at the node: the left
    side is every non-empty subset of them, the last declared level excepted. (catmax's codes
    with absent levels left add zeros to the same sums: they tie with, and come after, the
    code without them.) Subsets are visited depth first, each one's class weights its parent's
    plus its highest level's, i.e. summed in increasing level order as catmax sums them.
    Returns (crit, mask) of the best that beats ``critmax``, the smallest mask among equals
    (catmax's first in code order), or (critmax, 0)."""
    best_crit, best_mask = critmax, np.uint64(0)
    k = m - 1 if present[m - 1] == n_levels - 1 else m
    depth = 0
    pos[0] = 0
    sums[0] = 0.0
    masks[0] = 0
    while depth >= 0:
        if pos[depth] < k:
            level = present[pos[depth]]
            for j in range(tclasspop.size):
                sums[depth + 1, j] = sums[depth, j] + tcc[level, j]
            masks[depth + 1] = masks[depth] | (np.uint64(1) << np.uint64(level))
            crit = gini_crit(sums[depth + 1], tclasspop, parent_den)
            if crit > best_crit or (
                crit == best_crit and best_mask and masks[depth + 1] < best_mask
            ):
                best_crit, best_mask = crit, masks[depth + 1]
            pos[depth + 1] = pos[depth] + 1
            depth += 1
        else:
            depth -= 1
            if depth >= 0:
                pos[depth] += 1
    return best_crit, best_mask


@njit(cache=True, nogil=True)
def random_split(tcc, present, m, n_levels, tclasspop, parent_den, critmax, left):
    """RANDOM_SUBSETS random subsets of all ``n_levels`` declared levels, each level left with
    probability 1/2 (catmax above ncmax with more than two classes, D9); the first best that
    beats ``critmax`` wins. Returns (crit, mask) or (critmax, 0)."""
    best_crit, best_mask = critmax, np.uint64(0)
    scale = 2.0**n_levels
    for _ in range(RANDOM_SUBSETS):
        mask = np.uint64(np.random.random() * scale)
        left[:] = 0.0
        for b in range(m):
            level = present[b]
            if (mask >> np.uint64(level)) & np.uint64(1):
                for j in range(left.size):
                    left[j] += tcc[level, j]
        crit = gini_crit(left, tclasspop, parent_den)
        if crit > best_crit:
            best_crit, best_mask = crit, mask
    return best_crit, best_mask


@njit(cache=True, nogil=True)
def sorted_split(tcc, present, m, n_levels, tclasspop, parent_den, critmax, sort_work, cp, cm):
    """Two classes, more than ncmax levels (catmaxb, classTree.c; D10): the levels sorted by
    their share of the first class, the best cut between two different shares that beats
    ``critmax`` (the first of equals), and every level whose share is below the cut's midpoint
    goes left. catmaxb sorts all ``n_levels``, a level absent from the node with share 0 and
    weight 0: such levels add nothing to the running sums and a cut with none of the present
    levels on its left is empty, so the ``m`` present levels are sorted (stably, by insertion:
    m <= 53) and the absent levels join every left side. Returns (crit, mask) or (critmax, 0)."""
    share, weight, order = sort_work
    for b in range(m):
        level = present[b]
        weight[b] = tcc[level, 0] + tcc[level, 1]
        share[b] = tcc[level, 0] / weight[b]
        i = b
        while i > 0 and share[order[i - 1]] > share[b]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = b
    cp[:] = 0.0
    cm[:] = tclasspop
    right_den, left_den = parent_den, 0.0
    best_crit, cut, hit = critmax, 0.0, False
    for i in range(m - 1):
        b = order[i]
        left_den += weight[b]
        right_den -= weight[b]
        left_num, right_num = 0.0, 0.0
        for j in range(2):
            cp[j] += tcc[present[b], j]
            cm[j] -= tcc[present[b], j]
            left_num += cp[j] * cp[j]
            right_num += cm[j] * cm[j]
        nxt = order[i + 1]
        if share[b] < share[nxt] and right_den > EMPTY_SIDE and left_den > EMPTY_SIDE:
            crit = left_num / left_den + right_num / right_den
            if crit > best_crit:
                best_crit, cut, hit = crit, 0.5 * (share[b] + share[nxt]), True
    if not hit:
        return best_crit, np.uint64(0)
    mask = (np.uint64(1) << np.uint64(n_levels)) - np.uint64(1)
    for b in range(m):
        if share[b] >= cut:
            mask ^= np.uint64(1) << np.uint64(present[b])
    return best_crit, mask


@njit(cache=True, nogil=True)
def count_levels(x_var, cl, win, ncase, start, count, n_levels, tcc, present) -> int:
    """The node's class weights per level of one variable (tclasscat, in the node's case
    order) and its present levels in increasing order; returns their number."""
    tcc[:n_levels] = 0.0
    for i in range(start, start + count):
        case = ncase[i]
        tcc[x_var[case], cl[case]] += win[case]
    m = 0
    for level in range(n_levels):
        if tcc[level].sum() > 0.0:
            present[m] = level
            m += 1
    return m


@njit(cache=True, nogil=True)
def best_split(xt, cl, win, cards, ncase, start, count, tclasspop, mtry, work):
    """findbestsplit (rfsub.f) for factors: ``mtry`` variables sampled without replacement
    (D6); each with at least two levels present searched by D8-D10; the strictly best over all
    (D11). Returns (variable, mask), variable -1 when no sampled variable splits (D7)."""
    mind, tcc, present, sums, masks, pos, left, cp, cm, sort_work = work
    p = cards.size
    parent_den = 0.0
    for j in range(tclasspop.size):
        parent_den += tclasspop[j]
    critmax = NO_SPLIT
    best_var, best_mask = -1, np.uint64(0)
    for k in range(p):
        mind[k] = k
    nn = p
    for _ in range(mtry):
        j = int(nn * np.random.random())
        var = mind[j]
        mind[j] = mind[nn - 1]
        mind[nn - 1] = var
        nn -= 1
        n_levels = cards[var]
        m = count_levels(xt[var], cl, win, ncase, start, count, n_levels, tcc, present)
        if m <= 1:
            continue
        if tclasspop.size == 2 and n_levels > EXHAUSTIVE_MAX_LEVELS:
            crit, mask = sorted_split(
                tcc, present, m, n_levels, tclasspop, parent_den, critmax, sort_work, cp, cm
            )
        elif n_levels > EXHAUSTIVE_MAX_LEVELS:
            crit, mask = random_split(
                tcc, present, m, n_levels, tclasspop, parent_den, critmax, left
            )
        else:
            crit, mask = exhaustive_split(
                tcc, present, m, n_levels, tclasspop, parent_den, critmax, sums, masks, pos
            )
        if mask:
            critmax, best_var, best_mask = crit, var, mask
    return best_var, best_mask


@njit(cache=True, nogil=True)
def split_node(xt_var, mask, cl, win, ncase, start, count, buffer, pop_left, pop_right) -> int:
    """movedata (rfsub.f): the node's cases partitioned stably, left (level in ``mask``) first;
    the children's class weights summed in that order. Returns the left child's case count."""
    n_left = 0
    n_right = 0
    pop_left[:] = 0.0
    pop_right[:] = 0.0
    for i in range(start, start + count):
        case = ncase[i]
        if (mask >> np.uint64(xt_var[case])) & np.uint64(1):
            ncase[start + n_left] = case
            n_left += 1
            pop_left[cl[case]] += win[case]
        else:
            buffer[n_right] = case
            n_right += 1
            pop_right[cl[case]] += win[case]
    ncase[start + n_left : start + count] = buffer[:n_right]
    return n_left


@njit(cache=True, nogil=True)
def is_terminal(pop, count, nodesize) -> bool:
    """buildtree's test of a new child (D12): at most ``nodesize`` distinct cases, or pure."""
    return count <= nodesize or (pop == pop.sum()).any()


@njit(cache=True, nogil=True)
def leaf_class(pop) -> int:
    """buildtree's leaf class (D13): the heaviest class; a tie is broken as the source does,
    a tied class after the first taking over with probability 1/ntie where ntie also counts
    the first's own draw (so of k tied classes the first wins with probability 2/(k+1))."""
    best = 0
    pp = 0.0
    ntie = 1
    for j in range(pop.size):
        if pop[j] > pp:
            best, pp, ntie = j, pop[j], 1
        if pop[j] == pp:
            ntie += 1
            if np.random.random() < np.float32(1.0) / np.float32(ntie):
                best = j
    return best


@njit(cache=True, nogil=True)
def build_tree(xt, cl, win, cards, jin, tclasspop, mtry, nodesize, var, mask, left, cls):
    """buildtree (rfsub.f) on one bag: nodes split in the order they were made until none is
    left to split; then the leaves' classes. Returns the number of nodes."""
    n = cl.size
    n_classes = tclasspop.size
    max_nodes = var.size
    ncase = np.flatnonzero(jin).astype(np.int64)
    nuse = ncase.size
    start = np.empty(max_nodes, dtype=np.int64)  # every node's entries are set when it is made
    count = np.empty(max_nodes, dtype=np.int64)
    status = np.empty(max_nodes, dtype=np.int64)
    classpop = np.empty((max_nodes, n_classes))
    buffer = np.empty(n, dtype=np.int64)
    work = (
        np.empty(cards.size, dtype=np.int64),
        np.zeros((MAX_LEVELS, n_classes)),
        np.empty(MAX_LEVELS, dtype=np.int64),
        np.zeros((MAX_LEVELS + 1, n_classes)),
        np.zeros(MAX_LEVELS + 1, dtype=np.uint64),
        np.empty(MAX_LEVELS + 1, dtype=np.int64),
        np.empty(n_classes),
        np.empty(n_classes),
        np.empty(n_classes),
        (np.empty(MAX_LEVELS), np.empty(MAX_LEVELS), np.empty(MAX_LEVELS, dtype=np.int64)),
    )
    start[0], count[0] = 0, nuse
    status[0] = TO_SPLIT
    classpop[0] = tclasspop
    ncur = 1
    k = 0
    while k < ncur:
        var[k], mask[k], left[k], cls[k] = -1, 0, -1, -1
        if status[k] == TO_SPLIT:
            v, m = best_split(
                xt, cl, win, cards, ncase, start[k], count[k], classpop[k], mtry, work
            )
            if v < 0:
                status[k] = TERMINAL
            else:
                n_left = split_node(
                    xt[v], m, cl, win, ncase, start[k], count[k], buffer,
                    classpop[ncur], classpop[ncur + 1],
                )  # fmt: skip
                start[ncur], count[ncur] = start[k], n_left
                start[ncur + 1], count[ncur + 1] = start[k] + n_left, count[k] - n_left
                for child in (ncur, ncur + 1):
                    terminal = is_terminal(classpop[child], count[child], nodesize)
                    status[child] = TERMINAL if terminal else TO_SPLIT
                var[k], mask[k], left[k], status[k] = v, m, ncur, SPLIT
                ncur += 2
        k += 1
    for k in range(ncur):
        if status[k] == TERMINAL:
            cls[k] = leaf_class(classpop[k])
    return ncur


@njit(cache=True, nogil=True)
def grow_tree(xt, cl, cards, classwt, mtry, nodesize, replace, seed, var, mask, left, cls):
    """One tree of classRF (rf.c): bag (D2, D3), buildtree, and a new bag while the tree is
    its root alone (D4). Returns (number of nodes, GROWN | BAG_FAILED | ROOT_ONLY)."""
    np.random.seed(seed)
    n = cl.size
    jin = np.zeros(n, dtype=np.int64)
    win = np.zeros(n)
    tclasspop = np.zeros(classwt.size)
    for _ in range(ROOT_ATTEMPTS):
        if not draw_bag(cl, classwt, replace, jin, win, tclasspop):
            return 0, BAG_FAILED
        size = build_tree(xt, cl, win, cards, jin, tclasspop, mtry, nodesize, var, mask, left, cls)
        if size > 1:
            return size, GROWN
    return 0, ROOT_ONLY


@njit(cache=True, parallel=True)
def grow_trees(xt, cl, cards, classwt, mtry, nodesize, replace, seeds, var, mask, left, cls):
    """Trees ``seeds.size`` of them, tree t into row t of the node arrays; returns each tree's
    (node count, status)."""
    n_trees = seeds.size
    sizes = np.zeros(n_trees, dtype=np.int64)
    status = np.zeros(n_trees, dtype=np.int64)
    for t in prange(n_trees):
        sizes[t], status[t] = grow_tree(
            xt, cl, cards, classwt, mtry, nodesize, replace, seeds[t],
            var[t], mask[t], left[t], cls[t],
        )  # fmt: skip
    return sizes, status


@njit(cache=True, parallel=True)
def forest_votes(x, var, mask, left, cls, roots, n_classes):
    """Votes of every tree for every row of ``x`` (classForest, rf.c; predictClassTree,
    classTree.c): a row goes left when its level's bit is set in the node's mask. ``left``
    holds absolute node indices; the right child is the next node. Rows go in blocks of
    ROW_BLOCK, tree after tree, so a tree's nodes stay in cache for the block (on Adult's
    24k test rows three times faster than blocks of 256)."""
    rows = x.shape[0]
    votes = np.zeros((rows, n_classes), dtype=np.int64)
    for block in prange((rows + ROW_BLOCK - 1) // ROW_BLOCK):
        first = block * ROW_BLOCK
        last = min(rows, first + ROW_BLOCK)
        for t in range(roots.size):
            for r in range(first, last):
                node = roots[t]
                while var[node] >= 0:
                    level = np.uint64(x[r, var[node]])
                    bit = (mask[node] >> level) & np.uint64(1)
                    node = left[node] if bit else left[node] + 1
                votes[r, cls[node]] += 1
    return votes
