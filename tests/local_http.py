"""A server on a free port of 127.0.0.1 for the length of a `with` block, for the tests that
play a board (or another host) over real sockets: `with running(Handler) as url: …`."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@contextmanager
def running(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve with `handler`; yields the server's URL ("http://127.0.0.1:PORT/")."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True  # a handler still writing to a client that left
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
