#ifndef ROBOTCI_CPROCESSSUPPORT_H
#define ROBOTCI_CPROCESSSUPPORT_H
#include <spawn.h>

/// posix_spawn_file_actions_addchdir_np where the C library has it (glibc ≥ 2.29, macOS ≥ 10.15); -1 otherwise.
int robotci_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
/// Closes every descriptor >= `from` in the spawned child (glibc >= 2.34); -1 where unsupported.
int robotci_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);
/// Makes this process a child subreaper (Linux); 0 on success, -1 where unsupported.
int robotci_become_subreaper(void);
#endif
