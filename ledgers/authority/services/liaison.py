"""REG-45: the registre de liaison."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next

from ..models import (
    LiaisonQuestion,
)
from ..registers import (
    LIAISON,
)
from .common import _require_fr, _required


def _write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the liaison register with the police is written here."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


@transaction.atomic
def liaison_ask(
    *, establishment: Establishment, actor: AbstractBaseUser, subject: str, question: str
) -> LiaisonQuestion:
    """The directeur responsable asks the territorial DCPJ service (art. 92-1)."""
    _require_fr(establishment, LIAISON.title)
    role = role_named_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "REG-45",
        _("Seul le directeur responsable inscrit des questions au registre de liaison."),
    )
    fields = _required(subject=subject, question=question)
    register = current_register(establishment, LIAISON.code)
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    number = LiaisonQuestion.objects.filter(establishment=establishment).count() + 1
    asked = LiaisonQuestion(
        establishment=establishment,
        register=register,
        number=number,
        subject=fields["subject"],
        question=fields["question"],
        asked_by=actor,
        asked_at=timezone.now(),
        question_seq=entry_seq_next(register),
    )
    save_audited(asked, actor=actor, reason="question")
    _write(
        register,
        actor=actor,
        role=role,
        payload={
            "question": number,
            "event": "question",
            "subject": fields["subject"],
            "text": fields["question"],
            "signed_by": display_name(actor),
        },
    )
    return asked


@transaction.atomic
def liaison_answer(*, question: LiaisonQuestion, actor: AbstractBaseUser, answer: str) -> LiaisonQuestion:
    """The service's answer, written in the same register."""
    question = LiaisonQuestion.objects.select_for_update().select_related("establishment").get(pk=question.pk)
    est = question.establishment
    role = role_named_by_text(
        actor,
        est,
        (Role.CHEF_POLICE, Role.POLICE),
        "REG-45",
        _("La réponse au registre de liaison est inscrite par le service de police judiciaire."),
    )
    if question.answer_seq:
        raise RuleViolation(
            "REG-45",
            _("La question n° %(n)s a déjà sa réponse signée : elle ne se modifie plus.") % {"n": question.number},
        )
    fields = _required(answer=answer)
    question.answer, question.answered_by, question.answered_at = fields["answer"], actor, timezone.now()
    question.answer_seq = entry_seq_next(question.register)
    save_audited(question, actor=actor, reason="réponse")
    _write(
        question.register,
        actor=actor,
        role=role,
        payload={
            "question": question.number,
            "event": "réponse",
            "refers_to_seq": question.question_seq,
            "subject": question.subject,
            "text": fields["answer"],
            "signed_by": display_name(actor),
        },
    )
    return question
