"""The games, one module each: the five of the source texts and Contract Rummy, registered
here in the order they are shown."""

from ..variant import register
from .contract import Contract
from .dummy import Dummy
from .multiplayer import Multiplayer
from .pool import Pool
from .rummy import Rummy
from .texas import Texas
from .vegas import Vegas

for game in (Vegas(), Texas(), Rummy(), Multiplayer(), Dummy(), Contract()):
    register(game)
register(Pool())

__all__ = ["Contract", "Dummy", "Multiplayer", "Pool", "Rummy", "Texas", "Vegas"]
