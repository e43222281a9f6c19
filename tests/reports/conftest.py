import pytest

from ledgers.reports.sealing import demo_certificate_create
from tests.registers.printed import filled_register


@pytest.fixture(autouse=True)
def report_files(settings, tmp_path):
    """Report files and demo certificates go to a temporary directory."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.LEDGERS_SEAL_DEMO_DIR = tmp_path / "seal"
    return tmp_path


@pytest.fixture
def register(mc):
    return filled_register(mc, records=12, visa_after=4)


@pytest.fixture
def demo_seal(mc, report_files):
    path, _ = demo_certificate_create(mc)
    return path
