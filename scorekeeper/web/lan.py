"""Where the players' phones reach the app: the address the live view's link and QR code
start with (issue 22, point 10).

``SCOREKEEPER_PUBLIC_URL`` wins when it is set. Otherwise the link starts with the address
the keeper opened the app at, unless that is this computer itself (``localhost``,
``127.0.0.1``, ``::1``): no phone reaches that, so the link uses this computer's address
on the local network instead, when the server listens beyond this computer (``scripts/run
--host 0.0.0.0``); when it does not, the keeper page says how to start it so."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import current_app, request

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.0.0.1``, ``::1`` (a host name or address, without a port)."""
    name = host.strip().strip("[]").lower().rstrip(".")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This computer's IPv4 address on the local network: the one its route out would
    use (connecting a UDP socket sends nothing), else what its host name resolves to;
    None when it has none but the loopback."""
    for probe in ("192.0.2.1", "10.255.255.255"):  # TEST-NET-1, a private network
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found = str(sock.getsockname()[0])
        except OSError:
            continue
        if _usable(found):
            return found
    try:
        found = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return found if _usable(found) else None


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


@dataclass(frozen=True, slots=True)
class Reach:
    """Where a shared link starts (``base``: scheme, host and port) and why: ``local``
    when the keeper opened the app on this computer itself, ``lan`` this computer's
    network address (None when none was found), ``listening`` whether the server takes
    connections from the network (bound to 0.0.0.0 or a network address)."""

    base: str
    local: bool = False
    lan: str | None = None
    listening: bool = True

    @property
    def on_lan(self) -> bool:
        """The link uses the network address instead of the one the keeper opened."""
        return self.local and self.lan is not None and self.listening

    def lan_base(self) -> str | None:
        """The network address with the scheme and port the keeper opened the app at."""
        if self.lan is None:
            return None
        opened = urlsplit(request.host_url)
        port = f":{opened.port}" if opened.port else ""
        return f"{opened.scheme}://{self.lan}{port}"


def reach() -> Reach:
    """Where the players' phones reach the app, for the request being answered."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return Reach(str(public).rstrip("/"))
    opened = request.host_url.rstrip("/")
    if not is_loopback(urlsplit(opened).hostname or ""):
        return Reach(opened)
    # werkzeug's server (flask run, scripts/run) names the address it is bound to.
    bound = str(request.environ.get("SERVER_NAME", ""))
    listening = not is_loopback(bound)
    found = Reach(opened, local=True, lan=lan_address(), listening=listening)
    lan = found.lan_base()
    if found.on_lan and lan:
        return Reach(lan, local=True, lan=found.lan, listening=True)
    return found
