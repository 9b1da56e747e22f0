#define _GNU_SOURCE
#include "CProcessSupport.h"
#include <errno.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

int robotci_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    return posix_spawn_file_actions_addchdir_np(actions, path);
#elif defined(__APPLE__)
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions; (void)path;
    return -1;
#endif
}

int robotci_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
    (void)actions; (void)from;
    return -1;
#endif
}

int robotci_become_subreaper(void) {
#ifdef __linux__
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    return -1;
#endif
}
