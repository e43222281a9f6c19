"""Who may ask for which report."""

from ledgers.core.roles import REGULATOR_ROLES, Role
from ledgers.registers.kinds import DIRECTORATE

# A printed register is a read of the register: any role held in its establishment.
REGISTER_READERS = tuple(Role.values)
# The daily report gathers every register of the day: the directorate, inspectors, regulators.
DAILY_READERS = (*DIRECTORATE, Role.INSPECTEUR, *sorted(REGULATOR_ROLES))
