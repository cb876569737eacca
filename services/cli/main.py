"""The ``kgaudit`` command line: one entry point, subcommands loaded lazily.

Exit codes (DESIGN.md): 0 ok / audit passed, 1 an audit failed a gate, 2 bad input or usage
(also: a batch in which every record failed), 3 internal error, 130 interrupted (Ctrl-C). User errors are printed to stderr as one sentence naming the input at fault.

Subcommands live next to the code they drive and are imported only when invoked, so that
``kgaudit audit`` never imports torch and start-up stays fast.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from typing import Any

import click

from auditor.errors import EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, KgauditError, UsageError

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C

# name -> "module:attribute" of a click.Command; imported on first use.
_COMMANDS: dict[str, str] = {
    "audit": "services.cli.audit_cmd:audit_command",
    "batch": "services.cli.batch:batch_command",
    "report": "services.cli.report:report_command",
    "serve": "services.cli.api:serve_command",
    "trail": "services.cli.trail:trail_group",
    "keys": "services.cli.api:keys_group",
    "kg": "services.cli.kg_cmd:kg_group",
    "rules": "services.cli.rules_cmd:rules_group",
    "generate": "engine.cli:generate_command",
    "engine": "engine.cli:engine_group",
}
# Commands that register themselves (``[project.entry-points."kgaudit.commands"]`` in
# pyproject.toml): the benchmarks and evaluations of ``measure``, which no service imports.
ENTRY_POINT_GROUP = "kgaudit.commands"


class LazyGroup(click.Group):
    """A click group whose subcommands are imported only when used."""

    def __init__(
        self,
        *args: Any,
        lazy: dict[str, str] | None = None,
        entry_points: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._lazy = dict(lazy or {})
        self._entry_points = entry_points
        self._registered: dict[str, str] | None = None

    @property
    def lazy(self) -> dict[str, str]:
        """name -> "module:attribute": the group's own commands, then those registered under
        its entry-point group (read once, on first use)."""
        if self._registered is None:
            self._registered = {}
            if self._entry_points:
                for ep in importlib.metadata.entry_points(group=self._entry_points):
                    self._registered.setdefault(ep.name, ep.value)
        return {**self._registered, **self._lazy}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attr = self.lazy[cmd_name].split(":")
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                return _unavailable(cmd_name, exc)
            return getattr(module, attr)
        return super().get_command(ctx, cmd_name)


def _unavailable(name: str, exc: ModuleNotFoundError) -> click.Command:
    missing = exc.name or str(exc)

    @click.command(name, context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def _cmd(args: tuple[str, ...]) -> None:
        hint = ""
        if missing in {"torch", "triton", "tokenizers", "safetensors", "xgrammar"}:
            hint = " Install the engine extra: pip install 'kgaudit[engine]'."
        elif missing == "ray":
            hint = " Install the ray extra: pip install 'kgaudit[ray]'."
        elif missing in {"fpdf", "pypdfium2"}:
            hint = " Install the pdf extra: pip install 'kgaudit[pdf]'."
        raise UsageError(
            f"'kgaudit {name}' needs the module '{missing}', which is not installed.{hint}"
        )

    return _cmd


@click.group(
    cls=LazyGroup,
    lazy=_COMMANDS,
    entry_points=ENTRY_POINT_GROUP,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="kgaudit")
def cli() -> None:
    """kgaudit: audit LLM answers claim by claim against curated knowledge graphs.

    \b
    Exit codes: 0 ok; 1 an audit failed a gate (--fail-over-fer); 2 bad input or usage,
    or a batch in which every record failed; 3 internal error; 130 interrupted (Ctrl-C).
    """


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and map errors to the documented exit codes."""
    try:
        rv = cli.main(args=argv, prog_name="kgaudit", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click turns Ctrl-C into Abort
            click.echo("Interrupted.", err=True)
            return EXIT_INTERRUPTED
        click.echo("Aborted.", err=True)
        return EXIT_INPUT
    except click.ClickException as exc:
        exc.show()
        return EXIT_INPUT
    except KgauditError as exc:
        click.echo(f"error: {exc}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        return EXIT_INTERRUPTED
    except Exception as exc:  # the last line of defence: one sentence, no traceback
        click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
        if "--debug" in (argv or sys.argv):
            raise
        return EXIT_INTERNAL
    return int(rv) if isinstance(rv, int) else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
