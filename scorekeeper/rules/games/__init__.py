"""The games, one module each: the five of the source texts, Contract Rummy, Gin Rummy
and Pool Rummy, registered here in the order they are shown."""

from ..variant import register
from .contract import Contract
from .dummy import Dummy
from .gin import Gin
from .multiplayer import Multiplayer
from .pool import Pool
from .rummy import Rummy
from .texas import Texas
from .vegas import Vegas

for game in (Vegas(), Texas(), Rummy(), Multiplayer(), Dummy(), Contract()):
    register(game)
register(Gin())
register(Pool())

__all__ = ["Contract", "Dummy", "Gin", "Multiplayer", "Pool", "Rummy", "Texas", "Vegas"]
