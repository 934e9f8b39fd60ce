"""`wikimem sync`: memory/ shared through any git remote, merged note by note (DESIGN §3, §10)."""
