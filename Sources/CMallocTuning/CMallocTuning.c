#include "CMallocTuning.h"

#if defined(__GLIBC__)
#include <malloc.h>

int seams_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
int seams_fix_mmap_threshold(int bytes) {
    (void)bytes;
    return -1;
}
#endif
