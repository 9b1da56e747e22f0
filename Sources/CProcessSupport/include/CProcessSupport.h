#ifndef ROBOTCI_CPROCESSSUPPORT_H
#define ROBOTCI_CPROCESSSUPPORT_H
#include <spawn.h>
#include <sys/types.h>

/// posix_spawn_file_actions_addchdir_np where the C library has it (glibc ≥ 2.29, macOS ≥ 10.15); -1 otherwise.
int robotci_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
/// Closes every descriptor >= `from` in the spawned child (glibc >= 2.34); -1 where unsupported.
int robotci_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);
/// Makes this process a child subreaper (Linux); 0 on success, -1 where unsupported.
int robotci_become_subreaper(void);
/// Makes SIGTERM, SIGINT and SIGHUP SIGKILL `pid` before they end this process the default way
/// (the handlers are installed on the first call; later calls change the pid, 0 for none).
/// Written in C so the handler reads only an atomic and calls only async-signal-safe functions.
void robotci_kill_on_fatal_signal(pid_t pid);
/// A pipe whose ends are close-on-exec and non-blocking (pipe2); 0 on success, -1 and errno otherwise.
int robotci_pipe_nonblocking(int fds[2]);
/// accept(2) of a close-on-exec, non-blocking connection; the descriptor, or -1 and errno.
int robotci_accept_nonblocking(int listener);
/// The user id of a connected Unix socket's peer (SO_PEERCRED on Linux, getpeereid elsewhere); -1 when unknown.
long robotci_peer_uid(int fd);
#endif
