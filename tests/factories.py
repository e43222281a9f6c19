import factory
from django.contrib.auth import get_user_model

from ledgers.core.models import Establishment, GamingTable, Location, Room
from ledgers.core.services import location_create, membership_grant, room_create

DEFAULT_PASSWORD = "motdepasse-test"


def countersignature(prefix: str, user) -> dict:
    """The countersignature of ``user`` under ``prefix``: their own login and password, typed at the
    terminal of the one who records the act."""
    return {f"{prefix}_username": user.username, f"{prefix}_password": DEFAULT_PASSWORD}


class EstablishmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Establishment
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"est{n}")
    name = factory.Sequence(lambda n: f"Casino {n}")
    jurisdiction = "MC"


class RoomFactory(factory.django.DjangoModelFactory):
    """A room added by the system through its service (its line in the register of authorisations)."""

    class Meta:
        model = Room

    establishment = factory.SubFactory(EstablishmentFactory)
    code = factory.Sequence(lambda n: f"salle{n}")
    name = factory.Sequence(lambda n: f"Salle {n}")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return room_create(actor=None, **kwargs)


class LocationFactory(factory.django.DjangoModelFactory):
    """A place added by the system through its service (its line in the register of authorisations)."""

    class Meta:
        model = Location

    establishment = factory.SubFactory(EstablishmentFactory)
    code = factory.Sequence(lambda n: f"loc{n}")
    name = factory.Sequence(lambda n: f"Dépôt {n}")
    kind = "depot_principal"

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return location_create(actor=None, **kwargs)


class GamingTableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GamingTable

    establishment = factory.SubFactory(EstablishmentFactory)
    room = factory.SubFactory(RoomFactory, establishment=factory.SelfAttribute("..establishment"))
    number = factory.Sequence(lambda n: f"T{n}")
    game = "blackjack"


_counter = iter(range(1, 10**9))


def make_user(establishment, *roles, username: str | None = None, **fields):
    username = username or f"{'-'.join(roles) or 'user'}-{next(_counter)}"
    fields.setdefault("first_name", username.split("-")[0].capitalize())
    fields.setdefault("last_name", "Test")
    user = get_user_model().objects.create_user(username=username, password=DEFAULT_PASSWORD, **fields)
    for role in roles:
        membership_grant(user=user, establishment=establishment, role=role, actor=None)
    return user


def open_register(establishment, kind: str, qualifier: str = ""):
    """A register of ``kind`` created by the directorate and coted and paraphed by its authority."""
    from ledgers.registers.kinds import DIRECTORATE, get_kind
    from ledgers.registers.services import register_create, register_open

    info = get_kind(kind)
    director = make_user(establishment, *DIRECTORATE[:1], *(r for r in DIRECTORATE if r.startswith("directeur")))
    authority = make_user(establishment, info.paraph_roles_for(establishment.jurisdiction)[0])
    register = register_create(establishment=establishment, kind=kind, actor=director, qualifier=qualifier)
    register_open(register=register, actor=authority, paraphe="PA")
    register.refresh_from_db()
    return register


# The registers every séance writes in: its opening and closing go in the main courante, each
# table-partie's preparation, opening and end in the table-partie log.
SEANCE_REGISTERS = ("main_courante", "parties_de_table")


def open_seance_registers(*establishments) -> None:
    """The registers the casino's séances write in, coted and paraphed, so that it may open them
    (each volume opened only when none is open); every establishment when none is named, as the
    registers' demo seeder does before the others play their séances."""
    from ledgers.core.models import Establishment
    from ledgers.registers.selectors import open_registers

    for establishment in establishments or Establishment.objects.all():
        for kind in SEANCE_REGISTERS:
            if not open_registers(establishment, kind).filter(qualifier="").exists():
                open_register(establishment, kind)


def record_arrete(establishment, games=None, *, total=None, effective_from=None, follows=None, actor=None):
    """An arrêté d'autorisation recorded by the directeur responsable in the coted register of
    gaming authorisations (opened first when none is): ``games`` maps each game to its tables, or
    to (tables, minimum stake); by default ten tables of every game the jurisdiction plays; the
    total is their sum unless given; in force since a year ago unless ``effective_from``."""
    import datetime

    from ledgers.authority.services import arrete_record
    from ledgers.core.games import games_for
    from ledgers.registers.selectors import open_registers

    if not open_registers(establishment, "autorisations_jeux").exists():
        open_register(establishment, "autorisations_jeux")
    if games is None:
        games = {game.code: 10 for game in games_for(establishment.jurisdiction)}
    lines = [
        {"game": game, "tables": given[0], "minimum_stake": given[1]}
        if isinstance(given, tuple)
        else {"game": game, "tables": given, "minimum_stake": None}
        for game, given in games.items()
    ]
    effective_from = effective_from or establishment.localtime().date() - datetime.timedelta(days=365)
    return arrete_record(
        establishment=establishment,
        actor=actor or _table_director(establishment),
        reference=f"Arrêté d'autorisation n° {next(_counter)}",
        signed_on=min(effective_from, establishment.localtime().date()),
        effective_from=effective_from,
        total_tables=total or sum(line["tables"] for line in lines),
        games=lines,
        follows=follows,
    )


def _table_director(establishment):
    """The member of the directorate who sets up the tables here (one per establishment)."""
    username = f"tables-{establishment.code}"
    role = "directeur_responsable" if establishment.jurisdiction == "FR" else "directeur_jeux"
    return get_user_model().objects.filter(username=username).first() or make_user(
        establishment, role, username=username
    )


def set_up_table(establishment, number: str, game: str, *, room=None, **fields):
    """A gaming table set up through its service by the directorate, as the application does: in
    France under the arrêté in force (one authorising ten tables of every game recorded first when
    none is), in Monaco written in the main courante (a volume opened first when none is)."""
    from ledgers.authority.selectors import arrete_in_force
    from ledgers.core.services import gaming_table_create
    from ledgers.registers.selectors import open_registers

    if establishment.jurisdiction == "FR":
        if arrete_in_force(establishment, establishment.localtime().date()) is None:
            record_arrete(establishment)
    elif not open_registers(establishment, "main_courante").filter(qualifier="").exists():
        open_register(establishment, "main_courante")
    room = room or establishment.rooms.first() or RoomFactory(establishment=establishment)
    return gaming_table_create(room=room, number=number, game=game, actor=_table_director(establishment), **fields)


def post_displays(*subjects) -> None:
    """Every display and device a French table or slot machine needs, posted on its checklist
    (REG-23, SLOT-29), so that it may open or go in service."""
    from ledgers.authority.displays import machine_items, table_items
    from ledgers.authority.services import display_post
    from ledgers.registers.models import Register

    for subject in subjects:
        est = subject.establishment
        is_table = isinstance(subject, GamingTable)
        required = table_items(subject, with_bbj=True) if is_table else machine_items(subject)
        if not required:
            continue
        if not Register.objects.filter(
            establishment=est, kind="affichages_reglementaires", status=Register.Status.OPEN
        ).exists():
            open_register(est, "affichages_reglementaires")
        username = f"affichages-{est.code}"
        checker = get_user_model().objects.filter(username=username).first() or make_user(
            est, "comite", username=username
        )
        for item in required:
            display_post(
                establishment=est,
                actor=checker,
                item=item.item,
                posted_on=est.localtime().date(),
                **({"table": subject} if is_table else {"machine": subject}),
            )


def table_cagnotte(table) -> None:
    """A FR cercle table's own cagnotte, numbered like it, in service in its coted carnet modèle 11
    (COUNT-17, COUNT-42), so that a poker table may open."""
    from ledgers.cash.services.table_cagnottes import table_cagnotte_record

    open_register(table.establishment, "carnet_cagnottes", table.number)
    table_cagnotte_record(table=table, number=table.number, actor=make_user(table.establishment, "comite"))


def cercle_cagnottes(*tables) -> None:
    """The own cagnotte of each French cercle table among ``tables`` (COUNT-17, COUNT-42), so that
    they may open: what the cash seeder puts in place before any seeder plays."""
    from ledgers.cash.services.table_cagnottes import keeps_own_cagnotte

    for table in tables:
        if keeps_own_cagnotte(table.establishment.jurisdiction, table.game):
            table_cagnotte(table)


def notice_aged(session, minutes: int = 24 * 60) -> None:
    """Let ``minutes`` pass since the system recorded a destruction's notice to the authority (the
    SET-05 lead time runs from it)."""
    import datetime

    from django.db.models import F

    from ledgers.custody.models import DestructionSession

    DestructionSession.objects.filter(pk=session.pk).update(
        notified_at=F("notified_at") - datetime.timedelta(minutes=minutes)
    )
