"""`wikimem mcp`: the memory as MCP tools, so an agent can search, read and change it mid-session.

`tools.py` holds what each tool does and returns plain values (testable without the SDK);
`server.py` wires those functions to the official `mcp` SDK on stdio. Only `server.py` imports it.
"""
