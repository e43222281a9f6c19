"""``manage.py`` ends a command without freeing its memory object by object: what the command
wrote and the status it ended with still reach the caller."""

import subprocess
import sys

import pytest
from django.conf import settings

import manage


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *arguments], cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (3, 3), (True, 1), ("a message", 1)], ids=repr)
def test_the_exit_status_is_the_one_python_gives(code, status):
    assert manage.exit_code(code) == status


def test_a_command_ends_with_its_output_and_its_status():
    done = run("shell", "-c", "import sys; print('x' * 100_000, end=''); sys.stderr.write('late'); sys.exit(3)")
    assert done.returncode == 3
    assert done.stdout.endswith("x" * 100_000)
    assert done.stderr.endswith("late")


def test_a_command_that_fails_ends_with_status_1():
    done = run("shell", "-c", "raise ValueError('no such thing')")
    assert done.returncode == 1
    assert "ValueError: no such thing" in done.stderr
    assert run("no_such_command").returncode == 1
    assert run("help").returncode == 0
