"""A real HTTP server on 127.0.0.1 for the download tests: each path answers as a test sets it up
(the file, an error status, a transfer cut short, a stall), and every request is counted.

Network code is tested against this server only, never a real host.  Used through the
``local_server`` fixture (tests/conftest.py) or as a context manager.
"""

from __future__ import annotations

import http.server
import signal
import socket
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Route:
    """How one path answers.  ``body``: the bytes served; ``status``: the HTTP status (200 serves
    ``body``); ``cut_after``: close the connection after this many bytes of ``body`` while
    announcing all of it; ``stall``: seconds to wait before the first byte; ``fail_first``: the
    first N requests get a 500; ``delay_each``: seconds to sleep per 64 KiB block sent."""

    body: bytes = b""
    status: int = 200
    cut_after: int | None = None
    stall: float = 0.0
    fail_first: int = 0
    delay_each: float = 0.0
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class LocalServer:
    """``ThreadingHTTPServer`` on 127.0.0.1 and a free port; ``url(path)`` names a route."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        routes = self.routes

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                route = routes.get(self.path)
                if route is None:
                    self.send_error(404)
                    return
                with route.lock:
                    route.requests += 1
                    n = route.requests
                if n <= route.fail_first:
                    self.send_error(500)
                    return
                if route.status != 200:
                    self.send_error(route.status)
                    return
                if route.stall:
                    time.sleep(route.stall)
                self.send_response(200)
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                body = route.body if route.cut_after is None else route.body[: route.cut_after]
                try:
                    for i in range(0, len(body), 1 << 16):
                        self.wfile.write(body[i : i + (1 << 16)])
                        if route.delay_each:
                            time.sleep(route.delay_each)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                if route.cut_after is not None:
                    self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def add(self, path: str, body: bytes = b"", **how: object) -> str:
        """Serve ``body`` at ``path`` (``how``: the :class:`Route` fields); returns its URL."""
        self.routes[path] = Route(body=body, **how)  # type: ignore[arg-type]
        return self.url(path)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def requests(self, path: str) -> int:
        return self.routes[path].requests

    def __enter__(self) -> LocalServer:
        # A connection the client closes first must be an error in the handler, not the end of
        # the test process: importing sacreBLEU's command line (sacrebleu.sacrebleu, as some
        # tests do) sets SIGPIPE to its default action, which kills the process.
        self._sigpipe = None
        if hasattr(signal, "SIGPIPE") and threading.current_thread() is threading.main_thread():
            self._sigpipe = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._sigpipe is not None:
            signal.signal(signal.SIGPIPE, self._sigpipe)


def closed_port_url(path: str = "/file") -> str:
    """A URL on 127.0.0.1 where nothing listens (the connection is refused: offline)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}{path}"
