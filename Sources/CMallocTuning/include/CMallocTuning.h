// glibc's malloc tuning, for the seams-sync binary: Swift's Glibc module has no <malloc.h>.
#ifndef SEAMS_C_MALLOC_TUNING_H
#define SEAMS_C_MALLOC_TUNING_H

/// Fixes glibc's threshold above which a block is mapped on its own (and unmapped when freed) at
/// `mmap_bytes`, so glibc no longer raises it after each large block freed, and sets the free
/// space at the top of a heap above which glibc gives it back at `trim_bytes` (glibc raises that
/// one too, with the other, and a call after startup must lower it again). Returns 1 when both
/// were set, 0 when glibc refused one, -1 where the C library is not glibc.
int seams_tune_malloc(int mmap_bytes, int trim_bytes);

#endif
