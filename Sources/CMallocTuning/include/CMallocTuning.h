// glibc's malloc tuning, for the seams-sync binary: Swift's Glibc module has no <malloc.h>.
#ifndef SEAMS_C_MALLOC_TUNING_H
#define SEAMS_C_MALLOC_TUNING_H

/// Fixes glibc's threshold above which a block is mapped on its own (and unmapped when freed) at
/// `bytes`, so glibc no longer raises it after each large block freed. Returns 1 when set, 0 when
/// glibc refused, -1 where the C library is not glibc.
int seams_fix_mmap_threshold(int bytes);

#endif
