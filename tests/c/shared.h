/* Included by both .cl files of the C host API tests. */
#define SCALE 2.0f
