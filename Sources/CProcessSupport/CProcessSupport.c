#define _GNU_SOURCE
#include "CProcessSupport.h"
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
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

static atomic_int robotci_fatal_signal_victim = 0;
static atomic_flag robotci_fatal_handlers_installed = ATOMIC_FLAG_INIT;

static void robotci_fatal_signal_handler(int received) {
    pid_t pid = (pid_t)atomic_load(&robotci_fatal_signal_victim);
    if (pid > 0) kill(pid, SIGKILL);
    signal(received, SIG_DFL);
    raise(received);
}

void robotci_kill_on_fatal_signal(pid_t pid) {
    atomic_store(&robotci_fatal_signal_victim, (int)pid);
    if (atomic_flag_test_and_set(&robotci_fatal_handlers_installed)) return;
    signal(SIGTERM, robotci_fatal_signal_handler);
    signal(SIGINT, robotci_fatal_signal_handler);
    signal(SIGHUP, robotci_fatal_signal_handler);
}
