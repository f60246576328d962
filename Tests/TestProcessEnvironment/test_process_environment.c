// Changes to the test process's environment, made when the binary is loaded. On Linux SwiftPM
// links the tests into an executable, whose constructors run before `main`, so no thread of the
// tests exists yet (on Apple platforms the test bundle is loaded into a running process; the
// runs this is written for are Linux's). `setenv` while another thread reads the environment
// (every `Process` a test starts copies it) can free the array that thread is reading.
//
// 1. The seed's "reads data correctly" example builds `SyncManager(fileAccessor:)`, which keeps
//    the live `DefaultFileSystemProvider`; that reads the default container's location from the
//    environment. The XDG variables point at a fresh temporary folder (SeedFixture.swift).
// 2. The Swift runtime's backtracer, started by a crashing Swift process, inherits its
//    descriptors; one was seen blocked for good reading a dead child's memory, and the test that
//    waited for that child never ended. The runtime (libswiftCore.so, initialised before the
//    executable's constructors) has read `SWIFT_BACKTRACE` for this process before this code
//    runs, so a crash of the test process still prints its stacks as configured; the children it
//    starts (exit tests, probes, the CLI) inherit `enable=no`.
#if defined(__linux__)
#define _GNU_SOURCE  // nftw
#endif
#include "TestProcessEnvironment.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char container[4096];
static char failure[512];
static char made_root[2048];

static int remove_entry(const char *path, const struct stat *status, int flag, struct FTW *walk) {
    (void)status; (void)flag; (void)walk;
    remove(path);
    return 0;
}

/// Removes the fixture's folder when the process exits normally (a crashed one leaves it).
static void remove_seed_environment(void) {
    if (made_root[0] != '\0') nftw(made_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_folder(const char *path) {
    if (mkdir(path, 0700) == 0 || errno == EEXIST) return 0;
    snprintf(failure, sizeof failure, "mkdir %s: %s", path, strerror(errno));
    return -1;
}

static void make_seed_environment(void) {
    const char *temporary = getenv("TMPDIR");
    if (temporary == NULL || temporary[0] == '\0') temporary = "/tmp";
    char root[2048], path[4096];
    if (snprintf(root, sizeof root, "%s/seams-seed-XXXXXX", temporary) >= (int)sizeof root) {
        snprintf(failure, sizeof failure, "TMPDIR is too long");
        return;
    }
    if (mkdtemp(root) == NULL) {
        snprintf(failure, sizeof failure, "mkdtemp %s: %s", root, strerror(errno));
        return;
    }
    snprintf(made_root, sizeof made_root, "%s", root);
    atexit(remove_seed_environment);
    snprintf(path, sizeof path, "%s/seams", root);
    if (make_folder(path) != 0) return;
    snprintf(path, sizeof path, "%s/seams/container", root);
    if (make_folder(path) != 0) return;
    setenv("XDG_DATA_HOME", root, 1);
    snprintf(path, sizeof path, "%s/config", root);
    setenv("XDG_CONFIG_HOME", path, 1);
    snprintf(path, sizeof path, "%s/state", root);
    setenv("XDG_STATE_HOME", path, 1);
    snprintf(container, sizeof container, "%s/seams/container", root);
}

__attribute__((constructor)) static void seams_test_process_environment(void) {
    setenv("SWIFT_BACKTRACE", "enable=no", 1);
    make_seed_environment();
}

const char *seams_seed_container(void) { return container[0] != '\0' ? container : NULL; }

const char *seams_seed_environment_failure(void) { return failure[0] != '\0' ? failure : NULL; }

