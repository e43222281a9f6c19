"""Every page of the app renders for the Direction of its jurisdiction, in French and in English."""

import pytest
from django.urls import reverse

FR_PAGES = ("index", "access", "archives", "approvals", "police", "declarations", "house_rules")
MC_PAGES = ("index", "access", "archives", "approvals", "called_bets")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_pages_render(client, fro, mco, language):
    client.cookies["django_language"] = language
    for user, pages in ((fro.directeur_responsable, FR_PAGES), (mco.directeur_jeux, MC_PAGES)):
        client.force_login(user)
        for name in pages:
            response = client.get(reverse(f"authority:{name}"), HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, name
    index = client.get(reverse("authority:index")).content.decode()
    assert reverse("authority:called_bets") in index and reverse("authority:police") not in index
    assert ("Authorities and compliance" if language == "en" else "Autorités et conformité") in index
