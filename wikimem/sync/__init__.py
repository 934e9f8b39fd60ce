"""`wikimem sync`: memory/ shared through any git remote, merged note by note (docs/sync.md)."""
