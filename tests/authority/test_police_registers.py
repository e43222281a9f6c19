"""REG-44 registre spécial d'observations and REG-45 registre de liaison (FR-2007 art. 92, 92-1)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from ledgers.authority import selectors, services
from ledgers.authority.models import LiaisonQuestion, Observation
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.services import register_create, register_open, visa_sign
from ledgers.registers.verification import verify_register


def observe(fro, *, nature=Observation.Nature.INJUNCTION, days_ago=0, actor=None):
    return services.observation_record(
        establishment=fro.est,
        actor=actor or fro.police,
        visited_at=timezone.now() - datetime.timedelta(days=days_ago),
        agents="Brigadier Martin, lieutenant Robert",
        operations="Contrôle de l'armoire des cartes",
        nature=nature,
        text="Tenir la clé unique de l'armoire sur soi.",
    )


@pytest.mark.parametrize("kind", ["observations_police", "registre_liaison"])
def test_reg_44_45_paraphed_by_the_dcpj_chief(fro, kind):
    register = register_create(establishment=fro.est, kind=kind, actor=fro.directeur_responsable)
    with pytest.raises(RuleViolation) as refused:
        register_open(register=register, actor=fro.police, paraphe="P.")
    assert refused.value.code == ("REG-44" if kind == "observations_police" else "REG-45")
    opening = register_open(register=register, actor=fro.chef_police, paraphe="C.P.")
    assert opening.role == Role.CHEF_POLICE


def test_reg_44_not_kept_in_monaco(mco):
    with pytest.raises(ValueError):
        register_create(establishment=mco.est, kind="observations_police", actor=mco.directeur_jeux)


def test_reg_44_agent_writes_visit_with_follow_up_deadline(fro, police_registers):
    observation = observe(fro)
    register = police_registers[0]
    entry = Entry.objects.get(register=register, seq=observation.entry_seq)
    assert entry.role == Role.POLICE
    assert entry.payload["operations"] == "Contrôle de l'armoire des cartes"
    assert entry.payload["nature"] == "Injonction"
    assert observation.due_on == fro.est.localtime(observation.visited_at).date() + datetime.timedelta(days=8)
    assert entry.payload["follow_up_due"] == observation.due_on.isoformat()
    assert observation.history.count() == 1 and observation.history.first().history_user == fro.police


def test_reg_44_visit_without_observation_needs_no_follow_up(fro, police_registers):
    visit = observe(fro, nature=Observation.Nature.VISIT)
    assert visit.due_on is None
    with pytest.raises(ValidationError):
        services.observation_follow_up(observation=visit, actor=fro.directeur_responsable, text="—")


@pytest.mark.parametrize("role", [Role.DIRECTEUR_RESPONSABLE, Role.INSPECTEUR, Role.CONTROLE_INTERIEUR])
def test_reg_44_only_police_agents_write_observations(fro, police_registers, role):
    with pytest.raises(RuleViolation) as refused:
        observe(fro, actor=getattr(fro, role))
    assert refused.value.code == "REG-44"
    assert not Observation.objects.exists()
    assert police_registers[0].entries.count() == 1  # the opening act only


def test_reg_44_follow_up_by_directeur_responsable_opposite_the_observation(fro, police_registers):
    observation = observe(fro)
    done = services.observation_follow_up(
        observation=observation,
        actor=fro.directeur_responsable,
        text="Clé remise au directeur responsable, consigne affichée.",
    )
    entry = Entry.objects.get(register=police_registers[0], seq=done.follow_up_seq)
    assert entry.payload["refers_to_seq"] == observation.entry_seq
    assert entry.payload["late"] is False and entry.payload["flags"] == []
    assert entry.role == Role.DIRECTEUR_RESPONSABLE
    assert not selectors.observations_awaiting_follow_up(fro.est).exists()
    assert verify_register(police_registers[0]) is None


@pytest.mark.parametrize("role", [Role.COMITE, Role.POLICE])
def test_reg_44_follow_up_by_anyone_else_refused(fro, police_registers, role):
    observation = observe(fro)
    with pytest.raises(RuleViolation) as refused:
        services.observation_follow_up(observation=observation, actor=getattr(fro, role), text="Vu.")
    assert refused.value.code == "REG-44"
    observation.refresh_from_db()
    assert observation.follow_up_seq is None


def test_reg_44_comite_replacement_allowed_by_set_41(fro, police_registers):
    fro.est.options = {"SET-41": {"days": 8, "replacements": [Role.COMITE]}}
    fro.est.save()
    done = services.observation_follow_up(observation=observe(fro), actor=fro.comite, text="Fait.")
    assert done.follow_up_by == fro.comite


def test_reg_44_follow_up_locked_once_signed(fro, police_registers):
    observation = observe(fro)
    services.observation_follow_up(observation=observation, actor=fro.directeur_responsable, text="Fait.")
    with pytest.raises(RuleViolation) as refused:
        services.observation_follow_up(observation=observation, actor=fro.directeur_responsable, text="Autre.")
    assert refused.value.code == "REG-44"


def test_reg_44_overdue_observation_flagged_and_late_follow_up_recorded(fro, police_registers):
    old = observe(fro, days_ago=10)
    recent = observe(fro, days_ago=2)
    assert list(selectors.observations_overdue(fro.est)) == [old]
    late = services.observation_follow_up(observation=old, actor=fro.directeur_responsable, text="Fait tard.")
    entry = Entry.objects.get(register=police_registers[0], seq=late.follow_up_seq)
    assert entry.payload["late"] is True and entry.payload["flags"][0]["code"] == "REG-44"
    assert list(selectors.observations_awaiting_follow_up(fro.est)) == [recent]
    assert not selectors.observations_overdue(fro.est).exists()


def test_reg_44_visa_by_the_dcpj_chief(fro, police_registers):
    observe(fro)
    register = Register.objects.get(pk=police_registers[0].pk)
    with pytest.raises(PermissionDenied):  # only the chief visas
        visa_sign(register=register, actor=fro.police, up_to_seq=2, statement="Vu.")
    visa = visa_sign(register=register, actor=fro.chef_police, up_to_seq=2, statement="Vu.")
    assert visa.role == Role.CHEF_POLICE


def test_reg_45_directeur_asks_the_service_answers(fro, police_registers):
    question = services.liaison_ask(
        establishment=fro.est,
        actor=fro.directeur_responsable,
        subject="Art. 68-19",
        question="Le déplacement d'une machine la nuit ?",
    )
    answered = services.liaison_answer(question=question, actor=fro.chef_police, answer="Prévenir la veille.")
    register = police_registers[1]
    entries = list(register.entries.filter(kind="record").order_by("seq"))
    assert [e.role for e in entries] == [Role.DIRECTEUR_RESPONSABLE, Role.CHEF_POLICE]
    assert entries[1].payload["refers_to_seq"] == question.question_seq
    assert answered.answer_seq == entries[1].seq
    assert verify_register(register) is None


@pytest.mark.parametrize("role", [Role.COMITE, Role.POLICE, Role.INSPECTEUR])
def test_reg_45_only_the_directeur_responsable_asks(fro, police_registers, role):
    with pytest.raises(RuleViolation) as refused:
        services.liaison_ask(establishment=fro.est, actor=getattr(fro, role), subject="S", question="Q")
    assert refused.value.code == "REG-45"
    assert not LiaisonQuestion.objects.exists()


def test_reg_45_only_the_service_answers_once(fro, police_registers):
    question = services.liaison_ask(establishment=fro.est, actor=fro.directeur_responsable, subject="S", question="Q")
    with pytest.raises(RuleViolation) as refused:
        services.liaison_answer(question=question, actor=fro.directeur_responsable, answer="Moi-même.")
    assert refused.value.code == "REG-45"
    services.liaison_answer(question=question, actor=fro.police, answer="Oui.")
    with pytest.raises(RuleViolation):
        services.liaison_answer(question=question, actor=fro.chef_police, answer="Non.")


def test_reg_44_no_register_open_refused(fro):
    with pytest.raises(RuleViolation) as refused:
        observe(fro)
    assert refused.value.code == "REG-44"
