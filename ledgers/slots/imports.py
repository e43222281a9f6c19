"""The relève file: CSV, one row per station and meter (docs/slots-import.md); the socles and the
inventory filled from a spreadsheet at the set-up (one row, one ``socle_create`` or
``machine_register``, each row held to the rules a typed one is)."""

import csv
import datetime
import io
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.imports import Cells, Column, RowSpec, declare
from ledgers.core.models import Room

from .models import Machine, Medium, Socle
from .rules import required_meters
from .services.machines import MachineInput, machine_register, socle_create
from .services.meters import MeterSpec
from .services.monitoring import EventRow
from .services.releves import ReadingErrors, ReadingRow

COLUMNS = ("machine", "station", "meter", "value")


def parse_csv(text: str) -> list[ReadingRow]:
    """Rows of a relève file (comma or semicolon separated, header line first). Every malformed
    row is reported with its line number; nothing is returned unless all are well formed."""
    sample = text[:2048]
    dialect = csv.Sniffer().sniff(sample, delimiters=",;") if sample.strip() else csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    if reader.fieldnames is None or [f.strip().lower() for f in reader.fieldnames][:4] != list(COLUMNS):
        raise ValidationError(_("En-tête attendu : %(h)s.") % {"h": ",".join(COLUMNS)})
    rows, errors = [], []
    for record in reader:
        line = reader.line_num
        try:
            rows.append(
                ReadingRow(
                    machine=record["machine"].strip(),
                    station=int(record["station"]),
                    meter=record["meter"].strip(),
                    value=int(record["value"]),
                    line=line,
                )
            )
        except (TypeError, ValueError, AttributeError):
            errors.append(str(_("ligne %(n)s : numéro de poste ou valeur illisible.") % {"n": line}))
    if errors:
        raise ReadingErrors(errors)
    return rows


EVENT_COLUMNS = ("machine", "event", "at")


def parse_events_csv(text: str, tz: datetime.tzinfo) -> list[EventRow]:
    """The monitoring system's export: machine, event (door_open, bill_box_open, socle_open,
    ram_reset), at ("AAAA-MM-JJ HH:MM[:SS]", the establishment's clock)."""
    reader = csv.DictReader(io.StringIO(text), dialect=csv.Sniffer().sniff(text[:2048], delimiters=",;"))
    if reader.fieldnames is None or [f.strip().lower() for f in reader.fieldnames][:3] != list(EVENT_COLUMNS):
        raise ValidationError(_("En-tête attendu : %(h)s.") % {"h": ",".join(EVENT_COLUMNS)})
    rows, errors = [], []
    for record in reader:
        try:
            at = datetime.datetime.fromisoformat(record["at"].strip()).replace(tzinfo=tz)
            rows.append(EventRow(record["machine"].strip(), record["event"].strip(), at, reader.line_num))
        except (TypeError, ValueError, AttributeError):
            errors.append(str(_("ligne %(n)s : date et heure illisibles.") % {"n": reader.line_num}))
    if errors:
        raise ReadingErrors(errors)
    return rows


def decode(upload) -> str:
    data = upload.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _write_socle(*, establishment, actor, row):
    cells = Cells(row)
    number = cells.text("numero", required=True)
    room = cells.lookup("salle", Room.objects.filter(establishment=establishment), required=True)
    position = cells.text("emplacement")
    cells.check()
    return socle_create(establishment=establishment, room=room, number=number, position=position, actor=actor)


SOCLES = declare(
    RowSpec(
        code="socles",
        label=_("Socles de machines à sous"),
        columns=(
            Column("numero", _("numéro du socle"), required=True),
            Column("salle", _("code de la salle"), required=True),
            Column("emplacement", _("emplacement dans la salle")),
        ),
        write=_write_socle,
        fields={"number": "numero", "room": "salle", "position": "emplacement"},
        order=50,
        count=lambda est: Socle.objects.filter(establishment=est).count(),
        add_url="slots:socle_create",
    )
)

MACHINE_COLUMNS = {
    "machine_type": "type",
    "technology": "technologie",
    "maker": "fabricant",
    "maker_serial": "numero_serie",
    "sbm_number": "numero_sbm",
    "casino_number": "numero_casino",
    "maker_number": "numero_fabricant",
    "location_number": "numero_emplacement",
    "media": "paiements",
    "stations": "postes",
    "rtp_percent": "taux_redistribution",
    "levy_percent": "taux_prelevement",
    "rate_date": "date_taux",
    "credit_value": "valeur_credit",
    "hopper": "tremie",
    "bill_box": "boite_billets",
    "drop_type": "evacuation",
    "approved_system": "systeme_agree",
    "game_name": "nom_jeu",
    "payment_programme": "programme_paiement",
    "insertion_limit": "limite_insertion",
    "payment_limit": "limite_paiement",
    "digits": "chiffres_compteurs",
    "characteristics": "caracteristiques",
}


def _write_machine(*, establishment, actor, row):
    cells, c = Cells(row), MACHINE_COLUMNS
    media = cells.choices(c["media"], Medium.choices)
    hopper = cells.boolean(c["hopper"])
    digits = cells.integer(c["digits"], default=8, minimum=1)
    data = MachineInput(
        machine_type=cells.text(c["machine_type"], required=True),
        technology=cells.choice(c["technology"], Machine.Technology.choices, required=True),
        maker=cells.text(c["maker"], required=True),
        maker_serial=cells.text(c["maker_serial"], required=True),
        sbm_number=cells.text(c["sbm_number"]),
        casino_number=cells.text(c["casino_number"]),
        maker_number=cells.text(c["maker_number"]),
        location_number=cells.text(c["location_number"]),
        media=media,
        stations=cells.integer(c["stations"], default=1, minimum=1),
        rtp_percent=cells.decimal(c["rtp_percent"]),
        levy_percent=cells.decimal(c["levy_percent"]),
        rate_date=cells.date(c["rate_date"], required=True),
        credit_value=cells.decimal(c["credit_value"]) or Decimal("0.01"),
        hopper=hopper,
        bill_box=cells.text(c["bill_box"]),
        drop_type=cells.choice(c["drop_type"], Machine.DropType.choices),
        approved_system=cells.text(c["approved_system"]),
        game_name=cells.text(c["game_name"]),
        payment_programme=cells.text(c["payment_programme"]),
        insertion_limit=cells.decimal(c["insertion_limit"]),
        payment_limit=cells.decimal(c["payment_limit"]),
        characteristics=cells.text(c["characteristics"]),
        meters=[
            MeterSpec(code, digits or 8, nature)
            for code, nature in required_meters(establishment.jurisdiction, media, hopper=hopper)
        ],
    )
    cells.check()
    return machine_register(establishment=establishment, data=data, actor=actor)


MACHINE_LABELS = {
    "type": _("type de machine"),
    "technologie": _("technologie (electronic, electromechanical ou libellé)"),
    "fabricant": _("fabricant"),
    "numero_serie": _("numéro de série du fabricant"),
    "numero_sbm": _("numéro SBM (Monaco)"),
    "numero_casino": _("numéro casino (France)"),
    "numero_fabricant": _("numéro fabricant (France)"),
    "numero_emplacement": _("numéro d'emplacement (France)"),
    "paiements": _("moyens de paiement acceptés, séparés par des virgules (coins, banknotes, chips, card, tito)"),
    "postes": _("postes de jeu (1 par défaut)"),
    "taux_redistribution": _("taux de redistribution certifié (%)"),
    "taux_prelevement": _("pourcentage de prélèvement (%)"),
    "date_taux": _("date de mise à jour du taux"),
    "valeur_credit": _("valeur du crédit (€, 0,01 par défaut)"),
    "tremie": _("trémie (oui ou non)"),
    "boite_billets": _("boîte à billets (n°)"),
    "evacuation": _("évacuation des pièces et jetons (cash_box ou conveyor)"),
    "systeme_agree": _("système informatique agréé (référence)"),
    "nom_jeu": _("nom du jeu"),
    "programme_paiement": _("programme de paiement"),
    "limite_insertion": _("limite d'insertion (€)"),
    "limite_paiement": _("limite de paiement automatique (€)"),
    "chiffres_compteurs": _("chiffres des compteurs (8 par défaut)"),
    "caracteristiques": _("fiche technique : caractéristiques"),
}
REQUIRED = ("type", "technologie", "fabricant", "numero_serie", "date_taux")

MACHINES = declare(
    RowSpec(
        code="machines",
        label=_("Machines à sous"),
        columns=tuple(Column(name, label, required=name in REQUIRED) for name, label in MACHINE_LABELS.items()),
        write=_write_machine,
        fields=MACHINE_COLUMNS,
        order=60,
        count=lambda est: Machine.objects.filter(establishment=est).count(),
        add_url="slots:machine_register",
    )
)
