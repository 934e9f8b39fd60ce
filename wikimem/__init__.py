"""wikimem: one shared, portable memory for every coding agent you use.

This module must stay empty of imports: the hook entry point imports the package on every agent
event, and anything loaded here is paid for on that path.
"""

__version__ = "0.1.0"
