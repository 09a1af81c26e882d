"""Shared test set-up: rules-test files of the shipped games become pytest items.

The tests are grouped as the package is: tests/content, language, compile, engine,
view, rl, rulings, play, runs, printing, lsp; tests/games for the shipped games, tests/docs for the documentation.

Every `kind: rules-test` file under content/*/ is collected; each of its tests
is one item carrying the pytest marker `rule(...)` with the rule IDs it
checks, so that ../shared/tools/rule_coverage.py counts it.

Tests marked `slow` (the long fuzz runs of tests/fuzz) are skipped unless asked
for, with `--slow` or with a `-m` expression naming them (`-m slow`), so that
the plain `python -m pytest` stays short.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
CONTENT = ROOT / "content"
sys.path.insert(0, str(ROOT / "tests"))  # what the tests share (tests/gamekit.py)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the configuration's default) runs the tests in one process when a plugin
    object was handed to pytest in-process to watch each test's report (a coverage recorder
    such as ../shared/tools/rule_coverage.py): the reports of worker processes would never
    reach it. Otherwise None: pytest-xdist's own count, one worker per core."""
    watchers = [p for p in config.pluginmanager.get_plugins()
                if not isinstance(p, type(sys)) and any(hasattr(p, h) for h in _REPORT_HOOKS)]
    return 0 if watchers else None


_REPORT_HOOKS = ("pytest_runtest_makereport", "pytest_runtest_logreport")


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow (long fuzz runs)")


def pytest_configure(config):
    config.addinivalue_line("markers", "rule(*ids): rule IDs this test checks")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow") or "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow or -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@lru_cache(maxsize=None)
def loaded_game(name: str, expansion: str | None = None):
    import interpreter
    return interpreter.load(str(CONTENT / name), [expansion] if expansion else [], tests=True)


@lru_cache(maxsize=None)
def expansion_of(path: Path) -> str | None:
    """The id of the expansion whose folder holds `path`, or None for a game's own file."""
    import yaml
    for folder in path.parents:
        if folder == CONTENT:
            return None
        head = folder / "expansion.yaml"
        if head.is_file():
            return str(yaml.safe_load(head.read_text(encoding="utf-8"))["id"])
    return None


class RulesTestItem(pytest.Item):
    def __init__(self, *, game: str, index: int, **kwargs):
        super().__init__(**kwargs)
        self.game = game
        self.index = index

    def runtest(self):
        from interpreter.rulings.ruletest import run_test
        game = loaded_game(self.game, expansion_of(Path(self.path)))
        test = [t for t in game.program.defn.tests if Path(t.file).resolve() == Path(self.path).resolve()][self.index]
        result = run_test(game, test)
        if not result.passed:
            tail = "\n".join(f"    {e}" for e in result.trace[-12:])
            raise AssertionError(f"{result.message}\n  last events:\n{tail}")

    def reportinfo(self):
        return self.path, 0, f"rules test: {self.name}"

    def repr_failure(self, excinfo):
        return str(excinfo.value)


class RulesTestFile(pytest.File):
    def collect(self):
        import yaml
        data = yaml.safe_load(self.path.read_text(encoding="utf-8"))
        game = self.path.relative_to(CONTENT).parts[0]
        file_rules = list(data.get("rules") or [])
        for i, t in enumerate(data.get("tests") or []):
            item = RulesTestItem.from_parent(self, name=str(t.get("name", f"test {i + 1}")), game=game, index=i)
            ids = file_rules + list(t.get("rules") or [])
            if ids:
                item.add_marker(pytest.mark.rule(*ids))
            yield item


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix in (".yaml", ".yml") and CONTENT in file_path.parents:
        head = file_path.read_text(encoding="utf-8", errors="replace")[:2000]
        if "kind: rules-test" in head:
            return RulesTestFile.from_parent(parent, path=file_path)
    return None
