"""Real servers the tests start on 127.0.0.1: OpenLDAP's slapd (directory sign-in) and an SMTP
server (aiosmtpd) that keeps the messages it receives."""

import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

SLAPD = Path("/usr/sbin/slapd")
SLAPADD = Path("/usr/sbin/slapadd")
SUFFIX = "dc=casino,dc=test"
ADMIN_DN = f"cn=admin,{SUFFIX}"
ADMIN_PASSWORD = "admin-secret"

SLAPD_CONF = """\
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile {dir}/slapd.pid
argsfile {dir}/slapd.args
database mdb
maxsize 10485760
directory {dir}/db
suffix "{suffix}"
rootdn "{admin}"
rootpw {password}
access to attrs=userPassword by anonymous auth by self read by * none
access to * by * read
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, *, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


@dataclass
class Slapd:
    """A slapd with an mdb database in ``directory``, loaded from an LDIF, listening on ``port``."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ldap://127.0.0.1:{self.port}"

    def start(self, ldif: str) -> None:
        (self.directory / "db").mkdir(parents=True)
        conf = self.directory / "slapd.conf"
        conf.write_text(SLAPD_CONF.format(dir=self.directory, suffix=SUFFIX, admin=ADMIN_DN, password=ADMIN_PASSWORD))
        (self.directory / "data.ldif").write_text(ldif)
        subprocess.run([SLAPADD, "-f", conf, "-l", self.directory / "data.ldif"], check=True, capture_output=True)
        # -d keeps slapd in the foreground, so that the fixture owns the process it stops.
        self.process = subprocess.Popen(
            [SLAPD, "-f", conf, "-h", self.url, "-d", "0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)


class SmtpServer:
    """aiosmtpd on 127.0.0.1: ``messages`` holds what it accepted; stop and start it again to
    play a mail server that is down for a while (same port)."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller
        from aiosmtpd.handlers import Message

        messages = self.messages = []

        class Keep(Message):
            def handle_message(self, message) -> None:
                messages.append(message)

        self.port, self.handler, self.controller_class = free_port(), Keep(), Controller
        self.controller = None

    def start(self) -> None:
        self.controller = self.controller_class(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
