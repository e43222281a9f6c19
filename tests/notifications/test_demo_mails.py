"""The demo's mails, written to a folder, are shown on the notifications page to whom they are
addressed only: by subject and date, with their text, never as file names nor another's mail."""

from django.core import mail as django_mail
from django.core.mail import send_mail
from django.urls import reverse

from ledgers.notifications.selectors import demo_mails


def test_demo_mails_are_the_readers_own_by_subject(settings, tmp_path, mc, user_in, client):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = tmp_path
    settings.DEBUG = True
    scj, other = user_in(mc, "scj", email="scj@casino.test"), user_in(mc, "inspecteur", email="insp@casino.test")
    django_mail.outbox = []
    send_mail("Incident n° 4 — Écart de cagnotte", "Cagnotte de la table CF1.", None, ["scj@casino.test"])
    send_mail("Pour l'inspecteur", "Autre texte.", None, ["insp@casino.test"])
    mails = demo_mails(scj)
    assert [(m.subject, m.body) for m in mails] == [("Incident n° 4 — Écart de cagnotte", "Cagnotte de la table CF1.")]
    assert [m.subject for m in demo_mails(other)] == ["Pour l'inspecteur"]
    client.force_login(scj)
    page = client.get(reverse("notifications:list")).content.decode()
    assert "Incident n° 4 — Écart de cagnotte" in page and ".log" not in page and "Pour l&#x27;inspecteur" not in page
