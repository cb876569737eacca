"""SQLite writers queue on an ``flock`` of ``<database>.writer.lock`` (trail.db)."""

from __future__ import annotations

import multiprocessing as mp
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from trail import Trail
from trail.db import WriterLock, sqlite_writer_lock
from trail.testing import fake_result

fcntl = pytest.importorskip("fcntl")


def _try_lock(path: Path) -> bool:
    """Can another process take the writer lock right now (without waiting)?"""
    code = (
        "import fcntl, os, sys\n"
        f"fd = os.open({str(path)!r}, os.O_RDWR | os.O_CREAT)\n"
        "try:\n"
        "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "except BlockingIOError:\n"
        "    sys.exit(1)\n"
    )
    return subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_the_lock_excludes_other_processes_while_held(tmp_path: Path) -> None:
    lock = WriterLock(str(tmp_path / "trail.db"))
    with lock.hold():
        assert lock.path == tmp_path / "trail.db.writer.lock"
        assert _try_lock(lock.path) is False
    assert _try_lock(lock.path) is True


def _child_tries(lock: WriterLock) -> None:
    fd = lock._file()  # after the fork: must be a file of its own, not the parent's
    assert fd is not None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os._exit(0)  # blocked by the parent's lock: as it should be
    os._exit(1)  # the inherited file would have "taken" the parent's lock


def test_a_forked_child_does_not_share_the_parents_lock(tmp_path: Path) -> None:
    """flock locks belong to the open file: a child must open its own, or it would "hold"
    the lock whenever its parent does."""
    lock = WriterLock(str(tmp_path / "trail.db"))
    with lock.hold():
        child = mp.get_context("fork").Process(target=_child_tries, args=(lock,))
        child.start()
        child.join(timeout=60)
    assert child.exitcode == 0


def test_threads_of_one_process_are_serialised(tmp_path: Path) -> None:
    lock = WriterLock(str(tmp_path / "trail.db"))
    inside, most = [0], [0]
    guard = threading.Lock()

    def work() -> None:
        for _ in range(50):
            with lock.hold():
                with guard:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert most[0] == 1


def test_sqlite_trails_append_under_the_lock(tmp_path: Path) -> None:
    trail = Trail(f"sqlite:///{tmp_path}/trail.db")
    trail.migrate()
    assert trail._writer_lock is not None
    trail.record(fake_result(), text="one", tenant="acme")
    assert (tmp_path / "trail.db.writer.lock").exists()
    assert trail.verify().ok
    trail.close()


def test_no_writer_lock_for_other_databases() -> None:
    from sqlalchemy import create_engine

    assert sqlite_writer_lock(create_engine("postgresql+psycopg://u@127.0.0.1/x")) is None


def test_a_read_only_folder_falls_back_to_sqlites_locking(tmp_path: Path) -> None:
    lock = WriterLock(str(tmp_path / "missing-folder" / "trail.db"))  # cannot be created
    with lock.hold():
        pass
