"""Capture: the hook path. Standard library only; nothing may be imported here."""
