/* GPU style (Rodinia's k-means): the features are stored column-major, feature f of
 * point p at features[f * npoints + p], so that neighbouring work-items read
 * neighbouring addresses; each work-item loops over the clusters and features of
 * its own point. */
__kernel void kmeans_assign(__global const float *features,
                            __global const float *clusters,
                            __global int *membership,
                            const int npoints, const int nclusters, const int nfeatures)
{
    const int p = get_global_id(0);
    if (p >= npoints)
        return;
    int best = 0;
    float best_dist = FLT_MAX;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            const float d = features[f * npoints + p] - clusters[c * nfeatures + f];
            dist += d * d;
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}
