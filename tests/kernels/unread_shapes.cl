// Kernels of the shapes whose C once warned under -Wall -Wextra: program-scope
// __constant variables nothing emitted reads (clang's -Wunused-const-variable), and
// kernels that read no work-item id, whose copies for interleaving (workgroup/passes/interleaving.py)
// took ids they did not use (-Wunused-parameter).
__constant uint unread = 5;                      // read by nothing
__constant uint base = 7;                        // read only by derived's initializer
__constant uint derived = base * 3 + 1;
__constant uint table[4] = {3, 1, 4, 1};         // read only through a pointer to it
__constant uint *__constant second = &table[1];
__constant uint direct[3] = {9, 8, 7};           // read by a kernel
__constant uint only_helper = 11;                // read by a helper no kernel calls
__constant uint via_helper = 13;                 // read by a helper a kernel calls
__constant uint chain0 = 2;                      // read through two initializers
__constant uint chain1 = chain0 + 1;
__constant uint chain2[2] = {chain1, chain1 * 2};

uint unused_helper(void) { return only_helper; }

uint used_helper(uint x) { return x + via_helper; }

uint hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// long and loop-free enough to be interleaved where the kernel cannot tell its
// work-items apart
uint chain(uint x)
{
    return hash(hash(hash(x) + 1) ^ hash(x + 2)) + hash(hash(x ^ 3) - hash(x + 4));
}

kernel void constants(global uint *o)
{
    size_t i = get_global_id(0);
    o[i] = derived + *second + direct[i % 3] + used_helper((uint)i) + chain2[i & 1];
}

kernel void local_ids(global uint *o)
{
    uint x = chain((uint)get_local_id(0));
    o[get_local_id(0)] = chain(x);
}

kernel void local_ids_loop(global uint *o, uint n)
{
    uint x = (uint)get_local_id(0);
    for (uint j = 0; j < n; ++j)
        x = hash(x + j);
    o[get_local_id(0)] = x;
}

kernel void group_ids(global uint *o)
{
    uint x = chain((uint)get_group_id(0));
    o[get_group_id(0)] = chain(x + (uint)get_num_groups(0));
}

kernel void group_ids_loop(global uint *o, uint n)
{
    uint x = (uint)get_group_id(0);
    for (uint j = 0; j < n; ++j)
        x = hash(x ^ j);
    o[get_group_id(0)] = x;
}

// every work-item the same: a value, a write to one place
kernel void no_ids(global uint *o, uint y)
{
    uint x = chain(y);
    x = chain(x + 1);
    o[0] = chain(x);
}

kernel void no_ids_loop(global uint *o, uint y, uint n)
{
    uint x = y;
    for (uint j = 0; j < n; ++j)
        x = hash(x + j);
    o[1] = x;
}

// sizes only: the work-item context is read, but no id
kernel void sizes_only(global uint *o)
{
    uint x = chain((uint)get_global_size(0));
    o[2] = chain(x + get_work_dim());
}

// an id that only its guard reads: in the regions schedule the guard becomes the
// work-item loop's bounds, and the id's declaration is left unread
kernel void guard_only_id(global uint *o, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    o[get_global_id(0)] = chain((uint)get_local_id(0));
}
