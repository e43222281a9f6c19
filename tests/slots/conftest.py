"""A Monaco slot room and a French slot room: users per role, the slot registers and the register of
keys coted and paraphed, and helpers that register a machine with the keys of its locks (KEY-09,
KEY-12) and put it on the floor with its meters read once."""

import datetime
import io
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from ledgers.core.models import Establishment, Location, Room
from ledgers.keys.services import key_register
from ledgers.registers.models import Register
from ledgers.slots import services
from ledgers.slots.locks import required_locks
from ledgers.slots.models import Machine, MeterReading, Socle
from ledgers.slots.rules import required_meters
from ledgers.slots.services.staffing import staffing_record
from tests.factories import LocationFactory, RoomFactory, make_user, open_register, post_displays

MC_ROLES = (
    "directeur_exploitation",
    "superviseur",
    "mecanicien",
    "agent_surveillance",
    "employe_jeux",
    "secretariat_general",
    "directeur_jeux",
    "caissier",
)
FR_ROLES = (
    "directeur_responsable",
    "comite",
    "superviseur",
    "mecanicien",
    "technicien_sfm",
    "employe_jeux",
    "agent_surveillance",
    "caissier",
    "police",
)
MC_KINDS = ("slot_fichiers", "slot_interventions", "slot_releves", "incidents", "slot_jackpots", "slot_complements")
FR_KINDS = ("slot_controle_technique", "slot_releves", "incidents", "slot_jackpots", "informations_autorites")


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (2, 2), "red").save(buffer, "PNG")
    return buffer.getvalue()


# A tiny PNG: the inventory photo (SLOT-04).
PNG = _png()


def photo() -> SimpleUploadedFile:
    return SimpleUploadedFile("machine.png", PNG, content_type="image/png")


@dataclass
class SlotRoom:
    est: Establishment
    room: Room
    users: dict
    registers: dict = field(default_factory=dict)
    _seq: list = field(default_factory=lambda: [0])

    def __getitem__(self, role):
        return self.users[role]

    @property
    def keeper(self):
        return self["directeur_exploitation"] if self.est.jurisdiction == "MC" else self["directeur_responsable"]

    def next(self) -> int:
        self._seq[0] += 1
        return self._seq[0]

    def machine_input(self, *, media=("coins", "banknotes"), stations=1, digits=8, **extra) -> services.MachineInput:
        n = self.next()
        jur = self.est.jurisdiction
        specs = [
            services.MeterSpec(code, digits, nature)
            for code, nature in required_meters(jur, list(media), hopper=extra.get("hopper", False))
        ]
        ids = (
            {"sbm_number": f"SBM{n:04d}"}
            if jur == "MC"
            else {"casino_number": f"C{n:04d}", "maker_number": f"MK{n:04d}", "location_number": f"L{n:04d}"}
        )
        values = {
            "machine_type": "Vidéo rouleaux",
            "technology": "electronic",
            "maker": "Aristocrat",
            "maker_serial": f"SER{self.est.code}{n:05d}",
            "media": list(media),
            "stations": stations,
            "rate_date": datetime.date(2026, 1, 15),
            "rtp_percent": Decimal("92.50"),
            "bill_box": "BB-1",
            "credit_value": Decimal("0.10"),
            "characteristics": "5 rouleaux, 20 lignes",
            "meters": specs,
            **ids,
            **extra,
        }
        if jur == "FR" and {"tito", "card"} & set(media):
            values.setdefault("approved_system", "SYS-AGREE-1")
        return services.MachineInput(**values)

    def register_machine(self, **kwargs) -> Machine:
        machine = services.machine_register(
            establishment=self.est,
            data=self.machine_input(**kwargs),
            actor=self.keeper,
            photo=photo() if self.est.jurisdiction == "MC" else None,
        )
        self.lock_keys(machine)
        post_displays(machine)  # FR: the art. 68-11 devices and displays (SLOT-29, REG-23)
        return machine

    def lock_keys(self, machine: Machine) -> None:
        """The keys of the machine's locks in the register of keys, kept as the texts say: MC bill
        box at comptabilité générale (KEY-03); FR upper and lower parts by the directeur responsable
        (KEY-13), bill and ticket boxes by the cashier (KEY-14)."""
        for lock_type, _code in required_locks(machine):
            custody = (
                {"home": Location.objects.get(establishment=self.est, kind="comptabilite")}
                if self.est.jurisdiction == "MC"
                else {"custodian": self["caissier" if lock_type == "bill_content" else "directeur_responsable"]}
            )
            key_register(
                establishment=self.est,
                actor=self.keeper,
                code=f"{lock_type}-{machine.number}",
                lock_type=lock_type,
                opens=f"{lock_type} {machine.number}",
                asset_ref=machine.number,
                **custody,
            )

    def socle(self, number: str | None = None) -> Socle:
        return services.socle_create(
            establishment=self.est, room=self.room, number=number or f"S{self.next()}", actor=self.keeper
        )

    def on_floor(self, **kwargs) -> Machine:
        machine = self.register_machine(**kwargs)
        services.machine_move(
            machine=machine, to_place="floor", to_socle=self.socle(), actor=self.keeper, reason="commissioning"
        )
        machine.refresh_from_db()
        return machine

    def staff(self, date: datetime.date | None = None, **people):
        """FR: the day's slot-room staffing (SLOT-50), before a séance opens with machines in service:
        the comité member, the cashier and the mechanic unless ``people`` says otherwise."""
        people = {"comite": self["comite"], "cashier": self["caissier"], "maintainer": self["mecanicien"], **people}
        if not Register.objects.filter(establishment=self.est, kind="slot_caisse").exists():
            open_register(self.est, "slot_caisse")
        return staffing_record(establishment=self.est, date=date or timezone.localdate(), actor=self.keeper, **people)

    def releve(self, *, during_operation=False):
        return services.releve_open(
            establishment=self.est,
            room=self.room,
            actor=self["superviseur"],
            during_operation=during_operation,
            sworn_agent=self["agent_surveillance"] if during_operation else None,
        )

    def rows(self, machine: Machine, value=100, **overrides) -> list[services.ReadingRow]:
        return [
            services.ReadingRow(machine.number, m.station, m.key, overrides.get(m.key, value))
            for m in machine.meters.all()
        ]

    def read(self, machine: Machine, value=100, releve=None, **overrides):
        """The readings of ``machine`` at ``releve`` (a new one by default), every meter at ``value``."""
        releve = releve or self.releve()
        services.releve_readings_import(
            releve=releve, rows=self.rows(machine, value, **overrides), actor=self["superviseur"]
        )
        return list(MeterReading.objects.filter(releve=releve, meter__machine=machine).select_related("meter"))


def _room(est, roles, kinds) -> SlotRoom:
    org = SlotRoom(
        est=est,
        room=RoomFactory(establishment=est, code="slots", name="Salle des machines"),
        users={role: make_user(est, role, username=f"{role}-{est.code}") for role in roles},
    )
    for kind in (*kinds, "registre_cles"):
        org.registers[kind] = open_register(est, kind)
    for kind in ("caisse_centrale", "comptabilite", "coffre"):
        LocationFactory(establishment=est, code=kind.replace("_", "-"), name=kind, kind=kind)
    return org


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def mc_room(mc):
    return _room(mc, MC_ROLES, MC_KINDS)


@pytest.fixture
def fr_room(fr):
    org = _room(fr, FR_ROLES, FR_KINDS)
    for role in ("mecanicien", "employe_jeux", "technicien_sfm", "comite", "caissier"):
        services.staff_approval_record(
            establishment=fr,
            user=org[role],
            kind="sfm" if role == "technicien_sfm" else "slot_staff",
            reference=f"AGR-{role}",
            issuer="Ministère de l'intérieur",
            valid_from=timezone.localdate() - datetime.timedelta(days=30),
            actor=org.keeper,
        )
    return org
