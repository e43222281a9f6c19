"""Pages show times on the establishment's clock (its own time zone, not the server's)."""

import zoneinfo

from ledgers.registers.models import Entry
from tests.factories import DEFAULT_PASSWORD, EstablishmentFactory
from tests.registers.ui_setup import main_courante, monaco_cast


def test_register_page_shows_times_on_the_establishments_clock(db, client, user_in):
    est = EstablishmentFactory(
        code="fdf", name="Casino de Fort-de-France", jurisdiction="FR", timezone="America/Martinique"
    )
    cast = monaco_cast(est, user_in)
    register = main_courante(est, cast, entries=1)
    entry = Entry.objects.get(register=register, seq=2)
    local = entry.recorded_at.astimezone(zoneinfo.ZoneInfo("America/Martinique")).strftime("%d/%m/%Y %H:%M")
    monaco = entry.recorded_at.astimezone(zoneinfo.ZoneInfo("Europe/Monaco")).strftime("%d/%m/%Y %H:%M")
    client.login(username=cast.writer.username, password=DEFAULT_PASSWORD)
    page = client.get(f"/registres/{register.number}/").content.decode()
    assert local in page
    assert monaco not in page


def test_establishment_localtime_converts_to_its_zone(db):
    est = EstablishmentFactory(code="fdf2", timezone="America/Martinique")
    assert est.localtime().utcoffset().total_seconds() == -4 * 3600
