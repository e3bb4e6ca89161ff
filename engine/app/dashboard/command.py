"""`forumgm dashboard GAME.toml…`: serve the dashboard for these games (127.0.0.1 by default)."""

from __future__ import annotations

import ipaddress
import ssl
from pathlib import Path
from typing import Annotated

import typer

from engine import i18n
from engine.app.service_cmd import Db, command_clock, driver_for, out
from engine.i18n import _, ngettext

DEFAULT_PORT = 8765


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _proxies(given: list[str]) -> tuple[str, ...]:
    """The `--proxy` addresses or networks, checked ("*", trusting everyone, is refused)."""
    for value in given:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise typer.BadParameter(
                f"{value!r} is not an address or network (e.g. 127.0.0.1, 10.0.0.0/8): name "
                "the proxy's own address, whose X-Forwarded-For the dashboard may believe",
                param_hint="--proxy",
            ) from None
    return tuple(given)


def _check_tls(cert: Path | None, key: Path | None) -> None:
    """Both TLS files or neither, and a certificate its key belongs to (one line if not)."""
    if cert is None and key is None:
        return
    if cert is None or key is None:
        raise typer.BadParameter("give both --tls-cert and --tls-key, or neither")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except ssl.SSLError:  # an OSError too, with a reason only OpenSSL reads
        why = "they are not a PEM certificate and its private key"
    except OSError as exc:
        why = str(exc.strerror or exc)
    else:
        return
    raise typer.BadParameter(
        f"cannot serve HTTPS with {cert} and {key}: {why}", param_hint="--tls-cert/--tls-key"
    )


def dashboard(
    games: Annotated[list[Path], typer.Argument(help="The game files to serve.")],
    db: Db = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = DEFAULT_PORT,
    host_name: Annotated[
        list[str] | None,
        typer.Option(
            "--host-name",
            help="A name the browser (or the proxy) reaches the dashboard by, e.g. "
            "mafia.example.org; repeat for more. Requests for other names get 400 "
            "(localhost, loopback addresses and the --host address are always answered).",
        ),
    ] = None,
    proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--proxy",
            help="The address (or network) of a reverse proxy in front: its X-Forwarded-For "
            "and X-Forwarded-Proto are believed; repeat for more. Without it they are ignored.",
        ),
    ] = None,
    tls_cert: Annotated[
        Path | None,
        typer.Option("--tls-cert", help="Serve HTTPS with this certificate (PEM; with --tls-key)."),
    ] = None,
    tls_key: Annotated[
        Path | None, typer.Option("--tls-key", help="The certificate's private key (PEM).")
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="The dashboard's language (ru or en) for every browser; by default "
            "FORUMGM_LANG, else the language the browser asks for, else the games'.",
        ),
    ] = None,
) -> None:
    """The host's dashboard in the browser: warnings with one-click fixes, votes, orders, the
    results' preview, Approve & publish, the audit log — what `forumgm review` does.

    Log in with the password set by `forumgm host set-password`."""
    import uvicorn

    from engine.app.dashboard.hostnames import BadHostName, HostNames
    from engine.app.dashboard.web import Dashboard
    from engine.service.build import database_url
    from engine.store import open_store

    try:
        names = HostNames.started_for(host, host_name or ())
    except BadHostName as exc:
        raise typer.BadParameter(str(exc), param_hint="--host-name") from None
    try:
        language = i18n.checked(lang) if lang else i18n.chosen()
    except i18n.UnknownLanguage as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang") from None
    proxies = _proxies(proxy or [])
    _check_tls(tls_cert, tls_key)
    store = open_store(database_url(db))
    # The game files first: what this command says is in their language (unless --lang).
    clock = command_clock()
    drivers = [driver_for(path, db, store, clock=clock) for path in games]
    scheme = "https" if tls_cert is not None else "http"
    shown = f"[{host}]" if ":" in host else host
    with i18n.use(language if lang and language else i18n.current()):
        no_account = _(
            "No host account yet: set a password first with `forumgm host set-password`."
        )
        exposed = _(
            "Listening on {host}: other machines can reach the login page, and the "
            "password and session cookie would cross the network unencrypted. Put the "
            "dashboard behind an HTTPS proxy (--proxy), or give --tls-cert and --tls-key."
        ).format(host=host)
        serving = ngettext(
            "forumgm dashboard on {url} ({n} game(s)); Ctrl+C stops it",
            "forumgm dashboard on {url} ({n} game(s)); Ctrl+C stops it",
            len(drivers),
        ).format(url=f"{scheme}://{shown}:{port}/", n=len(drivers))
    if not store.host_accounts():
        out.print(no_account, markup=False)
        raise typer.Exit(2)
    app = Dashboard(store, drivers, host_names=names, proxies=proxies, lang=language).app()
    if not _loopback(host) and tls_cert is None and not proxies:
        out.print(exposed, style="yellow", markup=False)
    out.print(serving, markup=False, highlight=False)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        # X-Forwarded-* are read by the app, from the --proxy addresses only (web._Proxied);
        # uvicorn's own reading would believe any client on 127.0.0.1.
        proxy_headers=False,
        ssl_certfile=str(tls_cert) if tls_cert is not None else None,
        ssl_keyfile=str(tls_key) if tls_key is not None else None,
        # A browser's idle TLS connection would otherwise hold Ctrl+C for half a minute.
        timeout_graceful_shutdown=5,
    )
