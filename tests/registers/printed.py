"""A register with every kind of entry, and the text of its printed pages (pypdf)."""

import io

from pypdf import PdfReader

from ledgers.registers import services
from ledgers.registers.models import Entry, Register
from tests.factories import make_user, open_register

ACCENTS = "Œuvre « exceptionnelle » — ÉÈÀÙÇ àâäéèêëîïôöùûüÿç œ Œ ½ ; 15 000 €"
LONG = (
    "Observation : le croupier signale une carte abîmée (as de cœur) ; échange effectué depuis le sixain désigné, "
    "procès-verbal n° 2025-114 établi en présence de l'inspecteur de service et du chef de partie."
)


def filled_register(
    establishment, *, records: int = 40, visa_after: int = 10, correct: int | None = 5, close: bool = False
) -> Register:
    """A main courante: opening act (seq 1), ``records`` records, a visa after record
    ``visa_after`` (if any), a correction of entry ``correct`` (if any), a closing act if asked."""
    register = open_register(establishment, "main_courante")
    inspector = make_user(establishment, "inspecteur")
    for i in range(1, records + 1):
        services.entry_append(
            register=register,
            actor=inspector,
            role="inspecteur",
            payload={
                "event_at": f"2025-03-14T21:{i % 60:02d}:00",
                "subject": f"Fait n° {i}",
                "text": f"{LONG} {ACCENTS}" if i % 3 == 0 else f"Ouverture de la table n° {i}.",
            },
        )
        if i == visa_after:
            register.refresh_from_db()
            visa_role = register.kind_info.visa_roles_for(establishment.jurisdiction)[0]
            services.visa_sign(
                register=register,
                actor=make_user(establishment, visa_role),
                up_to_seq=register.head_seq,
                statement="Vu et vérifié sans observation.",
            )
    if correct is not None:
        approver = make_user(establishment, establishment.setting("SET-47")[0])
        services.entry_correct(
            entry=Entry.objects.get(register=register, seq=correct),
            actor=approver,
            reason="erreur de table",
            approval="approuvé : lire table numéro quatre",
            payload={"event_at": "2025-03-14T21:03:00", "subject": "Fait corrigé", "text": "Table n° 4."},
        )
    if close:
        register.refresh_from_db()
        services.register_close(register=register, actor=make_user(establishment, "directeur_jeux"))
    register.refresh_from_db()
    return register


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
