/*
 * PostgreSQL's timeouts under libfaketime (.ci/moments.py preloads this before it).
 *
 * libfaketime wraps epoll_wait and stops faking the clock on the calling thread
 * while it is blocked there. A backend waiting for a lock (or in pg_sleep) is
 * blocked in epoll_wait when its SIGALRM comes, so the timeout handler reads the
 * true clock, finds its deadline (set on the moved clock) still ahead by the
 * clock's offset, and arms the timer again for that long: lock_timeout,
 * statement_timeout and deadlock_timeout never fire while the clock is moved
 * ahead. Waiting through the system call itself keeps the clock moved in the
 * handler. With libfaketime at its normal rate the wrapper changes no timeout, so
 * nothing else differs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
    return (int) syscall(SYS_epoll_pwait, epfd, events, maxevents, timeout, NULL,
                         _NSIG / 8);
}
