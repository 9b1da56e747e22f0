#define _GNU_SOURCE
#include "CProcessSupport.h"
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
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

int robotci_pipe_nonblocking(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
#else
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
    }
    return 0;
#endif
}

int robotci_accept_nonblocking(int listener) {
#ifdef __linux__
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
#else
    int fd = accept(listener, NULL, NULL);
    if (fd >= 0) {
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    return fd;
#endif
}

long robotci_peer_uid(int fd) {
#ifdef __linux__
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    return (long)credentials.uid;
#else
    uid_t uid; gid_t gid;
    if (getpeereid(fd, &uid, &gid) != 0) return -1;
    return (long)uid;
#endif
}
