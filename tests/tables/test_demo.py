from io import StringIO

from ledgers.authority import demo as authority_demo
from ledgers.core import demo as core_demo
from ledgers.core.demo import DEMO_FR, DEMO_MC
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.registers import demo as registers_demo
from ledgers.registers.models import Register
from ledgers.registers.verification import verify_register
from ledgers.tables import demo
from ledgers.tables.models import StaffAssignment, TableLimits
from tests.factories import post_displays


def test_demo_seances_have_staff_reliefs_and_limits_and_reseeding_changes_nothing(db):
    core_demo.seed(StringIO())
    registers_demo.seed(StringIO())  # the main courante and the table-partie log the séances write in
    authority_demo.prepare_tables(stdout=StringIO())  # the authorities' seeder's: the tables, under Nice's arrêté
    post_displays(*GamingTable.objects.all())  # the authority seeder's, which runs first (REG-23)
    demo.seed(stdout=StringIO())
    counts = (StaffAssignment.objects.count(), TableLimits.objects.count())
    demo.seed(stdout=StringIO())
    assert (StaffAssignment.objects.count(), TableLimits.objects.count()) == counts
    for code in (DEMO_MC, DEMO_FR):
        est = Establishment.objects.get(code=code)
        sessions = TableSession.objects.filter(seance__establishment=est, staff__isnull=False).distinct()
        assert sessions.count() == 2 * (demo.DAYS + 1)
        assert all(s.minimum_stake is not None for s in sessions)
        assert StaffAssignment.objects.filter(table_session__in=sessions, relief_of__isnull=False).count() == 2 * (
            demo.DAYS + 1
        )
        assert sessions.filter(status=TableSession.Status.OPEN).count() == 2  # today's
        register = Register.objects.get(establishment=est, kind="parties_de_table")
        assert register.head_seq > 20 and verify_register(register) is None
