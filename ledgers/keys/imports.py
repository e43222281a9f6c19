"""The register of keys filled from a spreadsheet: one row, one key entered through
``key_register`` (the rules of its lock type's custody apply to each row)."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ledgers.core.imports import Cells, Column, RowSpec, declare
from ledgers.core.models import Location

from .models import Key
from .policy import LockType
from .services import key_register


def _write(*, establishment, actor, row):
    cells = Cells(row)
    data = {
        "code": cells.text("code", required=True),
        "lock_type": cells.choice("type_serrure", LockType.choices, required=True),
        "opens": cells.text("ouvre", required=True),
        "asset_ref": cells.text("materiel"),
        "copies": cells.integer("exemplaires", default=1, minimum=1),
        "home": cells.lookup("lieu_de_garde", Location.objects.filter(establishment=establishment, active=True)),
        "custodian": cells.lookup(
            "gardien",
            get_user_model().objects.filter(memberships__establishment=establishment, is_active=True).distinct(),
            by="username",
        ),
        "holder_organisation": cells.text("organisme"),
    }
    cells.check()
    return key_register(establishment=establishment, actor=actor, **data)


KEYS = declare(
    RowSpec(
        code="cles",
        label=_("Clés"),
        columns=(
            Column("code", _("identifiant de la clé"), required=True),
            Column("type_serrure", _("type de serrure (code ou libellé)"), required=True),
            Column("ouvre", _("ce qu'elle ouvre"), required=True),
            Column("materiel", _("matériel servi (références séparées par des virgules)")),
            Column("exemplaires", _("nombre d'exemplaires (1 par défaut)")),
            Column("lieu_de_garde", _("code de l'emplacement où elle est gardée")),
            Column("gardien", _("identifiant de connexion du gardien")),
            Column("organisme", _("organisme détenteur (carte logique)")),
        ),
        write=_write,
        fields={
            "code": "code",
            "lock_type": "type_serrure",
            "opens": "ouvre",
            "asset_ref": "materiel",
            "copies": "exemplaires",
            "home": "lieu_de_garde",
            "custodian": "gardien",
            "holder_organisation": "organisme",
        },
        order=40,
        count=lambda est: Key.objects.filter(establishment=est).count(),
        add_url="keys:create",
    )
)
