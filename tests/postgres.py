"""Fixtures for running store tests on both engines: a throwaway PostgreSQL server for the test session.

``store_target`` is parametrised over ``sqlite`` and ``postgresql``: a fresh SQLite file, or a fresh
schema on a server started (``initdb`` + ``pg_ctl``) in a temporary folder the first time a test asks for
one, listening on a Unix socket there only. (A schema of its own isolates a test as well as a database of
its own would, and takes a millisecond to create where ``CREATE DATABASE`` takes a few hundred.)

Without PostgreSQL's server binaries those tests are skipped, saying why; with ``CI`` set in the
environment they fail instead, so CI can never skip them silently.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

ENGINES = ("sqlite", "postgresql")
SERVER_USER = "postgres"
"""Who runs the server when the tests run as root (PostgreSQL refuses to run as root)."""
_names = itertools.count(1)


def _binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, or Debian's newest ``/usr/lib/postgresql/N/bin``."""
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


class PostgresUnavailable(Exception):
    """No PostgreSQL server can be started here; ``str(exc)`` says why."""


class PostgresFailed(Exception):
    """Starting the server failed; ``str(exc)`` holds the command's output and the server's log."""


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the PostgreSQL store tests: .ci/run installs PostgreSQL)")
    pytest.skip(reason)


@dataclass(frozen=True)
class PostgresServer:
    socket_dir: Path

    def url(self, schema: str = "public") -> str:
        """Connect to the server's one database; asyncpg sends ``search_path`` as a server setting."""
        return f"postgresql://{SERVER_USER}@/postgres?host={self.socket_dir}&search_path={schema}"

    def database_url(self, name: str) -> str:
        """Connect to the database ``name`` (made with ``CREATE DATABASE``): a URL libpq's tools read too."""
        return f"postgresql://{SERVER_USER}@/{name}?host={self.socket_dir}"

    def tool(self, name: str) -> str:
        """The path of one of the server's client tools (``pg_dump``, ``pg_restore``), of the server's version."""
        bin_dir = _binaries()
        assert bin_dir is not None  # the server was started from there
        return str((bin_dir / "initdb").resolve().parent / name)  # beside the real initdb, not a link to it


@contextmanager
def throwaway_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary folder, listening on a Unix socket there only, stopped and
    deleted on leaving. Raises :class:`PostgresUnavailable` when there is none to start here (no asyncpg,
    no server binaries, root without a ``postgres`` user) and :class:`PostgresFailed` when starting fails.
    The tests' session fixture and ``python -m bench`` both use it."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        raise PostgresUnavailable("asyncpg is not installed (pip install -e '.[dev]')") from None
    bin_dir = _binaries()
    if bin_dir is None:
        raise PostgresUnavailable(
            "no PostgreSQL server binaries (initdb, pg_ctl) to test the store on: apt-get install postgresql"
        )
    as_user: list[str] = []
    account = None
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam(SERVER_USER)
        except KeyError:
            raise PostgresUnavailable(
                f"running as root and there is no {SERVER_USER!r} user to run PostgreSQL as"
            ) from None
        as_user = ["runuser", "-u", SERVER_USER, "--"]
    root = Path(tempfile.mkdtemp(prefix="tables-pg-"))
    if account is not None:
        os.chown(root, account.pw_uid, account.pw_gid)
    data = root / "data"

    def run(*command: str) -> None:
        done = subprocess.run([*as_user, *command], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = (root / "log").read_text() if (root / "log").exists() else ""
            raise PostgresFailed(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}{log}")

    try:
        # Durability is not under test: without fsync a fresh database takes ~50 ms instead of seconds.
        settings = "-c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", SERVER_USER, "-A", "trust", "-E", "UTF8", "--no-sync")
        run(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-w",
            "-o",
            f"-k {root} {settings}",
            "start",
        )
        yield PostgresServer(root)
    finally:
        if (data / "postmaster.pid").exists():
            # Quietly: its progress would go to stdout, ahead of the bench's JSON.
            stop = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
            subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for this test session, stopped and deleted at its end (skipped, saying why,
    when there is none to start; failed instead under CI)."""
    try:
        with throwaway_server() as server:
            yield server
    except PostgresUnavailable as exc:
        _unavailable(str(exc))
    except PostgresFailed as exc:
        pytest.fail(str(exc))


async def _new_database(server: PostgresServer) -> str:
    import asyncpg

    schema = f"test_{next(_names)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    return server.url(schema)


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database (a schema of its own) on the session's PostgreSQL server."""
    return await _new_database(postgres_server)


@pytest.fixture(params=ENGINES)
async def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``Store.open`` takes for a new, empty database: an SQLite file path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "bot.db")
    return await _new_database(request.getfixturevalue("postgres_server"))
