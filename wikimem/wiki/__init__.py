"""The wiki: notes, the write gate, git."""
