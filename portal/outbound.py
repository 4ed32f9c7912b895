"""Requests the portal makes to an address someone typed (an organiser's webhook): never
to this machine or the network it stands in.

A URL is checked when it is given and again at every delivery: http(s) only; the host
resolved here, every address it has public (no loopback, private, link-local such as the
cloud's metadata address, shared, reserved or multicast range, nor an IPv6 form that
carries one of those inside it); the connection then made to the very address that was
checked (a name cannot resolve to a public address for the check and a private one for the
request), no redirect followed, and the whole exchange under one deadline, so that a
receiver answering a byte at a time cannot hold the sender. `WEBHOOK_ALLOWED_NETWORKS`
(comma-separated CIDRs) names the inside networks an installation does want to reach, such
as a results server on its own LAN; nothing is allowed by default."""
from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
MAX_URL = 500


class Unreachable(Exception):
    """The URL is not one the portal sends to, or its receiver did not answer in time:
    `zh` and `en` say which, for the organiser."""

    def __init__(self, zh: str, en: str, *, deadline: bool = False):
        super().__init__(en)
        self.zh, self.en, self.deadline = zh, en, deadline


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with its query

    @property
    def receiver(self) -> str:
        """Who answers: deliveries to one receiver are made one after the other."""
        return f"{self.scheme}://{self.host}:{self.port}"


def allowed_networks(setting: str | None) -> tuple[Network, ...]:
    out = []
    for part in (setting or "").split(","):
        if part.strip():
            out.append(ipaddress.ip_network(part.strip(), strict=False))
    return tuple(out)


def _embedded_v4(ip: Address) -> ipaddress.IPv4Address | None:
    if ip.version != 6:
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_public(ip: Address) -> bool:
    """An address on the public internet: nothing inside this machine or its network."""
    if not ip.is_global or ip.is_multicast or ip.is_reserved and _embedded_v4(ip) is None:
        return False
    inner = _embedded_v4(ip)
    return inner is None or is_public(inner)


def parse(url: str) -> Target:
    """The URL's parts, or Unreachable when it is not a full http(s) address."""
    url = (url or "").strip()
    if len(url) > MAX_URL or any(ord(ch) < 33 or ord(ch) == 127 for ch in url):
        raise Unreachable(f"网址不能超过 {MAX_URL} 个字符，也不能含空格或控制字符",
                          f"An address of at most {MAX_URL} characters, without spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.username \
            or parts.password:
        raise Unreachable("请填写完整的网址，以 https:// 或 http:// 开头（不含用户名和密码）",
                          "Give a full address starting with https:// or http:// (with no user name or password)")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path)


def checked_address(target: Target, allowed: tuple[Network, ...] = (), *, resolve_strictly: bool = True) -> Address | None:
    """The address to connect to: the host resolved, every address of it public (or in
    `allowed`). A name that does not resolve is Unreachable, or None when not
    `resolve_strictly` (at registration: a receiver may be named before its DNS exists;
    every delivery resolves again)."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        if resolve_strictly:
            raise Unreachable(f"找不到 {target.host} 的服务器", f"No server found for {target.host}") from None
        return None
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    for ip in addresses:
        if not is_public(ip) and not any(ip in net for net in allowed if net.version == ip.version):
            raise Unreachable("不能发往本机或内部网络的地址（回环、私有、链路本地或保留地址）",
                              "Not to an address of this machine or an inside network (loopback, private, "
                              "link-local or reserved)")
    if not addresses:
        raise Unreachable(f"找不到 {target.host} 的服务器", f"No server found for {target.host}")
    return addresses[0]


class _Pinned(http.client.HTTPConnection):
    """Connects to the checked address, whatever the name would resolve to now."""

    def __init__(self, target: Target, ip: Address, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self._ip = ip

    def connect(self):
        self.sock = socket.create_connection((str(self._ip), self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, target: Target, ip: Address, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._ip = ip

    def connect(self):
        raw = socket.create_connection((str(self._ip), self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # the name's certificate


def post(url: str, body: bytes, headers: dict[str, str], *, deadline: float,
         allowed: tuple[Network, ...] = ()) -> int:
    """POST `body` and return the answer's status. Refused destinations, a connection or
    an answer that fails, and an exchange longer than `deadline` seconds in all raise
    Unreachable (a redirect is an answer like any other: not followed)."""
    target = parse(url)
    started = time.monotonic()
    ip = checked_address(target, allowed)
    remaining = max(deadline - (time.monotonic() - started), 0.1)
    conn = (_PinnedTLS if target.scheme == "https" else _Pinned)(target, ip, timeout=remaining)
    expired = threading.Event()

    def cut():  # the whole exchange's deadline: a trickling answer is cut off mid-read
        expired.set()
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
    timer = threading.Timer(remaining, cut)
    timer.daemon = True
    timer.start()
    try:
        conn.request("POST", target.path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read(64 * 1024)  # what it says is not kept; a long answer is not read through
        return answer.status
    except (OSError, http.client.HTTPException) as exc:
        if expired.is_set():
            raise Unreachable(f"对方 {deadline:g} 秒内没有答完", f"The receiver did not answer within {deadline:g} s",
                              deadline=True) from None
        raise Unreachable(f"连接失败：{type(exc).__name__}", f"Connection failed: {type(exc).__name__}: {exc}") from None
    finally:
        timer.cancel()
        conn.close()
