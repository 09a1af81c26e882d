"""`python -m interpreter` is the `regles` command."""
import sys

from .cli import main

sys.exit(main())
