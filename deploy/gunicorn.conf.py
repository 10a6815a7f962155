"""gunicorn settings of one Scorekeeper app instance (``gunicorn -c deploy/gunicorn.conf.py``).

One file for every instance: what differs between instances comes from the environment
(``deploy/app1.env``, ``deploy/app2.env`` through ``scorekeeper@.service``), what the app
itself reads comes from ``deploy/scorekeeper.env`` (``SCOREKEEPER_*``, see the README's
configuration table). benchmarks/capacity.py starts its instances from this file; so does
tests/deploy, from an installed package."""

import os
import shutil
import sys
import tempfile

wsgi_app = "scorekeeper:create_app()"
# The instance's own address; the balancer (deploy/haproxy.cfg) sends requests here.
bind = os.environ.get("SCOREKEEPER_BIND", "127.0.0.1:8001")
# Sync workers, one request at a time each: about two per core of the instance's host
# (the README's deploy section runs 4 on a 2-core machine). The balancer gives each
# instance at most this many requests at once and queues the rest itself.
workers = int(os.environ.get("SCOREKEEPER_WORKERS", "4"))
worker_class = "sync"
timeout = 60  # the first PDF of the largest game takes about 1.5 s; anything near 60 s is stuck
graceful_timeout = 30
accesslog = os.environ.get("SCOREKEEPER_ACCESS_LOG", "-")  # stdout: the journal
errorlog = "-"
# One line per request: client (as the balancer forwarded it), request, status, bytes,
# seconds, and the request's id (the X-Request-ID the app answers with: the balancer's, or
# one the app made), which the app's own log lines of that request carry too.
access_log_format = (
    '%({x-forwarded-for}i)s %(h)s "%(r)s" %(s)s %(b)s %(L)ss id=%({x-request-id}o)s "%(a)s"'
)
# gunicorn >= 25 opens a control socket at one path per user: two instances on one host
# need one each (scorekeeper@.service gives each its runtime directory). Older gunicorns
# ignore the setting.
if os.environ.get("SCOREKEEPER_CONTROL_SOCKET"):
    control_socket = os.environ["SCOREKEEPER_CONTROL_SOCKET"]

# Prometheus counts (/metrics) added up over every worker: each writes its own files in
# this folder, set before any worker imports the app (scorekeeper@.service puts it in the
# instance's runtime directory; otherwise a temporary folder of this master's own).
_own_metrics_dir = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _own_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="scorekeeper-metrics-")


def on_starting(server):
    """Before any worker: counts of an earlier run are dropped, and a start that cannot
    serve (no database, no secret key, a migration not run) ends here with one sentence."""
    metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(metrics_dir, exist_ok=True)
    for name in os.listdir(metrics_dir):
        if name.endswith(".db"):
            os.remove(os.path.join(metrics_dir, name))
    from scorekeeper.preflight import start_problem

    problem = start_problem()
    if problem is not None:
        sentence, status = problem
        print(f"scorekeeper: {sentence}", file=sys.stderr, flush=True)
        sys.exit(status)


def child_exit(server, worker):
    """A worker gone: its live gauges go, its counts stay in the sum."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _own_metrics_dir:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
