"""Chunks of games on a Ray cluster (``--backend ray``): the same records as on this machine.

Each task plays one chunk (see ``RAY_CHUNK`` in :mod:`.simulate`) and
returns plain records. Two things travel with the work, so that a node
needs only Ray and davit's dependencies:

* this very ``interpreter`` package, as the job's ``py_modules`` (every
  node runs the same engine as the driver, so results cannot drift);
* the ruleset's own files (main file, includes, every variant of a
  combination, wherever its file lies), put in the object store once and
  written to a temporary folder on each worker that needs them: a ruleset
  or variant that exists only on the driver's disk works too. A worker
  builds the ruleset from that folder once, keeps the built ruleset and
  removes the folder at once, so nothing is left behind on a worker's disk.

A shipped variant sits in the shipped folder's ``variants/``, where its
base is the ruleset above it: its ``extends:`` (a path on the driver's disk,
meaningless on a worker) becomes a comment, on the same line.
"""
from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..errors import DavitError
from ..load.files import PACKAGE_DIR, RULESET_FILE, schemas_dir
from ..rules.loading import load_ruleset
from .runner import RunSpec, WorkerLostError, play_chunk, spans

_built: dict[tuple, object] = {}   # on a worker: (content hash, variant) -> the ruleset built from those files
_EXTENDS = re.compile(r"^extends:", re.MULTILINE)
OUTSIDE = "outside"   # the shipped folder's place for variant files that lay outside the ruleset's own folder


def ruleset_files(ref: str, variant: str | None) -> tuple[dict[str, str], str | None]:
    """The files that make up ``ref`` (with ``variant``) by their place in a shipped folder, and how to name
    the variant there: a variant of the ruleset's own by its id (in ``variants/``), a designer's file from
    elsewhere by its place in ``outside/`` (so it keeps its standing: the ruleset's ``combinable`` groups
    do not bind it)."""
    rs = load_ruleset(ref, variant)
    files = {}
    ids = rs.variant.split("+") if rs.variant else []
    by_file = dict(zip(rs.variant_files, ids))   # every variant of a combination, wherever its file lies
    own = {Path(p).resolve() for p in (rs.variants or {}).values()}
    names = []
    for path, vid in by_file.items():
        names.append(vid if Path(path).resolve() in own else f"{OUTSIDE}/{vid}.yaml")
    for i, path in enumerate(rs.files):
        text = Path(path).read_text(encoding="utf-8")
        if i == 0:
            files[RULESET_FILE] = text
        elif path in by_file and Path(path).resolve() in own:
            # beside its base in variants/, a variant needs no extends: (a path there would point nowhere)
            files[f"variants/{by_file[path]}.yaml"] = _EXTENDS.sub("# shipped beside its base; was extends:", text)
        elif path in by_file:
            # from elsewhere, a variant names its base by id (the only extends: it may have from outside)
            files[f"{OUTSIDE}/{by_file[path]}.yaml"] = _EXTENDS.sub(f"extends: {rs.id}  # shipped; was:", text)
        else:
            files[Path(path).name] = text   # includes always sit beside the main file
    return files, "+".join(names) if names else None


def _local_variant(folder: Path, variant: str | None) -> str | None:
    """The shipped variant name with a designer's files made paths inside the worker's ``folder``."""
    if not variant:
        return variant
    return "+".join(str(folder / v) if v.startswith(OUTSIDE + "/") else v for v in variant.split("+"))


def package_to_ship() -> Path:
    """A copy of this ``interpreter`` package with the JSON schemas inside (as in an installed wheel).

    From a source tree the schemas sit beside the package, not in it; a
    worker has only what is shipped. Bundled rulesets stay behind: a run
    ships its own ruleset's files.
    """
    staging = Path(tempfile.mkdtemp(prefix="davit-ship-")) / "interpreter"
    shutil.copytree(PACKAGE_DIR, staging, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "rulesets"))
    schemas = staging / "bundled" / "schemas"
    if not any(schemas.glob("*.json")):
        schemas.mkdir(parents=True, exist_ok=True)
        for path in schemas_dir().glob("*.json"):
            shutil.copy(path, schemas / path.name)
    return staging


def _folder_for(files: dict[str, str]) -> Path:
    """A new temporary folder holding ``files``; the caller removes it."""
    folder = Path(tempfile.mkdtemp(prefix="davit-ruleset-"))
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _ruleset_for(files: dict[str, str], variant: str | None):
    key = (hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest(), variant)
    ruleset = _built.get(key)
    if ruleset is None:
        folder = _folder_for(files)
        try:
            ruleset = _built[key] = load_ruleset(folder, _local_variant(folder, variant))
        finally:
            shutil.rmtree(folder, ignore_errors=True)   # built: the files are no longer needed
    return ruleset


def _ray_chunk(files: dict[str, str], spec: RunSpec, games: list) -> list[dict]:
    return play_chunk(spec, games, _ruleset_for(files, spec.variant))


RETRIES = 2   # plays of a task beyond the first when its worker dies, as the local pool does (runner.run_local)


def _worker_death_errors(ray) -> tuple:
    """The exceptions with which ``ray.get`` reports a task whose worker process died."""
    found = [getattr(ray.exceptions, name, None) for name in ("WorkerCrashedError", "NodeDiedError",
                                                              "LocalRayletDiedError", "OutOfMemoryError")]
    return tuple(error for error in found if isinstance(error, type))


class RaySession:
    """Ray for the length of one run: ``run(jobs, on_done)`` any number of times, then ``close()``.

    Connects to ``address`` (a running cluster), or starts a local Ray with
    ``workers`` CPUs; a Ray that this process had already started is used as
    it is and left running (its workers must then import this same
    ``interpreter``, for example through ``runtime_env={"py_modules": [...]}``).
    """

    def __init__(self, address: str | None, workers: int):
        try:
            import ray
        except ImportError:
            raise DavitError("davit: --backend ray needs Ray: pip install 'davit[ray]'") from None
        self.ray = ray
        self.started = not ray.is_initialized()
        self.shipped_package = None
        if self.started:
            # the job's runtime environment carries this package to every worker (Ray uploads local
            # folders only for a whole job, not for single tasks)
            self.shipped_package = package_to_ship()
            options: dict[str, Any] = {
                "include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING,
                "runtime_env": {"py_modules": [str(self.shipped_package)]}}
            try:
                if address:
                    ray.init(address=address, **options)
                else:   # "local": a new instance of our own, even if another one runs on this machine
                    ray.init(address="local", num_cpus=workers, **options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise DavitError(f"davit: cannot reach the Ray cluster at {address or 'a new local instance'}: "
                                 f"{exc}") from None
        # a task whose worker dies (killed, out of memory) is played again by Ray itself, twice; the same
        # seeds give the same games
        self.task = ray.remote(max_retries=RETRIES)(_ray_chunk)
        self.shipped: dict = {}

    def run(self, jobs, on_done) -> None:
        """Run ``(key, spec, games)`` jobs as tasks; ``on_done(key, records)`` as each finishes.

        A KeyboardInterrupt (or any error) cancels the tasks not finished. Jobs whose worker died on
        every try are given up: the others finish, and :class:`WorkerLostError` names the lost games, as
        the local pool does.
        """
        ray = self.ray
        lost_worker = _worker_death_errors(ray)
        pending: dict = {}
        gone: list = []
        try:
            for key, spec, games in jobs:
                if (spec.ref, spec.variant) not in self.shipped:
                    files, variant = ruleset_files(spec.ref, spec.variant)
                    self.shipped[(spec.ref, spec.variant)] = (ray.put(files), variant)
                files_ref, variant = self.shipped[(spec.ref, spec.variant)]
                remote_spec = dataclasses.replace(spec, ref=RULESET_FILE, variant=variant)
                pending[self.task.remote(files_ref, remote_spec, games)] = key, games
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                key, games = pending.pop(done[0])
                try:
                    records = ray.get(done[0])
                except lost_worker:
                    gone.extend(index for index, _ in games)
                    continue
                on_done(key, records)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        if gone:
            gone.sort()
            raise WorkerLostError(f"a Ray worker died (killed, or out of memory) each of the {RETRIES + 1} times "
                                  f"games {spans(gone)} were played; they are missing from the result", gone)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
        if self.shipped_package is not None:
            shutil.rmtree(self.shipped_package.parent, ignore_errors=True)
