#!/usr/bin/env python
import atexit
import gc
import os
import sys

# Loading the apps and the command leaves some 130,000 objects that live as long as the process and
# little garbage: with the default thresholds the collector scans them about 300 times meanwhile, a
# seventh of a command's start-up CPU. It runs rarely until the command is loaded; then what was loaded
# is moved out of its way (gc.freeze) and it runs as usual for the command's own work.
STARTING_THRESHOLD = 50_000


def exit_code(code: object) -> int:
    """The process's exit status for ``sys.exit(code)``, as Python gives it."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")
    thresholds = gc.get_threshold()
    gc.set_threshold(STARTING_THRESHOLD, *thresholds[1:])
    from django.core.management import ManagementUtility

    class Utility(ManagementUtility):
        def fetch_command(self, subcommand):
            command = super().fetch_command(subcommand)
            gc.freeze()
            gc.set_threshold(*thresholds)
            return command

    # Freeing the loaded apps object by object at exit costs about 0.13 s of every command: once the
    # threads are joined and the other exit handlers have run (this one, registered first, runs
    # last), the process ends with the command's status and leaves its memory to the system.
    status = [0]

    def leave() -> None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe or stream: nothing more can be written
                pass
        os._exit(status[0])

    atexit.register(leave)
    try:
        Utility(sys.argv).execute()
    except SystemExit as exc:
        status[0] = exit_code(exc.code)
        raise
    except KeyboardInterrupt:
        status[0] = 130
        raise
    except BaseException:
        status[0] = 1
        raise


if __name__ == "__main__":
    main()
