/* GPU style: a Needleman-Wunsch score matrix filled one anti-diagonal per launch, the
 * host looping over the 2n - 1 diagonals. score is (n + 1) x (n + 1), its first row
 * and column preset; work-item t of diagonal d fills cell (i, j), i + j = d + 2. The
 * grid is the diagonal's length rounded up to 64, hence the guard. */
__kernel void nw_diagonal(__global int *score, __global const int *similarity,
                          const int n, const int penalty, const int d)
{
    const int first = d < n ? 1 : d - n + 2;          /* the diagonal's first row */
    const int last = d < n ? d + 1 : n;
    const int i = first + (int)get_global_id(0);
    if (i > last)
        return;
    const int j = d + 2 - i;
    const int w = n + 1;
    const int diag = score[(i - 1) * w + j - 1] + similarity[(i - 1) * n + j - 1];
    const int up = score[(i - 1) * w + j] - penalty;
    const int left = score[i * w + j - 1] - penalty;
    score[i * w + j] = max(diag, max(up, left));
}
