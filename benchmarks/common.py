"""What every benchmark script shares: the machine description, medians and ratio tables, and
the JSON results file that ``plots.py`` reads."""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from typing import Any, Callable, Dict, List, Mapping, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(tempfile.gettempdir(), "pyflink_compat-bench")


def _version(python: str, code: str) -> str:
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=120)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def machine(pyflink_python: Optional[str] = None) -> Dict[str, Any]:
    """Cores, memory, load and the versions of Python, Java, pyspark and PyFlink."""
    memory = "?"
    if os.path.exists("/proc/meminfo"):
        with open("/proc/meminfo") as info:
            memory = "{:.1f} GiB".format(int(info.readline().split()[1]) / 2**20)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True)
    info = {
        "cores": os.cpu_count(),
        "memory": memory,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "java": (java.stderr.splitlines() or ["?"])[0],
        "pyspark": _version(sys.executable, "import pyspark; print(pyspark.__version__)"),
    }
    if pyflink_python:
        info["pyflink"] = _version(
            pyflink_python, "from importlib.metadata import version; print(version('apache-flink'))")
    return info


def print_machine(info: Mapping[str, Any]) -> None:
    print("machine: " + ", ".join("{}={}".format(k, v) for k, v in info.items()), flush=True)


def medians(samples: Mapping[str, Mapping[str, List[float]]]) -> Dict[str, Dict[str, float]]:
    return {side: {k: statistics.median(v) for k, v in by_key.items()}
            for side, by_key in samples.items()}


def spread(values: List[float]) -> float:
    """(max - min) / median: how noisy a measurement was across rounds."""
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle if middle else 0.0


def print_table(title: str, samples: Mapping[str, Mapping[str, List[float]]], ours: str,
                theirs: str) -> Dict[str, Dict[str, float]]:
    """Print median, ratio ours/theirs and spread per measurement; return the rows."""
    rows: Dict[str, Dict[str, float]] = {}
    print("\n" + title)
    print("{:<36} {:>12} {:>12} {:>7} {:>8}".format("measurement (median)", theirs, ours, "ratio",
                                                    "spread"))
    for key in samples[theirs]:
        if key not in samples[ours]:
            continue
        a = statistics.median(samples[ours][key])
        b = statistics.median(samples[theirs][key])
        noise = max(spread(samples[ours][key]), spread(samples[theirs][key]))
        rows[key] = {theirs: b, ours: a, "ratio": a / b if b else float("nan"), "spread": noise}
        print("{:<36} {:>12.3f} {:>12.3f} {:>7.2f} {:>7.0%}".format(key, b, a, rows[key]["ratio"],
                                                                    noise))
    return rows


def paired_ratios(samples: Mapping[str, Mapping[str, List[float]]], ours: str, theirs: str,
                  keys: List[str], resamples: int = 2000) -> Dict[str, Dict[str, float]]:
    """Print and return, per measurement, the ratio ours/theirs of each round (both sides ran
    in the same round, one after the other): their median and a 90% bootstrap interval of
    that median. Pairing by round cancels what a round shares (the machine's load at the
    time), which the medians of each side taken apart do not."""
    import random

    picker = random.Random(7)  # the same interval for the same samples
    rows: Dict[str, Dict[str, float]] = {}
    print("\npaired by round (ratio = {} / {}): median of the rounds' ratios, 90% interval"
          .format(ours, theirs))
    for key in keys:
        pairs = [(a, b) for a, b in zip(samples[ours].get(key, []), samples[theirs].get(key, []))
                 if b]
        if not pairs:
            continue
        ratios = [a / b for a, b in pairs]
        middles = sorted(statistics.median(picker.choices(ratios, k=len(ratios)))
                         for _ in range(resamples))
        rows[key] = {"median": statistics.median(ratios), "low": middles[resamples // 20],
                     "high": middles[resamples - 1 - resamples // 20], "rounds": len(ratios)}
        print("{:<36} {:>7.3f}   [{:.3f}, {:.3f}]  ({} rounds)".format(
            key, rows[key]["median"], rows[key]["low"], rows[key]["high"], len(ratios)))
    return rows


def write_results(out: str, name: str, data: Mapping[str, Any]) -> str:
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name + ".json")
    with open(path, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
    print("results written to", path, flush=True)
    return path


def run_json(argv: List[str], env: Optional[Mapping[str, str]] = None, timeout: int = 900) -> Dict[str, Any]:
    """Run a command, return the JSON object on the last line of its output."""
    full_env = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    out = subprocess.run(argv, capture_output=True, text=True, env=full_env,
                         cwd=tempfile.gettempdir(), timeout=timeout)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError("{} failed ({}):\n{}".format(" ".join(argv), out.returncode,
                                                        out.stderr[-3000:]))
    return dict(json.loads(lines[-1]))


def count_commands(client: Any, counted: Callable[[str], bool]) -> List[int]:
    """Make the py4j ``client`` count the commands it sends that ``counted`` accepts (it is
    given the command, in the sending thread), until :func:`stop_counting`.

    :return: A list whose one item is the count so far.
    """
    tally = [0]
    send = client.send_command

    def counting(command: str, *args: Any, **kwargs: Any) -> Any:
        if counted(command):
            tally[0] += 1
        return send(command, *args, **kwargs)

    client.send_command = counting
    return tally


def stop_counting(client: Any) -> None:
    """Undo :func:`count_commands`."""
    del client.send_command
