"""gunicorn's settings for every server started from this folder.

No control socket: by default every gunicorn on a machine shares one in the home
folder, so two back offices (two checkouts, a test beside ``make run``) would collide.
"""

control_socket_disable = True

# One request at a time a worker, and a worker takes a connection only when it is
# free: the terminals are served in turn. ``gthread`` workers keep each client's
# connection open, and the worker that accepts first keeps several; with eight
# terminals posting, four to six of them shared workers in every run and posted a
# fifth to a half of the others' hands, each waiting for the next
# (benchmarks/README.md, "Every terminal its turn"). A sync worker closes the
# connection after the answer; behind the TLS-terminating proxy (docs/operations.md,
# "Production topology") that is a connection on the host.
worker_class = "sync"


def post_worker_init(worker: object) -> None:
    """Move what the worker loaded at start (Django, the apps, the URLs) out of the
    garbage collector's sight: a full collection then walks only what requests
    made, not the whole framework (4.5 % of a hand's CPU by the median of
    interleaved runs; benchmarks/README.md, "A round trip less, and the server as
    it is deployed")."""
    import gc

    gc.collect()
    gc.freeze()
