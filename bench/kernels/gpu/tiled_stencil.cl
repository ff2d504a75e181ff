/* GPU style: a 5-point Jacobi step on a local-memory tile with a one-cell halo. Each
 * work-item loads its own cell; the work-items on the tile's edges load the halo too;
 * then every work-item reads its neighbours from the tile. The grid is rounded up to
 * whole tiles, so the loads and the store are guarded. */
#define TILE 16

__kernel void jacobi_tiled(__global const float *in, __global float *out,
                           const int nx, const int ny)
{
    __local float tile[TILE + 2][TILE + 2];
    const int gx = get_global_id(0), gy = get_global_id(1);
    const int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;
    const int inside = gx < nx && gy < ny;

    tile[ly][lx] = inside ? in[gy * nx + gx] : 0.0f;
    if (lx == 1)
        tile[ly][0] = (gx > 0 && gy < ny) ? in[gy * nx + gx - 1] : 0.0f;
    if (lx == TILE)
        tile[ly][TILE + 1] = (gx + 1 < nx && gy < ny) ? in[gy * nx + gx + 1] : 0.0f;
    if (ly == 1)
        tile[0][lx] = (gy > 0 && gx < nx) ? in[(gy - 1) * nx + gx] : 0.0f;
    if (ly == TILE)
        tile[TILE + 1][lx] = (gy + 1 < ny && gx < nx) ? in[(gy + 1) * nx + gx] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gx > 0 && gy > 0 && gx < nx - 1 && gy < ny - 1)
        out[gy * nx + gx] = 0.25f * (tile[ly][lx - 1] + tile[ly][lx + 1] +
                                     tile[ly - 1][lx] + tile[ly + 1][lx]);
}
