"""Demo: the gaming tables of both casinos, set up before any seeder plays (``prepare_tables``) once
what allows them is recorded: in Nice the arrêté d'autorisation in the register of gaming
authorisations, its tables written there under it; in Monte-Carlo the tables written in the main
courante (the registers seeder's, which runs first). In Nice, the police's registers coté et
paraphé by the DCPJ chief, two visits (one followed up, one still waiting), a question answered in
the registre de liaison, a prior declaration implemented without its follow-up yet, the règlement
intérieur in force, and the display checklist of every table that needs one (REG-23; the slots
seeder posts its machines'). In Monte-Carlo: the Split Aces progressive's configuration (GAME-04)
and the register of approved bankers (GAME-31).

Runs before the seeders that open tables (they name it in ``SEED_AFTER``)."""

import datetime
from collections import Counter
from decimal import Decimal
from typing import TextIO

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from ledgers.core.demo import DEMO_FR, DEMO_MC, ORGANISATION, demo_houses, demo_user, seed_tables
from ledgers.core.models import Establishment, GamingTable
from ledgers.core.roles import Role
from ledgers.equipment.volumes import open_volume

from . import displays, services
from .models import (
    ApprovedBanker,
    Arrete,
    Declaration,
    HouseOption,
    HouseRulesVersion,
    LiaisonQuestion,
    Observation,
    ProgressiveConfig,
)
from .registers import AUTHORISATIONS, BANKERS, DECLARATIONS, DISPLAYS, HOUSE_RULES, LIAISON, OBSERVATIONS, SPLIT_ACES

SEED_AFTER = ("ledgers.registers",)  # the main courante, where Monte-Carlo's tables are written

# Nice's arrêté: the minimum stakes it fixes (AUTH-04); beside the tables set up here, the texas
# hold'em table the cash seeder sets up, and two blackjack tables to spare.
FR_MINIMUMS = {
    "three_card_poker": Decimal(5),
    "ultimate_holdem": Decimal(10),
    "rampo": Decimal(5),
    "roue_chance": Decimal(2),
}
FR_AUTHORISED = {"texas_holdem": 1, "blackjack": 4}


def prepare_tables(*, stdout: TextIO) -> None:
    """The gaming tables of both demo casinos, before any seeder plays, once what allows them is
    recorded: Monte-Carlo's written in its main courante (the registers seeder's ``prepare_tables``,
    which runs first); Nice's after its arrêté d'autorisation."""
    mc = Establishment.objects.filter(code=DEMO_MC).first()
    if mc is not None:
        seed_tables(mc, demo_user(mc, Role.DIRECTEUR_JEUX), stdout)
    est = Establishment.objects.filter(code=DEMO_FR).first()
    if est is None:
        return
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE)
    open_volume(est, AUTHORISATIONS.code, "", director=director, authority=director, paraphe="D.R.")
    if not Arrete.objects.filter(establishment=est).exists():
        installed = Counter(game for _room, _number, game, _super_prive in ORGANISATION[DEMO_FR]["tables"])
        tables = {**installed, **FR_AUTHORISED}
        signed = est.localtime(timezone.now()).date().replace(month=1, day=15) - datetime.timedelta(days=730)
        services.arrete_record(
            establishment=est,
            actor=director,
            reference="Arrêté du ministre de l'intérieur autorisant les jeux au casino de Nice, NOR INTD0000001A",
            signed_on=signed,
            effective_from=signed + datetime.timedelta(days=15),
            total_tables=sum(tables.values()),
            games=[
                {"game": game, "tables": n, "minimum_stake": FR_MINIMUMS.get(game)}
                for game, n in sorted(tables.items())
            ],
        )
    seed_tables(est, director, stdout)


def _seed_displays(est: Establishment, director: AbstractBaseUser) -> None:
    open_volume(est, DISPLAYS.code, "", director=director, authority=director, paraphe="D.R.")
    checker = demo_user(est, Role.COMITE)
    posted_on = est.localtime(timezone.now()).date() - datetime.timedelta(days=60)
    for table in GamingTable.objects.filter(establishment=est, active=True).order_by("number"):
        for required in displays.missing(displays.table_items(table), displays.posted_items(table=table)):
            services.display_post(
                establishment=est, actor=checker, item=required.item, table=table, posted_on=posted_on
            )


def _seed_monaco(stdout: TextIO) -> None:
    est = Establishment.objects.filter(code=DEMO_MC).first()
    if est is None:
        return
    director = demo_user(est, Role.DIRECTEUR_JEUX)
    for kind in (SPLIT_ACES.code, BANKERS.code):
        open_volume(est, kind, "", director=director, authority=director, paraphe="D.J.")
    today = est.localtime(timezone.now()).date()
    tables = list(
        GamingTable.objects.filter(establishment=est, game="blackjack")
        .order_by("number")
        .values_list("number", flat=True)[:2]
    )
    if tables and not ProgressiveConfig.objects.filter(establishment=est).exists():
        services.progressive_configure(
            establishment=est,
            actor=director,
            effective_from=today - datetime.timedelta(days=90),
            combinations="Paire d'as séparée : 50 fois la mise ; deux paires d'as : progressif mineur ; trois as : "
            "progressif majeur",
            stake=Decimal("5"),
            percentage=Decimal("12"),
            tables=tables,
        )
    if not ApprovedBanker.objects.filter(establishment=est).exists():
        services.banker_approve(
            establishment=est,
            actor=director,
            full_name="Alexandre Varenne",
            birth_date=datetime.date(1968, 3, 14),
            identity_document="Passeport MC 0412788",
            approved_on=today - datetime.timedelta(days=200),
        )
    stdout.write(f"{est.name} : progressif Split Aces et banquiers agréés")


def seed(stdout: TextIO) -> None:
    for code in demo_houses():
        {DEMO_MC: _seed_monaco, DEMO_FR: _seed_nice}[code](stdout)


def _seed_nice(stdout: TextIO) -> None:
    est = Establishment.objects.filter(code=DEMO_FR).first()
    if est is None:
        return
    director, chief, agent = (
        demo_user(est, role) for role in (Role.DIRECTEUR_RESPONSABLE, Role.CHEF_POLICE, Role.POLICE)
    )
    for kind in (OBSERVATIONS.code, LIAISON.code):
        open_volume(est, kind, "", director=director, authority=chief, paraphe="C.P.")
    for kind in (DECLARATIONS.code, HOUSE_RULES.code, "informations_autorites"):
        open_volume(est, kind, "", director=director, authority=director, paraphe="D.R.")
    if not Observation.objects.filter(establishment=est).exists():
        now = timezone.now()
        first = services.observation_record(
            establishment=est,
            actor=agent,
            visited_at=now - datetime.timedelta(days=5),
            agents="Brigadier-chef Martin",
            operations="Vérification de l'armoire « dépôt des cartes » et du carnet 19",
            nature=Observation.Nature.OBSERVATION,
            text="Deux sixains reçus hier non encore inscrits au carnet 19.",
        )
        services.observation_follow_up(
            observation=first,
            actor=director,
            text="Sixains inscrits le jour même ; rappel écrit au service des cartes.",
        )
        services.observation_record(
            establishment=est,
            actor=agent,
            visited_at=now - datetime.timedelta(days=1),
            agents="Brigadier-chef Martin, gardien de la paix Leroy",
            operations="Contrôle de l'affichage en salle",
            nature=Observation.Nature.INSTRUCTION,
            text="Afficher le taux de la cagnotte du poker à chaque table.",
        )
    if not LiaisonQuestion.objects.filter(establishment=est).exists():
        question = services.liaison_ask(
            establishment=est,
            actor=director,
            subject="Article 68-19",
            question="Le déplacement d'une machine hors des heures d'ouverture doit-il être signalé la veille ?",
        )
        services.liaison_answer(
            question=question,
            actor=chief,
            answer="Oui : le service est informé avant tout déplacement, quelle que soit l'heure.",
        )
    if not Declaration.objects.filter(establishment=est).exists():
        sent = est.localtime(timezone.now()).date() - datetime.timedelta(days=20)
        services.declaration_record(
            establishment=est,
            actor=director,
            operation=Declaration.Operation.DISTRIBUTION,
            details="Mise minimale des tables de black-jack portée de 5 € à 10 € le vendredi et le samedi soir.",
            sent_on=sent,
            recipients=Declaration.Recipient.values,
            proof="LRAR 1A 178 342 9921 4",
            implementation_date=sent + datetime.timedelta(days=15),
        )
    if not HouseRulesVersion.objects.filter(establishment=est).exists():
        services.house_rules_publish(
            establishment=est,
            actor=director,
            effective_from=est.localtime(timezone.now()).date(),
            reference="Règlement intérieur des jeux, affiché à l'entrée de la salle des jeux",
            options=[HouseOption.SURRENDER, HouseOption.LL_SEATED],
        )
        table = GamingTable.objects.filter(establishment=est, game="blackjack").order_by("number").first()
        if table is not None:
            services.table_option_set(table=table, option=HouseOption.SURRENDER, enabled=True, actor=director)
    _seed_displays(est, director)
    stdout.write(f"{est.name} : registres de la police, déclarations préalables, règlement intérieur et affichages")
