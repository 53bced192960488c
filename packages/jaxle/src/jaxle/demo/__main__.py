"""``python -m jaxle.demo``."""

from jaxle.demo.cli import main

main()
