"""Setting wikimem up in each harness, for the command line only (`wikimem install`, `uninstall`,
`init`, `doctor`): the hook and MCP entries written into each harness's config, the trust each
harness asks for before it runs a hook (Codex's hashes, Gemini CLI's and Copilot CLI's trusted
folders), the OpenCode plugin, the record of the files `install` created, and the doctor's checks
of all that.

The hook path never imports this package: its adapters are `wikimem.harness` (standard library
only), and `tests/test_structure.py` fails if the hook's imports reach here.
"""
