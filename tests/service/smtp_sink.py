"""A tiny SMTP server on 127.0.0.1 for tests: it takes every message and keeps it.

Just the commands a client sending one plain message uses (EHLO/HELO, MAIL, RCPT, DATA,
RSET, NOOP, QUIT), answered as RFC 5321 says; no TLS, no authentication.
"""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage


@dataclass
class Sink:
    port: int
    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"


class _Handler(socketserver.StreamRequestHandler):
    sink: Sink

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.reply("220 127.0.0.1 test sink")
        sender, recipients = "", []
        while True:
            raw = self.rfile.readline(4096)
            if not raw:
                return
            command = raw.decode("utf-8", "replace").strip()
            verb = command[:4].upper()
            if verb == "EHLO":
                self.reply("250-127.0.0.1")
                self.reply("250 8BITMIME")
            elif verb == "HELO":
                self.reply("250 127.0.0.1")
            elif verb == "MAIL":
                sender, recipients = command.partition(":")[2].strip(), []
                self.reply("250 OK")
            elif verb == "RCPT":
                recipients.append(command.partition(":")[2].strip())
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 end with <CRLF>.<CRLF>")
                lines = []
                while True:
                    line = self.rfile.readline(65536)
                    if not line or line in (b".\r\n", b".\n"):
                        break
                    lines.append(line[1:] if line.startswith(b"..") else line)
                parsed = message_from_bytes(b"".join(lines), policy=policy.default)
                assert isinstance(parsed, EmailMessage)
                self.sink.messages.append(parsed)
                self.sink.envelopes.append((sender, recipients))
                self.reply("250 OK: queued")
            elif verb in ("RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 not implemented")


@contextmanager
def smtp_sink() -> Iterator[Sink]:
    """An SMTP server on a free port of 127.0.0.1 for the block; what it took is in `Sink`."""
    sink = Sink(0)
    handler = type("Handler", (_Handler,), {"sink": sink})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    sink.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
