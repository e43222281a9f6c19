"""Demo: in Nice, the police's registers coté et paraphé by the DCPJ chief, two visits (one
followed up, one still waiting), a question answered in the registre de liaison, a prior
declaration implemented without its follow-up yet, and the règlement intérieur in force."""

import datetime
from typing import TextIO

from django.utils import timezone

from ledgers.core.demo import DEMO_FR, demo_user
from ledgers.core.models import Establishment, GamingTable
from ledgers.core.roles import Role
from ledgers.equipment.volumes import open_volume

from . import services
from .models import Declaration, HouseOption, HouseRulesVersion, LiaisonQuestion, Observation
from .registers import DECLARATIONS, HOUSE_RULES, LIAISON, OBSERVATIONS


def seed(stdout: TextIO) -> None:
    est = Establishment.objects.filter(code=DEMO_FR).first()
    if est is None:
        return
    director, chief, agent = (demo_user(est, role) for role in
                              (Role.DIRECTEUR_RESPONSABLE, Role.CHEF_POLICE, Role.POLICE))
    for kind in (OBSERVATIONS.code, LIAISON.code):
        open_volume(est, kind, "", director=director, authority=chief, paraphe="C.P.")
    for kind in (DECLARATIONS.code, HOUSE_RULES.code):
        open_volume(est, kind, "", director=director, authority=director, paraphe="D.R.")
    if not Observation.objects.filter(establishment=est).exists():
        now = timezone.now()
        first = services.observation_record(
            establishment=est, actor=agent, visited_at=now - datetime.timedelta(days=5),
            agents="Brigadier-chef Martin", operations="Vérification de l'armoire « dépôt des cartes » et du carnet 19",
            nature=Observation.Nature.OBSERVATION, text="Deux sixains reçus hier non encore inscrits au carnet 19.")
        services.observation_follow_up(observation=first, actor=director,
                                       text="Sixains inscrits le jour même ; rappel écrit au service des cartes.")
        services.observation_record(
            establishment=est, actor=agent, visited_at=now - datetime.timedelta(days=1),
            agents="Brigadier-chef Martin, gardien de la paix Leroy", operations="Contrôle de l'affichage en salle",
            nature=Observation.Nature.INSTRUCTION, text="Afficher le taux de la cagnotte du poker à chaque table.")
    if not LiaisonQuestion.objects.filter(establishment=est).exists():
        question = services.liaison_ask(
            establishment=est, actor=director, subject="Article 68-19",
            question="Le déplacement d'une machine hors des heures d'ouverture doit-il être signalé la veille ?")
        services.liaison_answer(question=question, actor=chief,
                                answer="Oui : le service est informé avant tout déplacement, quelle que soit l'heure.")
    if not Declaration.objects.filter(establishment=est).exists():
        sent = est.localtime(timezone.now()).date() - datetime.timedelta(days=20)
        services.declaration_record(
            establishment=est, actor=director, operation=Declaration.Operation.DISTRIBUTION,
            details="Mise minimale des tables de black-jack portée de 5 € à 10 € le vendredi et le samedi soir.",
            sent_on=sent, recipients=Declaration.Recipient.values, proof="LRAR 1A 178 342 9921 4",
            implementation_date=sent + datetime.timedelta(days=15))
    if not HouseRulesVersion.objects.filter(establishment=est).exists():
        services.house_rules_publish(
            establishment=est, actor=director, effective_from=est.localtime(timezone.now()).date(),
            reference="Règlement intérieur des jeux, affiché à l'entrée de la salle des jeux",
            options=[HouseOption.SURRENDER, HouseOption.LL_SEATED])
        table = GamingTable.objects.filter(establishment=est, game="blackjack").order_by("number").first()
        if table is not None:
            services.table_option_set(table=table, option=HouseOption.SURRENDER, enabled=True, actor=director)
    stdout.write("authority: police registers, prior declarations and house rules of Nice\n")
