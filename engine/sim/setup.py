"""The setup a simulation plays: a game file's ruleset, seats, deal and options, and `--vary`.

`--vary deal.mafioso=2..4` plays the file's setup with 2, 3 and 4 mafiosi (the citizens take
up the difference where the deal lists them, so the table keeps its size); `--vary
options.reveal_role_on_death=true,false` plays each value of an option. Several `--vary`
make every combination.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.config import GameConfig
from engine.core.ruleset import RulesError, Seat, get_ruleset
from engine.i18n import L_, WarningText

FILLER = "citizen"
"""The role that takes up a varied count where a deal lists it."""
MAX_VARIANTS = 24


class SetupError(ValueError):
    """A --vary that cannot be read, or a variant the ruleset cannot deal."""


@dataclass(frozen=True)
class Vary:
    """One `--vary`: a table (deal or options), a key and the values to try."""

    table: str
    key: str
    values: tuple[Any, ...]

    @classmethod
    def parse(cls, text: str) -> Vary:
        where, eq, spec = text.partition("=")
        table, dot, key = where.strip().partition(".")
        if not eq or not dot or not key or table not in ("deal", "options"):
            raise SetupError(
                L_(
                    "--vary {text!r}: write deal.ROLE=2..4 or options.NAME=a,b (e.g. "
                    "deal.mafioso=1..3)",
                    text=text,
                )
            )
        spec = spec.strip()
        low, dots, high = spec.partition("..")
        if dots:
            try:
                first, last = int(low), int(high)
            except ValueError:
                said = L_("--vary {text!r}: a range is two whole numbers, e.g. 2..4", text=text)
                raise SetupError(said) from None
            if last < first or last - first >= MAX_VARIANTS:
                said = L_(
                    "--vary {text!r}: the range must go up, {most} values at most",
                    text=text,
                    most=MAX_VARIANTS,
                )
                raise SetupError(said)
            values: tuple[Any, ...] = tuple(range(first, last + 1))
        else:
            values = tuple(_value(v) for v in spec.split(",") if v.strip())
        if not values:
            raise SetupError(L_("--vary {text!r}: no values", text=text))
        if table == "deal" and not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise SetupError(L_("--vary {text!r}: a deal takes counts (whole numbers)", text=text))
        if table == "deal" and any(v < 0 for v in values):
            raise SetupError(L_("--vary {text!r}: a count cannot be negative", text=text))
        return cls(table, key.strip(), values)


def _value(text: str) -> Any:
    """An option value as TOML reads it (true, 3, 0.5, "text"); a bare word is text."""
    text = text.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


@dataclass(frozen=True)
class SimSetup:
    """Everything one game of the simulation needs, plain data that a worker process takes."""

    ruleset: str
    seats: tuple[Seat, ...]
    options: Mapping[str, Any]
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    label: str = "as in the file"
    changes: tuple[str, ...] = ()
    """What this variant changed, for the table's header ("mafioso=3", "citizen=4")."""

    @property
    def players(self) -> int:
        return len(self.seats)

    def check(self) -> None:
        """Deal one game now, so a setup the ruleset cannot play is an error before any run."""
        ruleset = get_ruleset(self.ruleset)
        try:
            ruleset.setup(self.seats, self.options, 0)
        except RulesError as exc:
            error = WarningText(str(exc))  # the rules' words, shown in the host's language
            said = (
                L_("this setup cannot be dealt ({label}): {error}", label=self.label, error=error)
                if self.changes
                else L_("this setup cannot be dealt: {error}", error=error)
            )
            raise SetupError(said) from None


def from_config(config: GameConfig) -> SimSetup:
    return SimSetup(
        config.ruleset,
        tuple(config.seats()),
        config.ruleset_options(),
        {k: tuple(v) for k, v in config.aliases.items()},
    )


def variants(config: GameConfig, varies: Sequence[Vary]) -> list[SimSetup]:
    """The file's setup, or one per combination of the `--vary` values."""
    if not varies:
        setup = from_config(config)
        setup.check()
        return [setup]
    ruleset = get_ruleset(config.ruleset)
    combos = list(itertools.product(*(v.values for v in varies)))
    if len(combos) > MAX_VARIANTS:
        said = L_("--vary makes {n} setups; {most} at most", n=len(combos), most=MAX_VARIANTS)
        raise SetupError(said)
    out = []
    for combo in combos:
        deal = dict(config.deal)
        options = dict(config.options)
        changes: list[str] = []
        for vary, value in zip(varies, combo, strict=True):
            if vary.table == "options":
                if vary.key not in ruleset.option_defaults:
                    known = ", ".join(sorted(ruleset.option_defaults))
                    said = L_(
                        "--vary options.{key}: no such option (known: {known})",
                        key=vary.key,
                        known=known,
                    )
                    raise SetupError(said)
                options[vary.key] = value
                changes.append(f"{vary.key}={_shown(value)}")
                continue
            if ruleset.deal_option is None:
                said = L_(
                    "--vary deal.{key}: {ruleset} games deal no roles this way",
                    key=vary.key,
                    ruleset=config.ruleset,
                )
                raise SetupError(said)
            before = int(deal.get(vary.key, 0))
            deal[vary.key] = value
            changes.append(f"{vary.key}={value}")
            if FILLER in deal and vary.key != FILLER:
                filler = int(deal[FILLER]) - (value - before)
                if filler < 0:
                    said = L_(
                        "--vary deal.{key}={value}: not enough {filler}s to make room ({n} in "
                        "the file)",
                        key=vary.key,
                        value=value,
                        filler=FILLER,
                        n=config.deal.get(FILLER, 0),
                    )
                    raise SetupError(said)
                deal[FILLER] = filler
        if FILLER in deal and any(v.table == "deal" and v.key != FILLER for v in varies):
            changes.append(f"({FILLER}={deal[FILLER]})")
        deal = {k: v for k, v in deal.items() if v}
        if deal and ruleset.deal_option:
            options[ruleset.deal_option] = deal
        setup = SimSetup(
            config.ruleset,
            tuple(config.seats()),
            options,
            {k: tuple(v) for k, v in config.aliases.items()},
            label=" ".join(changes),
            changes=tuple(changes),
        )
        setup.check()
        out.append(setup)
    return out


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
