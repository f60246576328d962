#include "CMallocTuning.h"

// Any C library header: glibc's defines __GLIBC__.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int seams_tune_malloc(int mmap_bytes, int trim_bytes) {
    int mapped = mallopt(M_MMAP_THRESHOLD, mmap_bytes);
    int trimmed = mallopt(M_TRIM_THRESHOLD, trim_bytes);
    return mapped == 1 && trimmed == 1 ? 1 : 0;
}
#else
int seams_tune_malloc(int mmap_bytes, int trim_bytes) {
    (void)mmap_bytes;
    (void)trim_bytes;
    return -1;
}
#endif
