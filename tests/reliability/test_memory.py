"""The server's memory: what a large job freed is used again or given back, not kept per thread."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import textwrap

import pytest
from flask.testing import FlaskClient

from scorekeeper import PROJECT_ROOT, memory

# Run in a fresh interpreter, so what the test process did before cannot blur the figures.
# A worker thread (its own malloc arena, as a waitress thread has) fills 60 MB with blocks
# large enough for malloc, then frees all but every hundredth: the kept blocks pin the heap,
# so the freed pages stay with the process until they are released.
FRAGMENT = textwrap.dedent(
    """
    import json, threading
    from scorekeeper import memory

    def rss():
        with open("/proc/self/status") as status:
            return int(status.read().split("VmRSS:")[1].split()[0]) // 1024

    figures = {"before": rss()}

    def work():
        blocks = [bytes(2048) for _ in range(30_000)]
        kept = blocks[::100]
        del blocks
        figures["freed"] = rss()
        figures["released"] = memory.release()
        figures["after"] = rss()
        figures["kept"] = len(kept)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    print(json.dumps(figures))
    """
)


# Four server threads, alive together, each in turn filling 30 MB and keeping every
# hundredth block (what stays cached after a request): with an arena per thread every one
# keeps its own 30 MB; sharing one arena, each reuses what the one before it freed.
TURNS = textwrap.dedent(
    """
    import json, sys, threading
    from scorekeeper import memory

    def rss():
        with open("/proc/self/status") as status:
            return int(status.read().split("VmRSS:")[1].split()[0]) // 1024

    shared = sys.argv[1] == "one" and memory.one_arena()
    kept, turns, done = [], [threading.Event() for _ in range(5)], threading.Event()

    def serve(turn):
        turns[turn].wait()
        blocks = [bytes(2048) for _ in range(15_000)]
        kept.append(blocks[::100])
        del blocks
        turns[turn + 1].set()
        done.wait()

    threads = [threading.Thread(target=serve, args=(turn,)) for turn in range(4)]
    for thread in threads:
        thread.start()
    before = rss()
    turns[0].set()
    turns[4].wait()
    print(json.dumps({"shared": shared, "grown": rss() - before}))
    done.set()
    for thread in threads:
        thread.join()
    """
)


def _turns(arenas: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", TURNS, arenas],
        capture_output=True,
        text=True,
        check=True,
        cwd=PROJECT_ROOT,
        timeout=60,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_the_c_library_says_what_it_can_do() -> None:
    glibc = platform.libc_ver()[0] == "glibc"
    assert memory.release() is glibc
    assert _turns("one")["shared"] is glibc


def test_threads_sharing_one_arena_reuse_what_the_one_before_freed() -> None:
    apart, shared = _turns("many"), _turns("one")
    assert shared["shared"] is True
    # An arena per thread: four times 30 MB. One arena: about 30 MB for the four.
    assert apart["grown"] >= 90, apart  # type: ignore[operator]
    assert shared["grown"] <= 45, shared  # type: ignore[operator]


def test_freed_pages_of_a_worker_thread_go_back_to_the_system() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FRAGMENT],
        capture_output=True,
        text=True,
        check=True,
        cwd=PROJECT_ROOT,
        timeout=60,
    )
    figures = json.loads(done.stdout)
    assert figures["released"] is True
    # Freed but kept: the process still holds most of the 60 MB...
    assert figures["freed"] - figures["before"] >= 40, figures
    # ...until it is released: at least 30 of them go back.
    assert figures["freed"] - figures["after"] >= 30, figures


@pytest.mark.parametrize(
    ("url", "streamed"),
    [("/api/export.json", True), ("/settings/export.json", True), ("/settings/export.zip", False)],
)
def test_an_export_gives_its_memory_back_when_it_ends(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, url: str, streamed: bool
) -> None:
    released: list[bool] = []
    monkeypatch.setattr(memory, "release", lambda: released.append(True) or True)

    response = client.get(url, buffered=False)
    assert response.status_code == 200
    # A streamed export holds its rows until the last byte is sent; the zip is built first.
    assert released == ([] if streamed else [True])
    assert b"".join(response.response)  # type: ignore[arg-type]
    response.close()

    assert released == [True]


# A started app, settled; then a garbage cycle made afterwards, and a full collection.
SETTLED = textwrap.dedent(
    """
    import gc, json
    from scorekeeper import create_app, memory

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    left_by_start = gc.collect()  # what settle() would freeze and never collect
    tracked = len(gc.get_objects())
    frozen = memory.settle()

    class Node:
        pass

    cycle = Node()
    cycle.me = cycle
    del cycle
    print(json.dumps({
        "tracked": tracked,
        "left_by_start": left_by_start,
        "frozen": frozen,
        "left": len(gc.get_objects()),
        "collected": gc.collect(),
        "app_frozen": not gc.is_tracked(app) or app not in gc.get_objects(),
    }))
    """
)


def test_a_settled_server_walks_only_what_it_made_since() -> None:
    figures = json.loads(
        subprocess.run(
            [sys.executable, "-c", SETTLED],
            capture_output=True,
            text=True,
            check=True,
            cwd=PROJECT_ROOT,
        ).stdout
    )
    # The start leaves next to no garbage for the freeze to keep (none when measured)...
    assert figures["left_by_start"] < 1_000
    # ...its objects (tens of thousands) are out of the collector's way...
    assert figures["frozen"] > 20_000
    assert figures["left"] < figures["tracked"] // 10
    assert figures["app_frozen"]
    # ...and garbage made afterwards is still collected.
    assert figures["collected"] >= 1
