"""Recall: the search index and injection. Reached from the hook path: import nothing here."""
