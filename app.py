"""Entry point for `flask --app app ...`."""
from portal import create_app

app = create_app()
