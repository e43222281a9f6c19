"""Monaco key custody, AM 88-384 art. 3.1, 20.1, 20.2, 23-1 (KEY-01 to KEY-05, KEY-07, KEY-08, KEY-10)."""

import pytest
from django.core.exceptions import ValidationError

from ledgers.core.errors import RuleViolation
from ledgers.core.services import table_session_prepare
from ledgers.keys import selectors
from ledgers.keys.models import Key, KeyIssue
from ledgers.keys.services import key_inventory_record, key_issue, key_return, socle_key_surrender
from ledgers.registers.models import Register
from tests.factories import GamingTableFactory

from .conftest import due


def entries(org):
    register = Register.objects.get(establishment=org.est, kind="registre_cles")
    return list(register.entries.filter(kind="record").order_by("seq").values_list("payload", flat=True))


def test_key_01_one_key_id_for_two_lock_types_refused(mc_org):
    mc_org.key("K-100", "machine_door", home=mc_org.homes["coffre"])
    with pytest.raises(RuleViolation) as exc:
        mc_org.key("K-100", "socle", home=mc_org.homes["caisse_centrale"])
    assert exc.value.code == "KEY-01"
    assert Key.objects.filter(code="K-100").count() == 1


def test_key_01_register_entry_written(mc_org):
    key = mc_org.key("K-1", "machine_door", home=mc_org.homes["coffre"], copies=2, asset_ref="M-042")
    payload = entries(mc_org)[-1]
    assert payload["event"] == "Inscription de la clé"
    assert "K-1" in payload["key"] and "M-042" in payload["key"]
    assert key.history.count() == 1


def test_key_02_socle_key_home_is_caisse_centrale(mc_org):
    with pytest.raises(RuleViolation) as exc:
        mc_org.key("S-1", "socle", home=mc_org.homes["coffre"])
    assert exc.value.code == "KEY-02"


def test_key_02_socle_key_out_only_for_an_open_releve(mc_org):
    key = mc_org.key("S-1", "socle", home=mc_org.homes["caisse_centrale"])
    seance = mc_org.operation()
    with pytest.raises(RuleViolation) as exc:  # an intervention is not a relève
        key_issue(
            key=key,
            actor=mc_org["caissier_principal"],
            holder=mc_org["superviseur"],
            purpose_type="test.intervention",
            purpose_id=seance.pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-02"
    releve = mc_org.operation()
    mc_org.close(releve)
    with pytest.raises(RuleViolation) as exc:  # a closed relève
        key_issue(
            key=key,
            actor=mc_org["caissier_principal"],
            holder=mc_org["superviseur"],
            purpose_type="test.releve",
            purpose_id=releve.pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-02"
    assert not KeyIssue.objects.exists()


def test_key_02_key_still_out_when_releve_closes_is_flagged(mc_org):
    key = mc_org.key("S-1", "bill_release", home=mc_org.homes["caisse_centrale"])
    releve = mc_org.operation()
    issue = key_issue(
        key=key,
        actor=mc_org["caissier"],
        holder=mc_org["superviseur"],
        purpose_type="test.releve",
        purpose_id=releve.pk,
        due_at=due(),
    )
    assert selectors.exceptions(mc_org.est) == []
    mc_org.close(releve)
    [flag] = selectors.exceptions(mc_org.est)
    assert flag.issue == issue and flag.code == "KEY-02" and flag.late_by is None


def test_key_03_bill_box_keys_held_by_comptabilite(mc_org):
    with pytest.raises(RuleViolation) as exc:
        mc_org.key("B-1", "bill_content", home=mc_org.homes["caisse_centrale"])
    assert exc.value.code == "KEY-03"
    assert mc_org.key("B-1", "bill_content", home=mc_org.homes["comptabilite"])


def test_key_03_bill_box_key_refused_to_slot_floor_roles_bp_switchable(mc_org):
    key = mc_org.key("B-1", "bill_content", home=mc_org.homes["comptabilite"])
    count = mc_org.operation()
    second = mc_org.user("comptabilite")
    kwargs = dict(
        key=key,
        actor=mc_org["comptabilite"],
        co_releasers=[second],
        purpose_type="test.count",
        purpose_id=count.pk,
        due_at=due(),
    )
    with pytest.raises(RuleViolation) as exc:
        key_issue(holder=mc_org["mecanicien"], **kwargs)
    assert exc.value.code == "KEY-03"
    mc_org.est.options = {"KEY-BP": {"KEY-03": False, "dual_control": {"bill_content": (2, "same")}}}
    mc_org.est.save()
    assert key_issue(holder=mc_org["mecanicien"], **kwargs).holder == mc_org["mecanicien"]


def test_key_04_machine_keys_kept_in_the_coffre_d_exploitation(mc_org):
    with pytest.raises(RuleViolation) as exc:
        mc_org.key("M-1", "machine_door", home=mc_org.homes["comptabilite"])
    assert exc.value.code == "KEY-04"
    with pytest.raises(RuleViolation):
        mc_org.key("M-1", "machine_door")


def test_key_05_machine_key_handed_only_by_a_superviseur(mc_org):
    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    intervention = mc_org.operation()
    with pytest.raises(RuleViolation) as exc:
        key_issue(
            key=key,
            actor=mc_org["caissier_principal"],
            holder=mc_org["mecanicien"],
            purpose_type="test.intervention",
            purpose_id=intervention.pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-05"
    issue = key_issue(
        key=key,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=intervention.pk,
        due_at=due(),
    )
    assert issue.issued_by_role == "superviseur" and issue.holder_role == "mecanicien"


def test_key_05_machine_key_out_after_intervention_closed_is_flagged(mc_org):
    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    intervention = mc_org.operation()
    key_issue(
        key=key,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=intervention.pk,
        due_at=due(),
    )
    mc_org.close(intervention)
    [flag] = selectors.exceptions(mc_org.est)
    assert flag.code == "KEY-05"


def test_key_05_holder_role_refused(mc_org):
    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    with pytest.raises(RuleViolation) as exc:
        key_issue(
            key=key,
            actor=mc_org["superviseur"],
            holder=mc_org["caissier"],
            purpose_type="test.intervention",
            purpose_id=mc_org.operation().pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-04"


def test_key_07_socle_out_of_operation_key_to_the_caissier_principal(mc_org):
    key = mc_org.key("S-9", "socle", home=mc_org.homes["caisse_centrale"], asset_ref="SOC-9")
    with pytest.raises(RuleViolation) as exc:
        socle_key_surrender(
            key=key,
            actor=mc_org["superviseur"],
            receiver=mc_org["caissier"],
            socle_ref="SOC-9",
            lock_ref="L-9",
            reason="serrure grippée",
        )
    assert exc.value.code == "KEY-07"
    surrender = socle_key_surrender(
        key=key,
        actor=mc_org["superviseur"],
        receiver=mc_org["caissier_principal"],
        socle_ref="SOC-9",
        lock_ref="L-9",
        reason="serrure grippée",
    )
    key.refresh_from_db()
    assert key.status == Key.Status.SURRENDERED and key.custodian == mc_org["caissier_principal"]
    assert surrender.received_by == mc_org["caissier_principal"]
    assert "Socle sorti" in entries(mc_org)[-1]["event"]
    assert selectors.socle_surrendered(mc_org.est, "SOC-9") and not selectors.socle_surrendered(mc_org.est, "SOC-1")
    with pytest.raises(ValidationError):  # no longer in service: it does not go out
        key_issue(
            key=key,
            actor=mc_org["caissier_principal"],
            holder=mc_org["superviseur"],
            purpose_type="test.releve",
            purpose_id=mc_org.operation().pk,
            due_at=due(),
        )


def test_key_08_lid_key_holder_per_set_31(mc_org, mc):
    key = mc_org.key("LID-1", "cylinder_lid", asset_ref="RO1")
    table = GamingTableFactory(establishment=mc, number="RO1", game="roulette")
    session = table_session_prepare(seance=mc_org.operation(), table=table, actor=mc_org.director)
    with pytest.raises(RuleViolation) as exc:
        key_issue(
            key=key,
            actor=mc_org["directeur_jeux"],
            holder=mc_org["cartier"],
            purpose_type="core.table_partie",
            purpose_id=session.pk,
            due_at=due(),
        )
    assert exc.value.code == "KEY-08"
    issue = key_issue(
        key=key,
        actor=mc_org["directeur_jeux"],
        holder=mc_org["inspecteur"],
        purpose_type="core.table_partie",
        purpose_id=session.pk,
        due_at=due(),
    )
    assert issue.purpose_label == str(session)


def test_key_10_mc_card_depot_key_holders_are_best_practice(mc_org):
    key = mc_org.key("DEP-1", "card_cabinet", copies=2)
    seance = mc_org.operation()
    issue = key_issue(
        key=key,
        actor=mc_org["cartier"],
        holder=mc_org["sous_directeur"],
        purpose_type="core.seance",
        purpose_id=seance.pk,
        due_at=due(),
    )
    assert issue.holder_role == "sous_directeur"
    with pytest.raises(ValidationError):  # BP only: a bad request, no catalogue refusal
        key_issue(
            key=key,
            actor=mc_org["cartier"],
            holder=mc_org["mecanicien"],
            purpose_type="core.seance",
            purpose_id=seance.pk,
            due_at=due(),
        )


def test_key_hand_over_never_linked_to_nothing(mc_org):
    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    for purpose_type, purpose_id in (("unknown", 1), ("test.intervention", 999999)):
        with pytest.raises(ValidationError):
            key_issue(
                key=key,
                actor=mc_org["superviseur"],
                holder=mc_org["mecanicien"],
                purpose_type=purpose_type,
                purpose_id=purpose_id,
                due_at=due(),
            )


def test_dual_control_release_by_two_and_return_to_the_same_two(mc_org):
    key = mc_org.key("B-1", "bill_content", home=mc_org.homes["comptabilite"])
    second = mc_org.user("comptabilite")
    count = mc_org.operation()
    with pytest.raises(ValidationError):  # one person is not enough
        key_issue(
            key=key,
            actor=mc_org["comptabilite"],
            holder=mc_org["caissier"],
            purpose_type="test.count",
            purpose_id=count.pk,
            due_at=due(),
        )
    issue = key_issue(
        key=key,
        actor=mc_org["comptabilite"],
        co_releasers=[second],
        holder=mc_org["caissier"],
        purpose_type="test.count",
        purpose_id=count.pk,
        due_at=due(),
    )
    assert issue.signatures.filter(act="release").count() == 2
    with pytest.raises(ValidationError):  # the first alone does not take it back under "same"
        key_return(issue=issue, actor=mc_org["comptabilite"], returned_by=mc_org["caissier"])
    key_return(issue=issue, actor=second, co_receivers=[mc_org["comptabilite"]], returned_by=mc_org["caissier"])
    issue.refresh_from_db()
    assert issue.returned_at is not None and issue.signatures.filter(act="receive").count() == 2


def test_dual_control_return_to_the_first_person(mc_org):
    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    other = mc_org.user("superviseur")
    issue = key_issue(
        key=key,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=mc_org.operation().pk,
        due_at=due(),
    )
    with pytest.raises(ValidationError):
        key_return(issue=issue, actor=other, returned_by=mc_org["mecanicien"])
    with pytest.raises(ValidationError):  # returned by its holder
        key_return(issue=issue, actor=mc_org["superviseur"], returned_by=other)
    key_return(issue=issue, actor=mc_org["superviseur"], returned_by=mc_org["mecanicien"])
    assert entries(mc_org)[-1]["event"] == "Restitution de la clé"


def test_every_copy_out_refused(mc_org):
    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    kwargs = dict(
        key=key,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=mc_org.operation().pk,
        due_at=due(),
    )
    key_issue(**kwargs)
    with pytest.raises(RuleViolation) as refused:  # the recorded state refuses it like a rule
        key_issue(**kwargs)
    assert refused.value.code == "REG-20"


def test_overdue_key_with_its_lateness(mc_org):
    import datetime

    from django.utils import timezone

    key = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    issue = key_issue(
        key=key,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=mc_org.operation().pk,
        due_at=due(1),
    )
    later = timezone.now() + datetime.timedelta(hours=3, minutes=30)
    [flag] = selectors.exceptions(mc_org.est, now=later)
    assert flag.issue == issue and flag.late_label == "2 h 30"


def test_sanity_several_sensitive_keys_and_no_holder_left(mc_org):
    a = mc_org.key("S-1", "socle", home=mc_org.homes["caisse_centrale"])
    b = mc_org.key("S-2", "bill_release", home=mc_org.homes["caisse_centrale"])
    releve = mc_org.operation()
    for key in (a, b):
        key_issue(
            key=key,
            actor=mc_org["caissier"],
            holder=mc_org["superviseur"],
            purpose_type="test.releve",
            purpose_id=releve.pk,
            due_at=due(),
        )
    report = selectors.sanity(mc_org.est)
    assert [(user, len(issues)) for user, issues in report.several_sensitive] == [(mc_org["superviseur"], 2)]
    assert report.no_holder_left == [] and report.inventory_due
    lid = mc_org.key("LID-1", "cylinder_lid")
    mc_org["inspecteur"].memberships.all().delete()
    assert selectors.sanity(mc_org.est).no_holder_left == [lid]


def test_blind_inventory_with_differences(mc_org):
    m = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"], copies=2)
    s = mc_org.key("S-1", "socle", home=mc_org.homes["caisse_centrale"])
    key_issue(
        key=m,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=mc_org.operation().pk,
        due_at=due(),
    )
    with pytest.raises(ValidationError):  # every key is counted
        key_inventory_record(establishment=mc_org.est, actor=mc_org["directeur_jeux"], counted={m.pk: 1})
    inventory = key_inventory_record(
        establishment=mc_org.est, actor=mc_org["directeur_jeux"], counted={m.pk: 1, s.pk: 0}
    )
    assert inventory.differences == 1
    assert [line["code"] for line in inventory.difference_lines()] == ["S-1"]
    report = selectors.sanity(mc_org.est)
    assert report.last_inventory == inventory and not report.inventory_due


def test_key_08_partie_ends_only_once_the_lid_key_is_back(mc_org, mc):
    from ledgers.core.services import table_session_close

    key = mc_org.key("LID-2", "cylinder_lid", asset_ref="RO2")
    table = GamingTableFactory(establishment=mc, number="RO2", game="roulette")
    session = table_session_prepare(seance=mc_org.operation(), table=table, actor=mc_org.director)
    issue = key_issue(
        key=key,
        actor=mc_org["directeur_jeux"],
        holder=mc_org["inspecteur"],
        purpose_type="core.table_partie",
        purpose_id=session.pk,
        due_at=due(),
    )
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=session, actor=mc_org.director)
    assert exc.value.code == "KEY-08"
    key_return(issue=issue, actor=mc_org["directeur_jeux"], returned_by=mc_org["inspecteur"])
    assert table_session_close(session=session, actor=mc_org.director).status == "closed"


def test_registre_des_cles_prints_cote_et_paraphe(mc_org):
    import io

    from ledgers.registers.printing.register import render_register

    mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    out = io.BytesIO()
    rendered = render_register(Register.objects.get(establishment=mc_org.est, kind="registre_cles"), out)
    assert rendered.pages >= 1 and out.getvalue().startswith(b"%PDF")


def test_key_09_bill_box_lock_reference_by_asset(mc_org):
    mc_org.key("B-7", "bill_content", home=mc_org.homes["comptabilite"], asset_ref="M-007")
    mc_org.key("M-7", "machine_door", home=mc_org.homes["coffre"], asset_ref="M-007")
    found = selectors.lock_keys(mc_org.est, "M-007")
    assert sorted(found) == ["bill_content", "machine_door"] and found["bill_content"][0].code == "B-7"
    assert selectors.lock_keys(mc_org.est, "M-008") == {}


def test_api_member_with_a_nul_byte_is_bad_input_not_a_server_error(mc_org):
    from ledgers.keys.api.serializers import KeyInput

    data = {"code": "K-9", "lock_type": "machine_door", "opens": "Portes", "custodian": "caissier\x00"}
    serializer = KeyInput(data=data, context={"establishment": mc_org.est})
    assert not serializer.is_valid() and "custodian" in serializer.errors
