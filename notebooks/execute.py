#!/usr/bin/python3
"""Execute tslab notebooks headless with nbclient (the engine behind
`jupyter nbconvert --execute`) and report, per notebook, one JSON line:

  {"notebook": "...", "ok": true, "seconds": 4.2, "cells": 12, "cell_seconds": [2.9, 0.4, ...]}
  {"notebook": "...", "ok": false, "error": {"cell": 3, "source": "...", "ename": "...", "evalue": "...", "outputs": "..."}}

Why not plain nbconvert: when a tslab cell fails to compile, the kernel's
error reply is empty and the message is only in the cell's stderr stream, so
nbconvert prints `<Error>:` and nothing useful. Here the failing cell's source
and every output it produced (stderr included) go into the report.

Usage (run with Debian's python, which has nbclient; JUPYTER_PATH must point
at the folder `notebooks/setup.mjs` writes):
  /usr/bin/python3 notebooks/execute.py [--in-place | --out-dir DIR] [--timeout S] NB.ipynb...
  ... --stdin: more notebook paths from standard input, one per line (one python, a fresh kernel each)

`cell_seconds` is each code cell's wall time (kernel busy to idle: compiling the cell, then
running it), from nbclient's timing records, which are not kept in the written notebook (a re-run
leaves no diff). The first cell includes the kernel's first compile and the package import.

Outputs are written even when a cell fails (up to the failing cell), so the
failure can be inspected. Exit status 1 when any notebook failed.
"""
import argparse
import copy
import json
import os
import sys
import time
import warnings
from datetime import datetime

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError


def _text(output):
    kind = output.get("output_type")
    if kind == "stream":
        return "[%s] %s" % (output.get("name"), output.get("text", ""))
    if kind == "error":
        return "[error] %s: %s\n%s" % (output.get("ename"), output.get("evalue"), "\n".join(output.get("traceback", [])))
    data = output.get("data", {})
    if "text/plain" in data:
        return "[%s] %s" % (kind, data["text/plain"])
    return "[%s] (%s)" % (kind, ", ".join(sorted(data)))


def fill_empty_errors(cell, ename):
    """tslab reports a cell that does not compile (e.g. `Cannot find module 'market-intel-lab'`)
    with an empty error reply (ename "<Error>", evalue "", no error output): the diagnostics are
    only in the cell's stderr stream, so `jupyter nbconvert` printed `<Error>: ` and the executed
    notebook showed no error. Give the cell an error output carrying the stderr text, so the
    notebook itself shows the real message. Returns that message, or None."""
    stderr = "".join(_joined(o.get("text", "")) for o in cell.get("outputs", []) if o.get("output_type") == "stream" and o.get("name") == "stderr").strip()
    if not stderr:
        return None
    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if any(str(o.get("evalue", "")).strip() for o in errors):
        return None
    for o in errors:
        cell.outputs.remove(o)
    cell.outputs.append(nbformat.v4.new_output("error", ename=(ename or "Error").strip("<>") or "Error", evalue=stderr, traceback=[stderr]))
    return stderr


def cell_seconds(cell):
    """A code cell's wall time from nbclient's timing record (kernel busy to idle), rounded to
    0.01 s; None when the cell did not run. The record is removed from the cell's metadata."""
    timing = cell.metadata.pop("execution", None) or {}
    busy, idle = timing.get("iopub.status.busy"), timing.get("iopub.status.idle")
    if not busy or not idle:
        return None
    parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
    return round((parse(idle) - parse(busy)).total_seconds(), 2)


def _joined(text):
    return "".join(text) if isinstance(text, list) else str(text)


def execute(path, out_path, timeout):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # missing cell ids: normalised below
        nb = nbformat.read(path, as_version=4)
    _, normalised = nbformat.validator.normalize(nb)
    nb = nbformat.from_dict(normalised)
    # The notebook's metadata is build.mjs's (kernelspec, language_info). nbclient would replace
    # language_info with the kernel's reply, and tslab 1.0.22 reports TypeScript "3.7.2" there (it
    # runs 5.0), so every re-run flipped it and left a git diff with unchanged outputs: keep ours.
    metadata = copy.deepcopy(nb.metadata)
    for cell in nb.cells:  # start clean: no stale outputs survive a failure
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    client = NotebookClient(
        nb,
        timeout=timeout,
        # nbclient waits 60 s for a kernel by default; a tslab kernel starting while
        # the test suite keeps both cores busy has been seen to need more (CI flake).
        startup_timeout=300,
        kernel_name="tslab",
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}},
        # per-cell timing for the report (cell_seconds); removed from the written notebook below
        record_timing=True,
    )
    started = time.monotonic()
    report = {"notebook": path, "ok": True, "cells": sum(1 for c in nb.cells if c.cell_type == "code")}
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as exc:
        report["ok"] = False
        failing = None
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            # The failing cell is the last one that ran: nbclient stops there.
            if cell.get("execution_count") is not None or cell.get("outputs"):
                failing = (index, cell)
        index, cell = failing if failing is not None else (-1, {"source": "", "outputs": []})
        filled = fill_empty_errors(cell, getattr(exc, "ename", "")) if failing is not None else None
        report["error"] = {
            "cell": index,
            "source": cell.get("source", ""),
            "ename": getattr(exc, "ename", type(exc).__name__),
            "evalue": (filled or getattr(exc, "evalue", str(exc)))[:2000],
            "outputs": "\n".join(_text(o) for o in cell.get("outputs", []))[-4000:],
        }
    except Exception as exc:  # kernel died, kernel spec missing, ...
        report["ok"] = False
        report["error"] = {"cell": -1, "source": "", "ename": type(exc).__name__, "evalue": str(exc)[:2000], "outputs": ""}
    report["seconds"] = round(time.monotonic() - started, 2)
    report["cell_seconds"] = [cell_seconds(c) for c in nb.cells if c.cell_type == "code"]
    nb.metadata = metadata
    nbformat.write(nb, out_path)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--in-place", action="store_true", help="overwrite each notebook with its executed version")
    where.add_argument("--out-dir", help="write executed notebooks into this folder")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell (default 300)")
    parser.add_argument("notebooks", nargs="*")
    parser.add_argument(
        "--stdin",
        action="store_true",
        help="then read more notebook paths from standard input, one per line, until it closes; each report line is "
        "printed as its notebook finishes (a test runner keeps one python for many notebooks, one kernel each)",
    )
    args = parser.parse_args()
    if not args.notebooks and not args.stdin:
        parser.error("give notebooks, or --stdin")
    failed = 0
    for path in args.notebooks:
        failed += run_one(path, args)
    if args.stdin:
        for line in iter(sys.stdin.readline, ""):
            if line.strip():
                failed += run_one(line.strip(), args)
    sys.exit(1 if failed else 0)


def run_one(path, args):
    """Execute one notebook in a fresh kernel, print its report line; 1 when it failed, else 0."""
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
    out = path if args.in_place else os.path.join(args.out_dir, os.path.basename(path))
    report = execute(path, out, args.timeout)
    error = report.get("error") or {}
    if error.get("cell") == -1 and "didn't respond" in error.get("evalue", ""):
        # the kernel never came up (no cell ran): one fresh kernel before calling it a failure
        print("kernel did not start for %s; retrying once with a fresh kernel" % path, file=sys.stderr, flush=True)
        report = execute(path, out, args.timeout)
        report["retried"] = True
    print(json.dumps(report), flush=True)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    main()
