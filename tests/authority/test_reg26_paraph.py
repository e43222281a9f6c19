"""REG-26: the art. 69 registers and carnets are coted and paraphed by the Interior ministry's
control officials, not by the police (SET-26)."""

import pytest

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.kinds import get_kind
from ledgers.registers.services import register_create, register_open

ART_69_KINDS = ("carnet_avances", "carnet_cagnottes")


@pytest.mark.parametrize("kind", ART_69_KINDS)
def test_reg_26_art_69_forms_paraphed_by_interior_officials(kind):
    info = get_kind(kind)
    assert info.paraph_roles_for("FR") == (Role.CONTROLE_INTERIEUR,)
    assert info.paraph_requirement_for("FR") == "REG-26"


@pytest.mark.parametrize("kind", ART_69_KINDS)
def test_reg_26_police_cannot_paraph_an_art_69_carnet(fro, kind):
    register = register_create(establishment=fro.est, kind=kind, qualifier="PB1", actor=fro.directeur_responsable)
    with pytest.raises(RuleViolation) as refused:
        register_open(register=register, actor=fro.police, paraphe="P.")
    assert refused.value.code == "REG-26"
    assert "ministère de l'intérieur" in str(refused.value)
    register.refresh_from_db()
    assert register.status == register.Status.AWAITING_OPENING and register.head_seq == 0
    opening = register_open(register=register, actor=fro.controle_interieur, paraphe="F.C.")
    assert (opening.seq, opening.role) == (1, Role.CONTROLE_INTERIEUR)
    assert "Fonctionnaire du ministère de l'intérieur chargé du contrôle" in opening.payload["statement"]


def test_reg_26_future_art_69_kinds_follow_their_form(fro):
    """A kind declared later with an art. 69 form (e.g. modèle 29) gets the officials, even if it names others."""
    from ledgers.registers.kinds import Column, RegisterKind

    kind = RegisterKind(
        code="test_m29",
        title="Carnet 29",
        purpose="test",
        columns=(Column("x", "x", 1),),
        record_roles=(Role.CAISSIER,),
        jurisdictions=("FR",),
        paraph_roles=(Role.POLICE,),
        form="modèle 29",
    )
    assert kind.paraph_roles_for("FR") == (Role.CONTROLE_INTERIEUR,)
    assert kind.paraph_requirement_for("FR") == "REG-26"


def test_reg_26_not_an_art_69_form_keeps_its_authority():
    assert get_kind("carnet_19").paraph_roles_for("FR") == (Role.POLICE,)
    assert get_kind("carnet_19").paraph_requirement_for("FR") == ""


def test_reg_26_fr_profile_names_the_authorities(fr):
    names = fr.profile.authority_names
    for role in (Role.CONTROLE_INTERIEUR, Role.AGENT_VERIFICATEUR, Role.CHEF_POLICE, Role.COMPTABLE_TRESOR):
        assert role in names
