"""The English catalogues of the apps agree with one another.

Django merges every app's catalogue into one: when two apps translate the same French source
string differently, which one the reader sees depends on the order of the merge, not on the page.
A string that means different things in two places gets a context (``pgettext``)."""

import gettext
from collections import defaultdict
from pathlib import Path

from django.apps import apps
from django.conf import settings


def ledgers_apps():
    return [config for config in apps.get_app_configs() if config.name.startswith("ledgers.")]


def english_catalogues() -> list[Path]:
    roots = [Path(path) for path in settings.LOCALE_PATHS]
    roots += [Path(config.path) / "locale" for config in ledgers_apps()]
    return [mo for root in roots if (mo := root / "en" / "LC_MESSAGES" / "django.mo").exists()]


def test_a_french_string_has_one_english_translation_across_the_apps():
    translations: dict[str, dict[str, str]] = defaultdict(dict)
    for mo in english_catalogues():
        with mo.open("rb") as handle:
            for msgid, msgstr in gettext.GNUTranslations(handle)._catalog.items():
                if msgid:  # "" is the catalogue header
                    translations[msgid][str(mo.relative_to(settings.BASE_DIR))] = msgstr
    assert len(english_catalogues()) > 3
    conflicts = {msgid: found for msgid, found in translations.items() if len(set(found.values())) > 1}
    assert conflicts == {}


def test_every_app_with_french_strings_has_its_english_catalogue():
    """A refusal raised by a shared service (custody, incidents…) reaches English readers too."""
    translated = [
        config
        for config in ledgers_apps()
        if any(
            "django.utils.translation" in path.read_text(encoding="utf-8") for path in Path(config.path).rglob("*.py")
        )
    ]
    assert [
        config.name
        for config in translated
        if not (Path(config.path) / "locale" / "en" / "LC_MESSAGES" / "django.mo").exists()
    ] == []
