"""Subcommands of ``surakarta``; each module is one subcommand (see ``firmware.cli``)."""
