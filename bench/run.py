"""``make bench``: fill databases of 100 and 10,000 demo games, measure, print, write JSON.

    python -m bench.run [--sizes 100 10000] [--runs 30] [--out bench/report.json] [--no-cache]

Databases live in a temporary folder (never instance/); the filled 10,000-game file is kept
in .bench-cache/ so the next run starts measuring at once. A benchmark, not a test: it never
fails on a slow machine, it reports.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.fill import CACHE, filled_database
from bench.measure import has_export, measure_in_process, measure_wsgi
from scorekeeper import PROJECT_ROOT

REPORT = PROJECT_ROOT / "bench" / "report.json"
ORDER = (
    "home",
    "game",
    "deal_entry",
    "deal_save",
    "deal_correct",
    "standings",
    "standings_api",
    "player",
    "player_games",
    "export",
)


def run(
    sizes: list[int],
    runs: int,
    folder: Path,
    cache: Path | None,
    seed: int = 1,
    skip: tuple[str, ...] = (),
    pdf_runs: int = 8,
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "sizes": sizes,
        "pages": {},
        "pdf": {},
        "cold_start_ms": None,
        "peak_rss_mb": None,
        "standings_recompute_ms": {},
        "fill": {},
        "missing": [],
        "machine": machine(),
    }
    # The server starts from compiled bytecode, as an installed app does (`make setup` compiles
    # it too): where PYTHONDONTWRITEBYTECODE is set, it would otherwise compile every module
    # from source at each start, which is not the start-up a club's machine sees.
    compileall.compile_dir(PROJECT_ROOT / "scorekeeper", quiet=1)
    for size in sizes:
        started = time.perf_counter()
        database, how = filled_database(folder / f"demo-{size}.sqlite", size, seed, cache=cache)
        report["fill"][str(size)] = {"how": how, "seconds": round(time.perf_counter() - started, 1)}
        print(
            f"{size} games: database {how} in {report['fill'][str(size)]['seconds']} s", flush=True
        )
        measured = measure_in_process(database, runs, skip, pdf_runs)
        from bench.fill import make_app

        wsgi = measure_wsgi(
            database, runs, measured["targets"], has_export(make_app(database)), skip
        )
        for name, figures in measured["pages"].items():
            figures.wsgi = wsgi["pages"].get(name, [])
            report["pages"].setdefault(name, {})[str(size)] = figures.as_json()
        report["missing"] = measured["missing"]
        report["standings_recompute_ms"][str(size)] = measured["standings_recompute_ms"]
        # PDFs, start-up and memory: from the largest database, measured last.
        report["pdf"] = {**measured["pdf"], "blank_first_request_ms": wsgi["blank_first_ms"]}
        report["cold_start_ms"] = wsgi["cold_start_ms"]
        report["peak_rss_mb"] = wsgi["peak_rss_mb"]
        print(f"{size} games measured", flush=True)
    report["pages"] = {name: report["pages"][name] for name in ORDER if name in report["pages"]}
    return report


def machine() -> dict[str, Any]:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpus": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "system": platform.platform(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def table(report: dict[str, Any]) -> str:
    sizes = [str(size) for size in report["sizes"]]
    head = f"{'page':<14}" + "".join(
        f" | {s + ' games':>11} p50   p95  wsgi  q  limit ratio" for s in sizes
    )
    lines = [head, "-" * len(head)]
    for name, by_size in report["pages"].items():
        cells = []
        for size in sizes:
            f = by_size.get(size)
            if f is None:
                cells.append(" | " + " " * 40)
                continue
            limit = f"{f['limit_p50_ms']:6.1f}" if f["limit_p50_ms"] is not None else "     -"
            ratio = f"{f['ratio']:5.1f}" if f["ratio"] is not None else "    -"
            wsgi = f"{f.get('wsgi_p50_ms', float('nan')):5.0f}" if "wsgi_p50_ms" in f else "    -"
            cells.append(
                f" | {f['p50_ms']:8.1f} {f['p95_ms']:6.1f} {wsgi} {f['queries']:2d} {limit} {ratio}"
            )
        lines.append(f"{name:<14}" + "".join(cells))
    for name in report["missing"]:
        lines.append(f"{name:<14} | missing: the route does not exist on this branch")
    pdf = report["pdf"]
    lines += [
        "",
        "PDF (ms): filled sheet {filled_ms} (layouts per sheet, latest 20 games: "
        "{filled_layouts}; printed again, from the cache: {filled_again_ms}), "
        "bare WeasyPrint of the same HTML {bare_weasyprint_ms}, "
        "blank sheet cold {blank_cold_ms} / warm (cached) {blank_warm_ms}, "
        "first blank sheet of a fresh server {blank_first_request_ms}".format(**pdf),
        f"Cold start (process start to first response): {report['cold_start_ms']} ms; "
        f"peak RSS of the server: {report['peak_rss_mb']} MB",
        "Standings computed again after a correction (ms): "
        + ", ".join(f"{s} games {v}" for s, v in report["standings_recompute_ms"].items()),
        f"Machine: {report['machine']['cpus']} CPUs, {report['machine']['cpu']}, "
        f"load {report['machine']['load_average']}",
    ]
    return "\n".join(lines)


def markdown(report: dict[str, Any]) -> str:
    """The figures as the README's table: p50 (queries) and ratio to the limit, per size."""
    sizes = [str(size) for size in report["sizes"]]
    head = "| page | " + " | ".join(
        f"{s} games: p50 ms (queries) · waitress p50 · limit · ratio" for s in sizes
    )
    lines = [head + " |", "|---" * (len(sizes) + 1) + "|"]
    for name, by_size in report["pages"].items():
        cells = []
        for size in sizes:
            f = by_size[size]
            limit = f"{f['limit_p50_ms']:.1f}" if f["limit_p50_ms"] is not None else "-"
            ratio = f"{f['ratio']:.1f}x" if f["ratio"] is not None else "-"
            wsgi = f"{f['wsgi_p50_ms']:.0f}" if "wsgi_p50_ms" in f else "-"
            cells.append(f"{f['p50_ms']:.1f} ({f['queries']}) · {wsgi} · {limit} · {ratio}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for name in report["missing"]:
        lines.append(f"| {name} | " + " | ".join("not on this branch" for _ in sizes) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 10_000])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--out", type=Path, default=REPORT)
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--skip", nargs="*", default=[], help="pages not to measure")
    parser.add_argument(
        "--markdown", type=Path, help="print the table of an earlier report.json for the README"
    )
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.markdown.read_text())))
        return
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        report = run(
            args.sizes,
            args.runs,
            Path(folder),
            None if args.no_cache else CACHE,
            skip=tuple(args.skip),
        )
    report["seconds"] = round(time.perf_counter() - started, 1)
    print()
    print(table(report))
    print(f"\nWhole run: {report['seconds']} s. Report: {args.out}")
    args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
