"""Running the real server as its own process, and talking to it with the standard library."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, port: int, instance: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DATABASE_URL",
            "SCOREKEEPER_SECRET_KEY",
            "SCOREKEEPER_INSTANCE_PATH",
            "SCOREKEEPER_BACKUP_DAILY",
            "PORT",
            "FLASK_DEBUG",
        )
    }
    env.update(
        DATABASE_URL=database_url,
        PORT=str(port),
        SCOREKEEPER_SECRET_KEY="crash-test-only",
        # An instance folder of its own: a passcode set on this machine must not lock the
        # server out of the test, nor the test's backups land beside the club's.
        SCOREKEEPER_INSTANCE_PATH=str(instance),
        SCOREKEEPER_BACKUP_DAILY="0",
        PYTHONUNBUFFERED="1",
    )
    return env


def upgrade(env: dict[str, str]) -> None:
    subprocess.run(
        [str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"],
        cwd=PROJECT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


class Server:
    """``python -m scorekeeper.serve`` on a port of its own."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.port = int(env["PORT"])
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.serve"],
                cwd=PROJECT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                status, _ = request(self.port, "GET", "/healthz", timeout=1.0)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, exactly like pulling the plug on the process."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None


def request(
    port: int, method: str, path: str, body: Any = None, timeout: float = 10.0
) -> tuple[int, Any]:
    """One request on a fresh connection; the status and the decoded JSON (or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        data = (
            json.loads(raw)
            if raw and response.getheader("Content-Type", "").startswith("application/json")
            else None
        )
        return response.status, data
    finally:
        conn.close()
