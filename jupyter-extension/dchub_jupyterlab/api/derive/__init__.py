"""Narrower questions answered from wider cached answers, exactly as the service would answer them
(core/src/derive/): queue subsumption and lists that answer items, over the cache directory and
source index the ``dchub`` CLI uses."""

from .flow import answer_item_fields, answer_queue, note_list
from .pairs import BRIEF_FROM_ALL, DCPI_FROM_SCORES
from .policy import DERIVE_MODES, default_derive_mode, parse_derive_mode
from .sources import describe_derived

__all__ = ["answer_queue", "answer_item_fields", "note_list", "DCPI_FROM_SCORES", "BRIEF_FROM_ALL", "DERIVE_MODES",
           "default_derive_mode", "parse_derive_mode", "describe_derived"]
