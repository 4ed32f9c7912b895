"""Setting up a Games in the screens: create, edit each section, publish, amend."""
