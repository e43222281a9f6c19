"""A month of card activity for the demo casinos (``manage.py seed_demo``), through the services.

Monte-Carlo (MC): registers coted and paraphed by the Commissaire du Gouvernement, orders visaed
by the SCJ, receipts, transfers to the annex depots and the DCC, séances at blackjack, chemin de
fer, Black Jack One Deck, banque à tout va and a super privé punto banco with prêt-à-l'emploi
decks, a damaged-card exchange, a marked-card incident, a destruction notified to the SCJ and an
SCJ stock verification with its visas. Nice (FR): the carnet modèle 19 opened by the police,
orders from the carnet modèle 21 visaed by the police, séances at blackjack, punto banco, chemin
de fer and three-card poker (single decks of a sixain), a broken seal band, a destruction in the
presence of a police officer and a police verification of the card cabinet.

At Nice the tables of the sabot games (blackjack, punto banco, chemin de fer) open with a sabot
allocated by the directeur responsable (SHOE-12) and close once it is back in the cabinet
(SHOE-09): the sabots are the equipment seeder's, which runs first (``SEED_AFTER``).

Idempotent: an establishment that already holds card units is left as it is.
"""

import datetime
from typing import TextIO

from django.db import transaction
from django.utils import timezone

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_houses, demo_user
from ledgers.core.models import Establishment, GamingTable, Location, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import seance_open, table_session_close, table_session_open, table_session_prepare
from ledgers.custody import services as custody
from ledgers.custody.models import PurchaseOrder, Supplier
from ledgers.equipment import selectors as equipment_selectors
from ledgers.equipment import services as equipment
from ledgers.equipment.models import Shoe
from ledgers.equipment.specs import SHOE_GAMES_FR
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from ledgers.keys.demo import register_keys
from ledgers.keys.policy import LockType
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open, visa_sign

from . import services
from .domains import CARDS
from .models import CardUnit, Category
from .selectors import incidents_of
from .services import ReceivedDeck, ReceivedUnit

SEED_AFTER = ("ledgers.equipment",)  # the sabots of the French tables
SEANCES = 12  # séances over the last four weeks, one every other evening, and today's
# MC: the tables prepared tonight with no cards out yet (game, super privé): a deck each for the
# poker tables, a sixain for the super privé punto banco.
WAITING_FOR_CARDS = (("three_card_poker", False), ("ultimate_holdem", False), ("punto_banco", True))
PARAPHE = {
    Role.COMMISSAIRE: "C.O.",
    Role.POLICE: "C.V.",
    Role.DIRECTEUR_JEUX: "B.M.",
    Role.DIRECTEUR_RESPONSABLE: "F.D.",
}


def seed(*, stdout: TextIO, seances: int = SEANCES) -> None:
    for code in demo_houses():
        seeder = {DEMO_MC: _Monaco, DEMO_FR: _Nice}[code]
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            stdout.write(f"{code} : établissement absent, cartes non créées")
            continue
        with transaction.atomic():
            seeder(est, stdout).run(seances)


class _Casino:
    """What both demo casinos do; the subclasses say who does it and at which tables."""

    director_role: str
    authority_role: str
    keeper_role: str
    registers: list[tuple[str, str, str]]  # (kind, qualifier, paraphing role)
    supplier: tuple[str, str]  # name, approval reference

    def __init__(self, est: Establishment, stdout: TextIO) -> None:
        self.est, self.stdout = est, stdout
        self.mc = est.jurisdiction == "MC"
        self.serial = 0

    def user(self, role: str):
        return demo_user(self.est, role)

    @property
    def director(self):
        return self.user(self.director_role)

    @property
    def keeper(self):
        return self.user(self.keeper_role)

    def run(self, seances: int) -> None:
        self.open_registers()
        if CardUnit.objects.filter(establishment=self.est).exists():
            self.stdout.write(f"{self.est.name} : cartes déjà présentes, rien à faire")
            return
        self.depot = (
            Location.objects.filter(
                establishment=self.est, kind="depot_principal" if self.mc else "card_cabinet", active=True
            )
            .order_by("code")
            .first()
        )
        self.maker = self.approved_supplier()
        self.stock()
        first = timezone.localdate() - datetime.timedelta(days=2 * seances)
        for n in range(seances):
            seance = self._seance(first + datetime.timedelta(days=2 * n))
            if seance is not None:
                self.evening(seance, n)
        self.month_end()
        self.today(self._seance(timezone.localdate()))
        self.stdout.write(
            f"{self.est.name} : {CardUnit.objects.filter(establishment=self.est, parent=None).count()} "
            f"unités de cartes, {self._entries()} inscriptions aux registres des cartes"
        )

    # --- set-up --------------------------------------------------------------------------

    def open_registers(self) -> None:
        for kind, qualifier, paraphing in self.registers:
            register = Register.objects.filter(establishment=self.est, kind=kind, qualifier=qualifier).first()
            if register is None:
                register = register_create(establishment=self.est, kind=kind, qualifier=qualifier, actor=self.director)
            if register.status == Register.Status.AWAITING_OPENING:
                register_open(register=register, actor=self.user(paraphing), paraphe=PARAPHE[paraphing])

    def approved_supplier(self) -> Supplier:
        name, reference = self.supplier
        return Supplier.objects.filter(
            establishment=self.est, domain=CARDS.code, name=name
        ).first() or custody.supplier_register(
            establishment=self.est,
            domain=CARDS,
            name=name,
            actor=self.director,
            approval_reference=reference,
            approval_issuer="Ministre de l'intérieur",
            approved_from=datetime.date(2022, 1, 1),
        )

    def order(self, lines: dict[str, int], *, visa: bool = True, send: bool = True) -> PurchaseOrder:
        order = custody.purchase_order_issue(
            establishment=self.est,
            domain=CARDS,
            supplier=self.maker,
            actor=self.director,
            lines=[{"category": c, "quantity": q} for c, q in lines.items()],
            carnet="" if self.mc else "21-0042",
        )
        if visa:
            order = custody.purchase_order_visa(
                order=order, actor=self.user(self.authority_role), statement="Vu et visé"
            )
        if send:
            order = custody.purchase_order_send(order=order, domain=CARDS, actor=self.director)
        return order

    def spec(self, unit_type: str = "sixain", colours=("rouge", "bleu")) -> ReceivedUnit:
        self.serial += 1
        prefix = {"sixain": "S", "huitain": "H", "jeu": "J"}[unit_type]
        serial = f"{self.est.code[:2].upper()}{prefix}{self.serial:05d}"
        if unit_type == "jeu":
            return ReceivedUnit(unit_type="jeu", serial=serial, back_colour=colours[self.serial % 2])
        count = 6 if unit_type == "sixain" else 8
        return ReceivedUnit(
            unit_type=unit_type,
            serial=serial,
            decks=tuple(
                ReceivedDeck(f"{serial}-{i}", colours[0] if i <= count // 2 else colours[1])
                for i in range(1, count + 1)
            ),
        )

    def receive(self, specs: list[ReceivedUnit], order: PurchaseOrder | None, location: Location | None = None):
        return services.cards_receive(
            establishment=self.est,
            location=location or self.depot,
            supplier=self.maker,
            units=specs,
            actor=self.user(self.receiver_role),
            order=order,
            delivery_note=f"BL {order.number if order else 'sans bon'}",
        )

    def _seance(self, date: datetime.date) -> Seance | None:
        seance = Seance.objects.filter(establishment=self.est, date=date, period="soiree").first()
        if seance is None:
            seance = seance_open(establishment=self.est, date=date, period="soiree", actor=self.director)
        return seance if seance.status == Seance.Status.OPEN else None

    def table(self, game: str, super_prive: bool = False) -> GamingTable | None:
        return self.est.tables.filter(game=game, super_prive=super_prive, active=True).order_by("number").first()

    # --- one table during one séance ------------------------------------------------------

    def play(
        self,
        seance: Seance,
        game: str,
        units: list[CardUnit],
        *,
        super_prive: bool = False,
        during=None,
        close: bool = True,
    ) -> TableSession | None:
        table = self.table(game, super_prive)
        if table is None:
            return None
        shoe = None
        if not self.mc and table.game in SHOE_GAMES_FR:  # FR: allocated before the table opens (SHOE-12)
            shoe = equipment_selectors.shoes_in_stock(self.est).first()  # the one that has rested longest
            if shoe is None:  # no sabot in the cabinets: the table stays closed
                return None
        manager = self.user(self.table_manager_role)
        session = table_session_prepare(seance=seance, table=table, actor=manager)
        services.cards_issue(table_session=session, units=units, actor=self.keeper, received_by=self.chef_name)
        croupier = self.user(Role.CROUPIER)
        for unit in units:
            unit.refresh_from_db()
            if unit.pae:
                services.cards_pae_confirm(unit=unit, actor=croupier, shuffler="MD-07")
                continue
            if any(d.is_new for d in unit.decks()):
                services.cards_unseal(
                    unit=unit,
                    actor=croupier,
                    seal_intact=True,
                    video_camera="CAM-12",
                    video_reference=f"{seance.date:%Y%m%d}-{table.number}",
                )
            services.cards_table_control(
                unit=unit, actor=croupier, complete=True, order_intact=True, witnesses=self.chef_name
            )
        if shoe is not None:
            equipment.shoe_allocate(session=session, shoe=shoe, actor=self.keeper, received_by=self.chef_name)
        table_session_open(session=session, actor=manager)
        if during is not None:
            during(session, units)
        if close:
            self.end(session, units)
        return session

    def end(self, session: TableSession, units: list[CardUnit], control: bool = True) -> None:
        units = [CardUnit.objects.get(pk=u.pk) for u in units]
        croupier = self.user(Role.CROUPIER)
        if not self.mc:  # FR: put back in order and examined at the table (CARD-37)
            for unit in units:
                services.cards_post_control(
                    unit=unit, actor=croupier, complete=True, order_restored=True, marks_found=False
                )
        services.cards_return(
            units=units,
            to_location=self.return_depot(units[0]),
            actor=self.keeper,
            returned_by="Équipe de la table",
            inspecteur=self.user(Role.INSPECTEUR) if self.mc else None,
        )
        shoes = list(Shoe.objects.filter(table_session=session))
        if shoes:  # FR: the sabot back in the cabinet before the partie ends (SHOE-09)
            equipment.shoe_return(
                shoes=shoes, to_location=self.depot, actor=self.keeper, returned_by="Équipe de la table"
            )
        table_session_close(session=session, actor=self.user(self.table_manager_role))
        if self.mc and control:  # MC: the cartiers control after the séance, in the depot (CARD-14)
            for unit in units:
                services.cards_post_control(
                    unit=CardUnit.objects.get(pk=unit.pk),
                    actor=self.user(Role.CARTIER),
                    complete=True,
                    order_restored=True,
                    marks_found=False,
                )

    def return_depot(self, unit: CardUnit) -> Location:
        return self.depot

    def _entries(self) -> int:
        return sum(
            r.head_seq
            for r in Register.objects.filter(
                establishment=self.est,
                kind__in=["prise_en_charge", "carnet_19", "comptabilite_annexe", "bons_commande", "cartes_service"],
            )
        )


class _Monaco(_Casino):
    director_role = Role.DIRECTEUR_JEUX
    authority_role = Role.SCJ
    keeper_role = Role.CARTIER
    receiver_role = Role.CARTIER
    table_manager_role = Role.SOUS_DIRECTEUR
    chef_name = "Sophie Marchetti, chef de table"
    registers = [
        *[("prise_en_charge", f"cards-{c}", Role.COMMISSAIRE) for c, _label in Category.choices],
        ("comptabilite_annexe", "cards", Role.DIRECTEUR_JEUX),
        ("bons_commande", "cards", Role.DIRECTEUR_JEUX),
        ("cartes_service", "", Role.DIRECTEUR_JEUX),
        ("incidents", "", Role.DIRECTEUR_JEUX),
    ]
    supplier = ("Société monégasque de cartes à jouer", "Fournisseur agréé par la Direction des Jeux")

    def stock(self) -> None:
        self.annex = Location.objects.filter(establishment=self.est, kind="depot_annexe").order_by("code").first()
        self.dcc = Location.objects.filter(establishment=self.est, kind="dcc").order_by("code").first()
        first = self.order({"sixain": 20, "huitain": 3, "jeu": 16})
        self.receive(
            [self.spec() for _n in range(20)]
            + [self.spec("huitain") for _n in range(3)]
            + [self.spec("jeu") for _n in range(16)],
            first,
        )
        second = self.order({"sixain": 12})
        self.receive([self.spec() for _n in range(10)], second)  # two short: CARD-07 flag
        self.order({"sixain": 6, "jeu": 12}, visa=False, send=False)  # awaits the SCJ visa
        sixains = list(
            CardUnit.objects.filter(establishment=self.est, unit_type="sixain", parent=None).order_by("serial")
        )
        self.house = sixains[:3]  # blackjack, chemin de fer, spare for exchanges
        self.tout_va = sixains[3:]
        self.decks = list(
            CardUnit.objects.filter(establishment=self.est, unit_type="jeu", parent=None).order_by("serial")
        )
        self.huitains = list(CardUnit.objects.filter(establishment=self.est, unit_type="huitain").order_by("serial"))
        if self.dcc is not None:
            custody.items_transfer(
                domain=CARDS,
                items=self.huitains,
                to_location=self.dcc,
                actor=self.keeper,
                received_by="Isabelle Gastaud, DCC",
            )
        if self.annex is not None:
            custody.items_transfer(
                domain=CARDS,
                items=self.house,
                to_location=self.annex,
                actor=self.keeper,
                received_by="Jean-Marc Rossi, cartier",
            )

    def return_depot(self, unit: CardUnit) -> Location:
        if unit.unit_type == "huitain" and self.dcc is not None:
            return self.dcc
        if unit in self.house and self.annex is not None:
            return self.annex
        return self.depot

    def evening(self, seance: Seance, n: int) -> None:
        blackjack, chemin, spare = self.house
        during = self.exchange(seance, spare) if n == 0 else None
        self.play(seance, "blackjack", [blackjack], during=during)
        self.play(seance, "chemin_de_fer", [chemin])
        if self.decks:
            self.play(seance, "blackjack_one_deck", [self.decks.pop(0)])
        if self.tout_va:
            self.play(seance, "banque_tout_va", [self.tout_va.pop(0)])
        if self.dcc is not None and self.huitains:
            huitain = self.huitains[n % len(self.huitains)]
            services.cards_pae_prepare(
                units=[huitain],
                actor=self.user(Role.DCC_STAFF),
                checked_by="Isabelle Gastaud",
                shuffled_by="Isabelle Gastaud",
                method="shuffler",
                shuffler="MD-07",
                video_camera="CAM-DCC-1",
                video_reference=f"DCC-{seance.date:%Y%m%d}",
            )
            self.play(seance, "punto_banco", [huitain], super_prive=True)
        if n == 1:
            self.marked(seance, chemin)

    def exchange(self, seance: Seance, spare: CardUnit):
        def during(session: TableSession, units: list[CardUnit]) -> None:
            services.cards_replacement_designate(
                seance=seance, room=session.table.room, unit=spare, actor=self.user(Role.INSPECTEUR)
            )
            exchange = services.cards_exchange(
                table_unit=units[0].members.order_by("position").first(),
                replacement_unit=spare.members.first(),
                card="Dame de cœur",
                croupier="Lucas Bertrand",
                shown_both_sides=True,
                actor=self.user(Role.INSPECTEUR),
            )
            services.cards_exchange_reconcile(
                exchange=exchange,
                actor=self.user(Role.CARTIER),
                note="Carte détériorée replacée dans le jeu du sixain de remplacement, retiré au dépôt principal.",
            )

        return during

    def marked(self, seance: Seance, chemin: CardUnit) -> None:
        """A marked card found in the chemin de fer sixain: the sixain is replaced and an incident
        goes to the inspecteur, the directeur des jeux and the SCJ; decided and closed."""
        incident = services.cards_anomaly_report(
            units=[chemin],
            anomaly="marked",
            cards="Roi de pique (trace d'ongle)",
            actor=self.user(Role.CARTIER),
            circumstances=f"Constatée au contrôle après la séance du {seance.date:%d/%m/%Y}.",
        )
        now = timezone.now()
        for role, name in ((Role.INSPECTEUR, "Philippe Lanteri"), (Role.DIRECTEUR_JEUX, "Bernard Médecin")):
            incident_notify(
                incident=incident,
                recipient_role=role,
                recipient_name=name,
                channel="in_person",
                notified_at=now,
                actor=self.user(Role.CARTIER),
            )
        incident_notify(
            incident=incident,
            recipient_role=Role.SCJ,
            recipient_name="Hélène Blanchi",
            channel="phone",
            notified_at=now,
            actor=self.director,
        )
        incident_decide(
            incident=incident,
            decision="Sixain conservé au dépôt principal pour examen puis destruction ; "
            "visionnage des enregistrements demandé.",
            actor=self.director,
        )
        incident_close(incident=incident, actor=self.director)
        self.house[1] = self.tout_va.pop(0)

    def month_end(self) -> None:
        used = [
            u
            for u in CardUnit.objects.filter(
                establishment=self.est, parent=None, status="in_stock", is_new=False
            ).order_by("serial")
            if u not in self.house and u.unit_type != "huitain"
        ]
        services.cards_withdraw(
            units=used, status="out_of_use", reason="Jeux usagés après une séance", actor=self.keeper
        )
        destroy = used[: len(used) // 2]
        if destroy:
            # Announced to the SCJ for tomorrow: it may attend, so the operation waits (CARD-11).
            session = services.cards_destruction_plan(
                establishment=self.est,
                units=destroy,
                method="neutralisation",
                planned_at=timezone.now() + datetime.timedelta(days=1),
                actor=self.director,
            )
            custody.destruction_notify(
                session=session,
                channel="email",
                reference="Courriel au Service de Contrôle des Jeux",
                actor=self.director,
            )
        scj = self.user(Role.SCJ)
        for order in PurchaseOrder.objects.filter(
            establishment=self.est, domain=CARDS.code, visa_at__isnull=True, status=PurchaseOrder.Status.SENT
        ):
            custody.purchase_order_visa(order=order, actor=scj)
        custody.depot_day_close(domain=CARDS, establishment=self.est, date=timezone.localdate(), actor=self.keeper)
        custody.stock_verification_record(
            domain=CARDS,
            establishment=self.est,
            counted={},
            actor=scj,
            remarks="Vérification inopinée du stock de cartes : conforme.",
        )
        service = Register.objects.get(establishment=self.est, kind="cartes_service", status="open")
        visa_sign(
            register=service,
            actor=self.user(Role.SOUS_DIRECTEUR),
            up_to_seq=service.head_seq,
            statement="Vu et vérifié, registre des cartes en service.",
        )

    def today(self, seance: Seance | None) -> None:
        if seance is None:
            return
        blackjack, chemin, _spare = self.house
        self.play(seance, "blackjack", [blackjack], close=False)
        if self.decks:  # an early partie, over: its deck waits for the cartier's control
            session = self.play(seance, "blackjack_one_deck", [self.decks[0]], close=False)
            if session is not None:
                self.end(session, [self.decks.pop(0)], control=False)
        table = self.table("chemin_de_fer")
        if table is not None:
            session = table_session_prepare(seance=seance, table=table, actor=self.user(self.table_manager_role))
            services.cards_issue(table_session=session, units=[chemin], actor=self.keeper, received_by=self.chef_name)
        # Parties prepared for later tonight, whose cards the cartier has still to take out.
        for game, super_prive in WAITING_FOR_CARDS:
            table = self.table(game, super_prive)
            if table is not None:
                table_session_prepare(seance=seance, table=table, actor=self.user(self.table_manager_role))


class _Nice(_Casino):
    director_role = Role.DIRECTEUR_RESPONSABLE
    authority_role = Role.POLICE
    keeper_role = Role.DIRECTEUR_RESPONSABLE
    receiver_role = Role.EMPLOYE_RESPONSABLE
    table_manager_role = Role.COMITE
    chef_name = "Laurent Ciais, chef de table"
    registers = [
        ("carnet_19", "cartes", Role.POLICE),
        ("bons_commande", "cards", Role.DIRECTEUR_RESPONSABLE),
        ("cartes_service", "", Role.DIRECTEUR_RESPONSABLE),
        ("incidents", "", Role.DIRECTEUR_RESPONSABLE),
        ("informations_autorites", "", Role.DIRECTEUR_RESPONSABLE),
    ]
    supplier = ("France Cartes SA", "Agrément du ministre de l'intérieur n° 2021-07")

    def stock(self) -> None:
        register_keys(self.est, lock_types=frozenset({LockType.CARD_CABINET}))  # its holder opens it (KEY-11)
        self.receive([self.spec() for _n in range(12)], self.order({"sixain": 12}))
        self.receive([self.spec() for _n in range(6)], self.order({"sixain": 6}))
        sixains = list(CardUnit.objects.filter(establishment=self.est, parent=None).order_by("serial"))
        self.house = sixains[:3]  # blackjack, punto banco, chemin de fer
        self.poker = sixains[3:5]  # single decks for three-card poker
        self.spares = sixains[5:]

    def evening(self, seance: Seance, n: int) -> None:
        blackjack, punto, chemin = self.house
        if n == 0:
            self.broken_seal(seance)
        self.play(seance, "blackjack", [blackjack])
        self.play(seance, "punto_banco", [punto])
        self.play(seance, "chemin_de_fer", [chemin])
        deck = CardUnit.objects.filter(parent__in=self.poker, is_new=True, status="in_stock").order_by("serial").first()
        if deck is not None:
            self.play(seance, "three_card_poker", [deck])

    def broken_seal(self, seance: Seance) -> None:
        """A new sixain whose seal band is not intact when unsealed at the blackjack table: it goes
        back to the cabinet in quarantine; the police officer is informed (INC-14)."""
        table = self.table("blackjack")
        if table is None or not self.spares:
            return
        spare = self.spares.pop(0)
        croupier = self.user(Role.CROUPIER)
        session = table_session_prepare(seance=seance, table=table, actor=self.user(self.table_manager_role))
        services.cards_issue(table_session=session, units=[spare], actor=self.keeper, received_by=self.chef_name)
        services.cards_unseal(
            unit=spare,
            actor=croupier,
            seal_intact=False,
            video_camera="CAM-04",
            video_reference=f"{seance.date:%Y%m%d}-BJ-2105",
            notes="Bande déchirée à l'ouverture.",
        )
        services.cards_post_control(
            unit=CardUnit.objects.get(pk=spare.pk),
            actor=croupier,
            complete=True,
            order_restored=True,
            marks_found=False,
        )
        services.cards_return(
            units=[spare], to_location=self.depot, actor=self.keeper, returned_by="Kevin Martinez, croupier"
        )
        for incident in incidents_of(spare):
            incident_notify(
                incident=incident,
                recipient_role=Role.POLICE,
                recipient_name="Claire Vidal",
                channel="in_person",
                notified_at=timezone.now(),
                actor=self.director,
            )

    def month_end(self) -> None:
        worn = [self.house[2]]
        services.cards_withdraw(
            units=worn, status="out_of_use", reason="Dos usés après un mois de séances", actor=self.keeper
        )
        session = services.cards_destruction_plan(
            establishment=self.est, units=worn, method="destruction", planned_at=timezone.now(), actor=self.director
        )
        services.cards_destruction_complete(
            session=session,
            actor=self.director,
            witness=self.user(Role.POLICE),
            observations="Destruction par broyage en présence du fonctionnaire de "
            "police, qui a vérifié les jeux et visé le carnet.",
        )
        self.house[2] = self.spares.pop(0)
        police = self.user(Role.POLICE)
        services.cards_stock_verification(
            establishment=self.est,
            counted={},
            actor=police,
            remarks="Ouverture de l'armoire à la demande du fonctionnaire : conforme.",
        )
        service = Register.objects.get(establishment=self.est, kind="cartes_service", status="open")
        visa_sign(
            register=service,
            actor=self.user(Role.POLICE),
            up_to_seq=service.head_seq,
            statement="Vu lors du contrôle de l'armoire à cartes.",
        )

    def today(self, seance: Seance | None) -> None:
        if seance is None:
            return
        self.play(seance, "blackjack", [self.house[0]], close=False)
        table = self.table("punto_banco")
        if table is not None:
            session = table_session_prepare(seance=seance, table=table, actor=self.user(Role.COMITE))
            services.cards_issue(
                table_session=session, units=[self.house[1]], actor=self.keeper, received_by=self.chef_name
            )
