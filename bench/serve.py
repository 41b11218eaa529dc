"""The app under waitress for the benchmark: ``python -m bench.serve PORT INSTANCE``.

Started as its own process, so its start-up time and memory are the app's alone.
The database comes from ``DATABASE_URL``, as in production.
"""

from __future__ import annotations

import sys

from waitress import serve

from scorekeeper import create_app, memory


def main() -> None:
    port, instance = int(sys.argv[1]), sys.argv[2]
    app = create_app(instance_path=instance)
    memory.one_arena()  # as scorekeeper.serve (make run) does
    memory.settle()
    serve(app, host="127.0.0.1", port=port, threads=4, _quiet=True)


if __name__ == "__main__":
    main()
