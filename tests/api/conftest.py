# The slot rooms, for the shared API layer's tests.
from tests.slots.conftest import fr_room, mc_room  # noqa: F401
