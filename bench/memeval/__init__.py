"""The memory evaluation (`bench/memory_eval.py`): scripted multi-session cases replayed through
the installed hook command and `wikimem dream` into one home, then scored on what the next
session is given.

Modules: `clients` (each harness's hook payloads), `cases` (the scripted cases), `replay` (one
home, the hooks, the dreams, the questions), `scoring` (the checkable rules), `scripted_model`
(a Messages API stand-in answering as a good model would).
"""
