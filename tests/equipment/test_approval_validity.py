"""AUTH-06: an approval with an end date gates the sabots and shufflers of its model once expired."""

import datetime

import pytest
from django.utils import timezone

from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.custody.models import ItemStatus
from ledgers.equipment import services
from ledgers.equipment.models import ApprovedModel, MachineType

from .conftest import mounted_shuffler, receive_shoes, session, shoe_model, shuffler


def expire(model: ApprovedModel, actor) -> None:
    model.approved_until = timezone.localdate() - datetime.timedelta(days=1)
    save_audited(model, actor=actor, reason="test")


def test_auth_06_expired_sabot_model_allocation_refused(fro):
    model = shoe_model(fro)
    (shoe,) = receive_shoes(fro, ["1"], model=model)
    expire(model, fro.director)
    with pytest.raises(RuleViolation) as refused:
        services.shoe_allocate(session=session(fro, "PB1"), shoe=shoe, actor=fro.users[Role.DIRECTEUR_RESPONSABLE])
    assert refused.value.code == "AUTH-06"
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.IN_STOCK


def test_auth_06_expired_shuffler_model_commission_and_use_refused(fro):
    machine = shuffler(fro, commission=False)
    expire(machine.model, fro.director)
    with pytest.raises(RuleViolation) as refused:
        services.shuffler_commission(
            shuffler=machine, actor=fro.director, card_access_protection=True, malfunction_signal=True
        )
    assert refused.value.code == "AUTH-06"
    mounted = mounted_shuffler(fro, "PB1", number="M2", machine_type=MachineType.BATCH)
    expire(mounted.model, fro.director)
    with pytest.raises(RuleViolation) as refused:
        services.shuffler_use_start(
            session=session(fro, "PB1"),
            shuffler=mounted,
            actor=fro.users[Role.CROUPIER],
            display="6 jeux",
            decks_counted=6,
        )
    assert refused.value.code == "AUTH-06"


def test_auth_06_approval_valid_until_its_last_day(fro):
    model = services.approved_model_register(
        establishment=fro.est,
        kind=ApprovedModel.Kind.SHOE,
        manufacturer="Cartamundi",
        name="Sabot 2030",
        actor=fro.director,
        approval_reference="AM-2030",
        approval_issuer="Ministre de l'intérieur",
        approved_until=timezone.localdate(),
    )
    assert not model.approval_expired(timezone.localdate())
    assert model.approval_expired(timezone.localdate() + datetime.timedelta(days=1))
