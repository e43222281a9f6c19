"""French key custody, arrêté du 14 mai 2007 art. 39, 58, 68-14 (KEY-11 to KEY-17)."""

from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError

from ledgers.core.errors import RuleViolation
from ledgers.keys import purposes, selectors
from ledgers.keys.models import Key
from ledgers.keys.services import key_issue, key_return

from .conftest import due


def test_key_11_card_cabinet_single_key_one_copy(fr_org):
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("ARM-1", "card_cabinet", asset_ref="armoire", copies=2, custodian=fr_org["directeur_responsable"])
    assert exc.value.code == "KEY-11"
    fr_org.key("ARM-1", "card_cabinet", asset_ref="armoire", custodian=fr_org["directeur_responsable"])
    with pytest.raises(RuleViolation) as exc:  # a second key for the same cabinet
        fr_org.key("ARM-2", "card_cabinet", asset_ref="armoire", custodian=fr_org["comite"])
    assert exc.value.code == "KEY-11"


def test_key_11_card_cabinet_key_holder_directeur_or_comite(fr_org):
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("ARM-1", "card_cabinet", asset_ref="armoire", custodian=fr_org["caissier"])
    assert exc.value.code == "KEY-11"
    with pytest.raises(RuleViolation):  # a named holder is required
        fr_org.key("ARM-1", "card_cabinet", asset_ref="armoire")
    key = fr_org.key("ARM-1", "card_cabinet", asset_ref="armoire", custodian=fr_org["directeur_responsable"])
    seance = fr_org.operation()
    with pytest.raises(RuleViolation) as exc:  # an issue of cards needs the cabinet opened by its key holder
        key_issue(
            key=key,
            actor=fr_org["directeur_responsable"],
            holder=fr_org["croupier"],
            purpose_type="core.seance",
            purpose_id=seance.pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-11"
    assert selectors.holder_now(key) == fr_org["directeur_responsable"]
    issue = key_issue(
        key=key,
        actor=fr_org["directeur_responsable"],
        holder=fr_org["comite"],
        purpose_type="core.seance",
        purpose_id=seance.pk,
        due_at=due(),
    )
    assert issue.holder_role == "comite" and selectors.holder_now(key) == fr_org["comite"]


def test_key_12_one_key_id_for_two_lock_types_refused_bp_switchable(fr_org):
    fr_org.key("K-1", "upper", custodian=fr_org["comite"])
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("K-1", "lower", custodian=fr_org["comite"])
    assert exc.value.code == "KEY-12"
    fr_org.est.options = {"KEY-BP": {"KEY-12": False, "AMB-51": True}}
    fr_org.est.save()
    assert fr_org.key("K-1", "lower", custodian=fr_org["comite"]).lock_type == "lower"


def test_key_13_upper_and_lower_keys_held_by_comite_or_directeur(fr_org):
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("L-1", "lower", custodian=fr_org["mecanicien"])
    assert exc.value.code == "KEY-13"
    key = fr_org.key("L-1", "lower", custodian=fr_org["comite"])
    with pytest.raises(RuleViolation) as exc:
        key_issue(
            key=key,
            actor=fr_org["comite"],
            holder=fr_org["mecanicien"],
            purpose_type="test.count",
            purpose_id=fr_org.operation().pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-13"


def test_key_14_bill_and_ticket_box_key_held_by_the_cashier(fr_org):
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("BB-1", "bill_content", custodian=fr_org["comite"])
    assert exc.value.code == "KEY-14"
    key = fr_org.key("BB-1", "bill_content", custodian=fr_org["caissier"])
    assert key.custodian_role == "caissier"


def test_key_15_reset_keys_held_by_comite_members_only(fr_org):
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("R-1", "reset", custodian=fr_org["directeur_responsable"])
    assert exc.value.code == "KEY-15"
    key = fr_org.key("R-1", "reset", custodian=fr_org["comite"])
    with pytest.raises(RuleViolation) as exc:
        key_issue(
            key=key,
            actor=fr_org["comite"],
            holder=fr_org["mecanicien"],
            purpose_type="test.intervention",
            purpose_id=fr_org.operation().pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-15"


def test_key_16_logic_board_keys_only_sfm_or_police(fr_org):
    with pytest.raises(RuleViolation) as exc:
        fr_org.key("LB-1", "logic_board", custodian=fr_org["comite"], holder_organisation="Casino")
    assert exc.value.code == "KEY-16"
    with pytest.raises(RuleViolation):  # the holding organisation is named
        fr_org.key("LB-1", "logic_board", custodian=fr_org["technicien_sfm"])
    key = fr_org.key(
        "LB-1", "logic_board", custodian=fr_org["technicien_sfm"], holder_organisation="SFM Jeux — agrément 2024-17"
    )
    assert key.holder_organisation.startswith("SFM")


def _upper(fr_org):
    return fr_org.key("U-1", "upper", custodian=fr_org["directeur_responsable"], asset_ref="MAS-007")


@contextmanager
def _fleet(machines: int):
    """The establishment runs ``machines`` slot machines while the block runs."""
    counter = purposes.fleet_size_counter(lambda est: machines)
    try:
        yield
    finally:
        purposes._fleet_counters.remove(counter)


@pytest.fixture
def large_casino():
    with _fleet(120):
        yield


def test_key_17_upper_part_opening_needs_the_mechanic_present(fr_org, large_casino):
    key = _upper(fr_org)
    intervention = fr_org.operation()
    kwargs = dict(
        key=key,
        actor=fr_org["directeur_responsable"],
        holder=fr_org["directeur_responsable"],
        purpose_type="test.intervention",
        purpose_id=intervention.pk,
        due_at=due(),
    )
    with pytest.raises(RuleViolation) as exc:
        key_issue(**kwargs)
    assert exc.value.code == "KEY-17"
    with pytest.raises(RuleViolation) as exc:  # the employee alternative only in casinos of at most 75 machines
        key_issue(witness=fr_org["employe_jeux"], **kwargs)
    assert exc.value.code == "KEY-17"
    issue = key_issue(witness=fr_org["mecanicien"], **kwargs)
    assert issue.signatures.get(act="witness").user == fr_org["mecanicien"]


def test_key_17_employee_in_charge_in_a_small_casino(fr_org):
    key = _upper(fr_org)
    with _fleet(40):
        issue = key_issue(
            key=key,
            actor=fr_org["comite"],
            holder=fr_org["comite"],
            witness=fr_org["employe_jeux"],
            purpose_type="test.intervention",
            purpose_id=fr_org.operation().pk,
            due_at=due(),
        )
    assert issue.holder_role == "comite"


def test_key_17_amb_51_looser_reading_switchable(fr_org, large_casino):
    key = _upper(fr_org)
    fr_org.est.options = {"KEY-BP": {"KEY-12": True, "AMB-51": False}}
    fr_org.est.save()
    assert key_issue(
        key=key,
        actor=fr_org["comite"],
        holder=fr_org["comite"],
        purpose_type="test.intervention",
        purpose_id=fr_org.operation().pk,
        due_at=due(),
    )


def test_key_13_return_to_the_first_releaser(fr_org):
    key = _upper(fr_org)
    issue = key_issue(
        key=key,
        actor=fr_org["directeur_responsable"],
        holder=fr_org["comite"],
        witness=fr_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=fr_org.operation().pk,
        due_at=due(),
    )
    with pytest.raises(ValidationError):
        key_return(issue=issue, actor=fr_org["comite"], returned_by=fr_org["comite"])
    key_return(issue=issue, actor=fr_org["directeur_responsable"], returned_by=fr_org["comite"])
    assert not Key.objects.get(pk=key.pk).issues.filter(returned_at__isnull=True).exists()
