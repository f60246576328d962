#ifndef SEAMS_TEST_PROCESS_ENVIRONMENT_H
#define SEAMS_TEST_PROCESS_ENVIRONMENT_H

// Set up when the test binary is loaded, before any thread starts (test_process_environment.c).

/// The seed fixture's default sync container: `<temporary folder>/seams-seed-XXXXXX/seams/container`,
/// created, with `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` pointed into its root.
/// NULL if it could not be created; `seams_seed_environment_failure` then says why.
const char *_Nullable seams_seed_container(void);

/// Why the seed fixture could not be created, or NULL.
const char *_Nullable seams_seed_environment_failure(void);

/// The `SWIFT_BACKTRACE` value the test process itself started with (its own crashes use it), or
/// NULL. The environment now holds `enable=no`, which every process the tests start inherits.
const char *_Nullable seams_own_backtrace_setting(void);

#endif
