import html
import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.registers import services
from ledgers.registers.kinds import AUTHORISATIONS
from ledgers.registers.models import EntryKind, Register
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import cast_fixture, main_courante, register_fixture  # noqa: F401 (fixtures)


def text(response) -> str:
    """The page as a reader sees it: tags removed, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def login(client, user):
    client.force_login(user)
    return client


def detail_url(register, **query):
    url = reverse("registers:detail", args=[register.number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


# Register list ------------------------------------------------------------------------------------------------------


def test_register_list_filters_by_kind_status_and_text(client, mc, cast, register):
    awaiting = services.register_create(establishment=mc, kind="main_courante", actor=cast.director)
    login(client, cast.visa)
    page = client.get(reverse("registers:list")).content.decode()
    assert register.number in page and awaiting.number in page
    page = client.get(reverse("registers:list"), {"status": "awaiting"}).content.decode()
    assert awaiting.number in page and register.number not in page
    page = client.get(reverse("registers:list"), {"kind": "main_courante", "q": register.number}).content.decode()
    assert register.number in page and awaiting.number not in page


def test_register_list_shows_only_the_current_establishment(client, mc, fr, cast, register, user_in):
    police = user_in(fr, "police")
    page = login(client, police).get(reverse("registers:list")).content.decode()
    assert register.number not in page


# Register creation and opening act --------------------------------------------------------------------------------


def test_directorate_creates_a_register_awaiting_paraphe(client, mc, cast):
    response = login(client, cast.director).post(
        reverse("registers:create"), {"kind": "main_courante", "qualifier": "", "title": ""}
    )
    created = Register.objects.exclude(kind=AUTHORISATIONS.code).get(establishment=mc)
    assert response.status_code == 302 and response.url == detail_url(created)
    assert created.status == Register.Status.AWAITING_OPENING


def test_register_creation_refused_to_a_croupier_keeps_the_input(client, mc, user_in):
    croupier = user_in(mc, "croupier")
    response = login(client, croupier).post(
        reverse("registers:create"), {"kind": "main_courante", "title": "Mon intitulé"}
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert "Action refusée" in page and "Directeur des jeux" in page and 'value="Mon intitulé"' in page
    assert not Register.objects.exclude(kind=AUTHORISATIONS.code).exists()


def test_authority_cotes_and_paraphs_from_the_dashboard(client, mc, cast):
    waiting = services.register_create(establishment=mc, kind="main_courante", actor=cast.director)
    login(client, cast.authority)
    assert waiting.number in client.get(reverse("dashboard")).content.decode()
    response = client.post(
        reverse("registers:open", args=[waiting.number]),
        {"paraphe": "C.G.", "statement": "", "password": DEFAULT_PASSWORD},
    )
    assert response.status_code == 302
    waiting.refresh_from_db()
    opening = waiting.entries.get(seq=1)
    assert waiting.status == Register.Status.OPEN and opening.kind == EntryKind.OPENING
    assert opening.payload["paraphe"] == "C.G." and "coté et paraphé" in opening.payload["statement"]
    assert reverse("registers:open", args=[waiting.number]) not in client.get(reverse("dashboard")).content.decode()


def test_reg_01_second_opening_refused_shows_code_article_and_keeps_input(client, cast, register):
    response = login(client, cast.authority).post(
        reverse("registers:open", args=[register.number]),
        {"paraphe": "X.Y.", "statement": "Mention saisie", "password": DEFAULT_PASSWORD},
    )
    page = response.content.decode()
    shown = text(response)
    assert response.status_code == 409
    assert f"REG-01 — {REQUIREMENTS['REG-01'].article} : " in shown and "déjà été coté et paraphé" in page
    assert 'value="X.Y."' in page and "Mention saisie" in page
    assert register.entries.count() == 4


def test_opening_form_refused_to_whom_does_not_paraph(client, mc, cast):
    waiting = services.register_create(establishment=mc, kind="main_courante", actor=cast.director)
    response = login(client, cast.visa).get(reverse("registers:open", args=[waiting.number]))
    page = response.content.decode()
    # The refusal names who may act and the article that says so.
    assert response.status_code == 403
    assert "réservé aux rôles : Commissaire du Gouvernement" in page and "REG-01 — AM 88-384 art. 1" in page


# Register detail: keyset paging, corrections, visas ------------------------------------------------------------


def seqs_on(response) -> list[int]:
    return [e.seq for e in response.context["page"].entries]


def test_register_detail_pages_by_keyset(client, mc, cast):
    register = main_courante(mc, cast, entries=119)  # 120 entries with the opening act
    login(client, cast.visa)
    first = client.get(detail_url(register))
    assert seqs_on(first) == list(range(1, 51))
    assert "?after=50" in first.content.decode() and "Relation du fait 49." in first.content.decode()
    assert seqs_on(client.get(detail_url(register, after=50))) == list(range(51, 101))
    assert seqs_on(client.get(detail_url(register, after=100))) == list(range(101, 121))
    assert seqs_on(client.get(detail_url(register, before=51))) == list(range(1, 51))
    last = client.get(detail_url(register, before=121))
    assert seqs_on(last) == list(range(71, 121))
    assert not last.context["page"].has_next and last.context["page"].has_previous
    assert seqs_on(client.get(detail_url(register, after="abc"))) == list(range(1, 51))


def page_queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return [query["sql"] for query in captured.captured_queries]


def test_register_pages_cost_the_same_queries_whatever_the_depth_and_the_volume(client, mc, cast):
    """The register's pages (first, after, before), an entry and the visa form: a fixed number of
    queries, none sent twice (the reader's roles and establishments are read once per page), the
    same once the register holds ten times more entries and a visa, and whatever page is read."""
    register = main_courante(mc, cast, entries=59)
    login(client, cast.visa)

    def costs(head: int) -> dict[str, int]:
        urls = {
            "first": detail_url(register),
            "after": detail_url(register, after=head - 55),
            "before": detail_url(register, before=head - 5),
            "entry": reverse("registers:entry", args=[register.number, head - 10]),
            "visa": reverse("registers:visa", args=[register.number]),
        }
        page_queries(client, urls["first"])  # caches warm (content types, the session)
        found = {}
        for page, url in urls.items():
            queries = page_queries(client, url)
            assert [sql for sql, times in Counter(queries).items() if times > 1] == [], page
            found[page] = len(queries)
        return found

    before = costs(60)
    services.visa_sign(register=register, actor=cast.visa, up_to_seq=30, statement="Vu")
    services.entries_bulk_append(
        register=register, actor=cast.writer, role="inspecteur", payloads=({"subject": str(n)} for n in range(540))
    )
    register.refresh_from_db()
    assert costs(register.head_seq) == before
    assert before["first"] == before["after"] == before["before"] and max(before.values()) <= 14, before


def test_register_detail_shows_columns_corrections_in_red_and_visas(client, mc, cast, register):
    services.entry_correct(
        entry=register.entries.get(seq=2),
        actor=cast.director,
        reason="Erreur de table",
        approval="Approuvé la correction de l'entrée numéro deux",
        payload={"event_at": "2026-03-01 14:00", "subject": "Fait corrigé", "text": "Texte juste"},
    )
    services.visa_sign(register=register, actor=cast.visa, up_to_seq=5, statement="Vu au contrôle")
    page = login(client, cast.visa).get(detail_url(register)).content.decode()
    assert "Relation des faits" in page and "Date et heure du fait" in page  # the kind's columns
    assert 'class="kind-correction correction"' in page and "Corrige le n° 2" in page and "Fait corrigé" in page
    assert "Corrigée par" in page
    assert 'class="kind-visa visa"' in page and "Vu au contrôle" in page
    assert "register_actions" not in page  # the block renders its content, not its name


def test_entry_detail_shows_hashes_visa_and_corrections(client, mc, cast, register):
    correction = services.entry_correct(
        entry=register.entries.get(seq=3),
        actor=cast.director,
        reason="Faute",
        approval="Approuvé en toutes lettres",
        payload={"subject": "Juste"},
    )
    visa = services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")
    entry = register.entries.get(seq=3)
    page = login(client, cast.visa).get(reverse("registers:entry", args=[register.number, 3])).content.decode()
    assert entry.entry_hash in page and entry.prev_hash in page and "02/03/2026 14:00" in page
    assert f"visa n° {visa.seq}" in page and f"n° {correction.seq}" in page and "Faute" in page


def test_entry_detail_unknown_seq_is_404(client, cast, register):
    assert login(client, cast.visa).get(reverse("registers:entry", args=[register.number, 99])).status_code == 404


# Visa with re-authentication ---------------------------------------------------------------------------------------


def test_visa_form_defaults_to_head_and_signs_after_reauthentication(client, cast, register):
    login(client, cast.visa)
    form = client.get(reverse("registers:visa", args=[register.number])).context["form"]
    assert form["up_to_seq"].value() == register.head_seq and "otp_token" not in form.fields
    response = client.post(
        reverse("registers:visa", args=[register.number]),
        {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD},
    )
    assert response.status_code == 302
    visa = register.entries.get(kind=EntryKind.VISA)
    assert visa.payload["covers_seq"] == 4 and visa.actor_user == cast.visa


def test_visa_refused_on_wrong_password_keeps_input(client, cast, register):
    response = login(client, cast.visa).post(
        reverse("registers:visa", args=[register.number]),
        {"up_to_seq": 3, "statement": "Ma mention", "password": "faux"},
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Mot de passe incorrect" in page
    assert "Ma mention" in page and 'value="3"' in page
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_visa_requires_the_totp_code_of_a_confirmed_device(client, cast, register):
    device = TOTPDevice.objects.create(user=cast.visa, name="téléphone", confirmed=True)
    url = reverse("registers:visa", args=[register.number])
    login(client, cast.visa)
    assert "otp_token" in client.get(url).context["form"].fields
    data = {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD, "otp_token": "000000"}
    refused = client.post(url, data)
    assert "Code d'authentification incorrect" in text(refused)
    assert not register.entries.filter(kind=EntryKind.VISA).exists()
    device.refresh_from_db()
    device.throttle_reset()  # django-otp slows down guessing after a failure
    data["otp_token"] = str(TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift).token()).zfill(6)
    assert client.post(url, data).status_code == 302
    assert register.entries.filter(kind=EntryKind.VISA).count() == 1


def test_reg_04_visa_by_the_author_refused_shows_rule_and_keeps_input(client, mc, cast, register, user_in):
    both = user_in(mc, "scj", "inspecteur")
    services.entries_bulk_append(
        register=register,
        actor=both,
        role="inspecteur",
        payloads=[{"event_at": "2026-03-09 10:00", "subject": "S", "text": "T"}],
    )
    response = login(client, both).post(
        reverse("registers:visa", args=[register.number]),
        {"up_to_seq": 5, "statement": "Ma mention", "password": DEFAULT_PASSWORD},
    )
    page = text(response)
    assert response.status_code == 409
    assert f"REG-04 — {REQUIREMENTS['REG-04'].article} : " in page and "entrée n° 5" in page and "Ma mention" in page
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_visa_form_refused_to_a_croupier(client, mc, register, user_in):
    response = login(client, user_in(mc, "croupier")).get(reverse("registers:visa", args=[register.number]))
    assert response.status_code == 403


# Correction, closing act, main courante -------------------------------------------------------------------------


def test_correction_form_prefills_columns_and_appends_a_counter_entry(client, cast, register):
    url = reverse("registers:correct", args=[register.number, 2])
    login(client, cast.director)
    form = client.get(url).context["form"]
    assert form["col__subject"].value() == "Fait 1"
    response = client.post(
        url,
        {
            "reason": "Mauvaise table",
            "approval": "Approuvé la correction de l'entrée deux",
            "col__event_at": "2026-03-01 14:00",
            "col__subject": "Fait 1 corrigé",
            "col__text": "Relation exacte.",
        },
    )
    correction = register.entries.get(kind=EntryKind.CORRECTION)
    assert response.status_code == 302 and response.url == reverse(
        "registers:entry", args=[register.number, correction.seq]
    )
    assert correction.corrects.seq == 2 and correction.payload["corrected"]["subject"] == "Fait 1 corrigé"
    assert correction.payload["approval"] == "Approuvé la correction de l'entrée deux"


def test_reg_27_correction_of_the_opening_act_refused_keeps_input(client, cast, register):
    response = login(client, cast.director).post(
        reverse("registers:correct", args=[register.number, 1]),
        {"reason": "Motif saisi", "approval": "Approuvé", "col__subject": "x"},
    )
    page = response.content.decode()
    assert response.status_code == 409 and "REG-27" in page and "Motif saisi" in page
    assert register.entries.count() == 4


def test_correction_form_refused_to_a_non_approver(client, cast, register):
    response = login(client, cast.writer).get(reverse("registers:correct", args=[register.number, 2]))
    assert response.status_code == 403


def test_closing_act(client, cast, register):
    url = reverse("registers:close", args=[register.number])
    login(client, cast.director)
    assert "confirm" in client.post(url, {"statement": ""}).context["form"].errors
    assert client.post(url, {"statement": "", "confirm": "on"}).status_code == 302
    register.refresh_from_db()
    assert register.status == Register.Status.CLOSED
    assert register.entries.get(seq=register.head_seq).kind == EntryKind.CLOSING


def test_main_courante_fact_recorded_from_the_form(client, cast, register):
    url = reverse("registers:record", args=[register.number])
    login(client, cast.writer)
    assert client.get(url).status_code == 200
    response = client.post(url, {"event_at": "2026-03-10T21:45", "subject": "Incident", "text": "Client contesté."})
    assert response.status_code == 302
    entry = register.entries.get(seq=5)
    assert entry.payload == {"event_at": "2026-03-10 21:45", "subject": "Incident", "text": "Client contesté."}
    assert entry.role == "inspecteur"


# Scoping -------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,args",
    [
        ("registers:detail", []),
        ("registers:entry", [2]),
        ("registers:visa", []),
        ("registers:open", []),
        ("registers:close", []),
        ("registers:correct", [2]),
        ("registers:record", []),
    ],
)
def test_other_establishment_gets_404(client, fr, register, user_in, name, args):
    police = user_in(fr, "police", "directeur_responsable")
    assert login(client, police).get(reverse(name, args=[register.number, *args])).status_code == 404


def test_anonymous_is_sent_to_login(client, register):
    response = client.get(detail_url(register))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_regulator_reads_every_register_of_the_establishment(client, mc, cast, register):
    closed = main_courante(mc, cast, entries=1)
    services.register_close(register=closed, actor=cast.director)
    login(client, cast.visa)
    for reg in (register, closed):
        assert client.get(detail_url(reg)).status_code == 200
