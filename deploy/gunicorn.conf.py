"""gunicorn settings of one Scorekeeper app instance (``gunicorn -c deploy/gunicorn.conf.py``).

One file for every instance: what differs between instances comes from the environment
(``deploy/app1.env``, ``deploy/app2.env`` through ``scorekeeper@.service``), what the app
itself reads comes from ``deploy/scorekeeper.env`` (``SCOREKEEPER_*``, see the README's
configuration table). benchmarks/capacity.py starts its instances from this file."""

import os

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
# gunicorn >= 25 opens a control socket at one path per user: two instances on one host
# need one each (scorekeeper@.service gives each its runtime directory). Older gunicorns
# ignore the setting.
if os.environ.get("SCOREKEEPER_CONTROL_SOCKET"):
    control_socket = os.environ["SCOREKEEPER_CONTROL_SOCKET"]
