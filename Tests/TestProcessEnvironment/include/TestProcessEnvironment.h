#ifndef SEAMS_TEST_PROCESS_ENVIRONMENT_H
#define SEAMS_TEST_PROCESS_ENVIRONMENT_H

// Set up when the test binary is loaded (test_process_environment.c).

/// The seed fixture's default sync container: `<temporary folder>/seams-seed-XXXXXX/seams/container`,
/// created, with `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` pointed into its root.
/// NULL if it could not be created; `seams_seed_environment_failure` then says why.
const char *_Nullable seams_seed_container(void);

/// Why the seed fixture could not be created, or NULL.
const char *_Nullable seams_seed_environment_failure(void);

#endif
