"""A process that starts `semedori serve` again and again, forked (the server-kill test's victims).

    python server_forks.py

It imports what `semedori serve` imports once, then for each line ``FOLDER PORT LOG THREADS``
on stdin forks a child that runs the `serve` command itself (kiosk.cli's `main`, as the
console script does) on FOLDER, writing its output to LOG. The parent writes ``pid P`` when
the child starts and ``done STATUS`` when it has been reaped. A kill test restarts the
server after every kill: forking saves the interpreter's start and the imports (a start took
2 to 3.5 s on the busy 2-core machine, forked 0.35 to 0.6 s), not one line of what the
server does from its start on its folder to its death.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import traceback

import web
from kiosk.cli import main as semedori

# Every module of the web app, as `semedori serve` imports them (create_app imports its pages' modules).
for module in pkgutil.iter_modules(web.__path__):
    importlib.import_module(f"web.{module.name}")


def serve(folder: str, port: str, log: str, threads: str) -> None:
    """In the child: `semedori serve` on the folder, its output appended to the log."""
    output = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.close(output)
    os.environ["SEMEDORI_HOME"] = folder
    arguments = ["serve", "--host", "127.0.0.1", "--port", port, "--writes-per-minute", "0", "--threads", threads]
    semedori(arguments, prog_name="semedori")


def main() -> None:
    """Fork a serving child per line of stdin."""
    os.write(1, b"ready\n")
    for line in sys.stdin:
        folder, port, log, threads = line.split()
        pid = os.fork()
        if pid == 0:
            try:
                serve(folder, port, log, threads)
            except SystemExit:
                pass  # `serve` refused to start and said why in the log
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(1)  # `serve` returned or failed: the parent sees no kill
        os.write(1, f"pid {pid}\n".encode())
        _, status = os.waitpid(pid, 0)
        os.write(1, f"done {status}\n".encode())


if __name__ == "__main__":
    main()
