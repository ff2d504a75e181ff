/* Weights of the smooth kernel (smooth.cl). */
#define SIDE_WEIGHT 1
#define CENTER_WEIGHT 2
