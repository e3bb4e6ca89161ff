"""`forumgm parse`: how forumgm reads one text — for hosts checking a post, and bug reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from engine.core.orders import Channel, Order
from engine.core.ruleset import RulesError
from engine.i18n import _, warning_text
from engine.players_file import PLAYERS_HELP, PlayersFileError, load_players
from forums.bbcode import parse_bbcode
from rulesets import find
from scraper.reading import read_post


def _order(order: Order) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": order.kind.value, "player": order.player}
    if order.action:
        out["action"] = order.action
    if len(order.candidates) > 1:
        out["candidates"] = list(order.candidates)
    if order.targets:
        out["targets"] = list(order.targets)
    if order.args:
        out["args"] = {k: v for k, v in order.args.items()}
    if order.source and order.source.line is not None:
        out["line"] = order.source.line
    return out


def parse(
    text: Annotated[
        str, typer.Argument(help="The post as BBCode; '-' or nothing reads stdin.")
    ] = "-",
    ruleset: Annotated[str, typer.Option("--ruleset", help="classic, votecount, …")] = "votecount",
    players: Annotated[
        Path,
        typer.Option(
            "--players",
            help=PLAYERS_HELP,
        ),
    ] = Path("players.yaml"),
    channel: Annotated[str, typer.Option("--channel", help="thread or pm")] = "thread",
    sender: Annotated[
        str | None,
        typer.Option("--sender", help="Who wrote it (default: the players file's first player)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show the orders and warnings forumgm reads in TEXT (exit 2 on bad input).

    The names come from a players file (--players, YAML), for example:

        players: [Вася, Петя, Маша, Коля]

        dead: [Оля]

        replacements: {Новичок: Вася}

        aliases: {Петя: [Пётр, PT]}

    Only `players` is needed: who may be voted for or named in an order, in seating order.
    `dead` are out of play (a vote by or for them does not count), `replacements` maps a
    substitute to the player they replaced, `aliases` gives extra forms of a name."""
    try:
        cast = load_players(players)
        rules = find(ruleset)
        options = rules.options({})
        where = Channel(channel)
    except (PlayersFileError, RulesError, KeyError, ValueError) as exc:
        typer.echo(_("error: {message}").format(message=exc), err=True)
        raise typer.Exit(2) from exc
    body_text = sys.stdin.read() if text == "-" else text
    who = sender or cast.players[0]
    result = read_post(
        parse_bbcode(body_text),
        rules.grammar_for(options),
        cast,
        sender=who,
        channel=where,
        lenient=bool(options.get("lenient_names", False)),
        no_lynch=bool(options.get("no_lynch", True)),
    )
    warnings = rules.keep_parse_warnings(where, result.warnings)
    if as_json:
        payload = {
            "sender": who,
            "sender_given": sender is not None,
            "orders": [_order(o) for o in result.orders],
            "warnings": [
                {
                    "code": w.code,
                    "message": w.message,
                    "choices": list(w.choices),
                    "accepted": w.accepted,
                    "line": w.source.line if w.source else None,
                }
                for w in warnings
            ],
        }
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    assumed = "" if sender else _(" (no --sender given: read as the first player's)")
    typer.echo(
        _("{ruleset}, {channel}, from {sender}{assumed}:").format(
            ruleset=ruleset, channel=where.value, sender=who, assumed=assumed
        )
    )
    if not result.orders:
        typer.echo(_("  no orders"))
    for order in result.orders:
        parts = [order.kind.value]
        if order.action:
            parts.append(order.action)
        if len(order.candidates) > 1:
            parts.append(_("(one of {names})").format(names=", ".join(order.candidates)))
        if order.targets:
            parts.append("→ " + ", ".join(order.targets))
        line = ""
        if order.source and order.source.line:
            line = _(" [line {n}]").format(n=order.source.line)
        typer.echo(_("  order: {order}").format(order=" ".join(parts)) + line)
    for warning in warnings:
        choices = ""
        if warning.choices:
            choices = _(" — choices: {names}").format(names=", ".join(warning.choices))
        state = _(" (accepted)") if warning.accepted else ""
        typer.echo(
            _("  warning {code}{state}: {message}").format(
                code=warning.code, state=state, message=warning_text(warning.message)
            )
            + choices
        )
