"""`python -m catalog`: the papers command."""

from catalog.cli import main

main()
